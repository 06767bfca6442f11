// Schedule quality metrics (definitions: docs/workloads.md, "Metrics").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "components.h"
#include "swf.h"

namespace rota::sim {

enum class FinalState : std::uint8_t { finished, killed, rejected, unfinished };
const char* final_state_name(FinalState);  // "finished", "killed", "rejected", "unfinished"

struct JobOutcome {
    std::int64_t id;
    std::int64_t submit, start, finish;  // seconds; start/finish -1 if never ran
    std::int64_t requested_time;
    std::int64_t run_time;  // finish - start for started jobs
    // The job's resource requirement over [Leinberger99]'s K resources: the mean
    // of its shares R_ij (processors / machine processors, demand / capacity
    // of each pool). < 0: unknown, procs stands in (docs/workloads.md).
    double share = -1;
    // Processor-seconds it held, when its size changed while it ran
    // (malleable); < 0: procs x run_time.
    double node_seconds = -1;
    std::int32_t procs;
    // [Weissman03]: harvest events it suffered (SHRINKs), and the processors
    // it started on (its ideal unless malleable).
    std::int32_t harvested = 0;
    std::int32_t start_procs = 0;
    // [Feitelson97]: times it was swapped out for another job (SWAP_OUT); the
    // state shares its word.
    std::int32_t preemptions : 24 = 0;
    FinalState state : 8;
};
// A job's outcome from its first eight fields, the rest at their defaults.
inline JobOutcome make_outcome(std::int64_t id, std::int64_t submit, std::int64_t start,
                               std::int64_t finish, std::int32_t procs, std::int64_t requested_time,
                               std::int64_t run_time, FinalState state) {
    JobOutcome o{};
    o.id = id;
    o.submit = submit;
    o.start = start;
    o.finish = finish;
    o.procs = procs;
    o.requested_time = requested_time;
    o.run_time = run_time;
    o.state = state;
    return o;
}
// The simulator keeps one per job of a trace: the wide fields first, and
// no padding.
static_assert(sizeof(JobOutcome) <= 80, "JobOutcome is held for every job of a trace");

// Capacity lost while jobs wait ([Zhang00] §2.3): eq. (2) integrates the
// idle processors over the time during which jobs wait; eq. (3), for gang
// scheduling, adds the node time spent switching (context-switch overhead,
// migrations), which the caller reports with add_lost(). With one row
// nothing switches and the two are the same. The simulator calls step()
// after every event time with the state that holds from t until the next
// call; several calls at the same t keep the last state. Units are the
// caller's (the simulator uses seconds).
class CapacityLoss {
  public:
    void step(double t, double idle_procs, bool queue_nonempty);
    // Node time lost to switching in the interval ending at the next step.
    void add_lost(double node_time) { integral_ += node_time; }
    // loss = integral / (span * N); 0 if the denominator is not positive.
    double value(double span, std::int32_t N) const;
    // The integral so far: idle processors x time while jobs wait, plus
    // the switching time added.
    double idle_proc_seconds() const { return integral_; }

  private:
    double integral_ = 0;
    double last_t_ = 0;
    double last_idle_ = 0;  // idle procs counted while the queue is non-empty, else 0
    bool started_ = false;
};

// nan marks an undefined value (no jobs); it becomes null in JSON.
struct Distribution {
    double mean, median, p95, max;  // percentiles: nearest rank
};

struct GroupSummary {
    std::int64_t count = 0;  // completed jobs in the group
    Distribution wait{}, response{};
    double mean_bounded_slowdown = 0;
    // sum(w*r) / sum(w), w = share * run_time (procs * run_time when the
    // share is unknown; with one resource both give the same value)
    double weighted_response = 0;
};

struct Summary {
    std::int32_t machine_procs = 0;
    // Jobs per final state, and all of them.
    std::int64_t jobs = 0, finished = 0, killed = 0, rejected = 0, unfinished = 0;
    // Over completed jobs (finished or killed, start and finish known);
    // small = procs <= small_limit, large = the rest.
    GroupSummary all, small, large;
    std::int32_t small_limit = 32;
    double bsld_threshold = 10;  // Γ, seconds
    std::int64_t first_submit = -1, last_finish = -1;
    double utilization = 0;    // eq. 1
    double capacity_loss = 0;  // eq. 2, as computed by CapacityLoss
    // Set by the caller, not by summarize (nan: not measured): the
    // time-averaged number of waiting jobs between the first and the last
    // arrival (SimResult::mean_queue), and K, the number of resources.
    double mean_queue = std::numeric_limits<double>::quiet_NaN();
    std::int32_t resources = 1;
};

// Γ = bsld_threshold; small jobs use at most small_limit processors.
Summary summarize(const std::vector<JobOutcome>&, std::int32_t machine_procs, double capacity_loss,
                  double bsld_threshold = 10, std::int32_t small_limit = 32);

nlohmann::json to_json(const Summary&);

// Header:
// job_id,submit_time,start_time,finish_time,procs,requested_time,run_time,wait_time,final_state
// Times in seconds; start, finish, run and wait time are -1 for jobs that never started.
// With `components` ([Ngubiri07]'s co-allocation), two more columns:
// components, the widths joined by '+' ("6+6+5"), and clusters, the
// cluster of each component in the same order ("2+0+4"; -1 for a job that
// never started, or when `clusters` is null: the machine has none).
// `clusters` has the layout of `components`.
// With `extras`, two more columns at the end: user (the workload's user
// id, -1 if unknown) and allocated_resources (the nodes in interval
// notation, "0-3 8"; empty for a job that never started).
class NodeTexts;  // simulation.h
struct JobExtras {
    const std::vector<std::int32_t>* users = nullptr;  // one per job, workload order
    // Or the workload's jobs, whose user fields are read when `users` is null.
    const std::vector<TraceJob>* trace = nullptr;
    const NodeTexts* nodes = nullptr;  // SimResult::nodes
    // [Feitelson97]: each job's class number (0: default); adds the columns
    // job_class and preemptions.
    const std::vector<std::int32_t>* classes = nullptr;
    // [Weissman03]: the jobs are malleable; adds the column harvests (the
    // harvest events each suffered: its SHRINKs).
    bool malleable = false;
};
void write_jobs_csv(std::ostream&, const std::vector<JobOutcome>&,
                    const Components* components = nullptr, const Components* clusters = nullptr,
                    const JobExtras* extras = nullptr);

// A duration in human units, two of them at most: "42 s", "7 m 05 s",
// "3 h 12 m", "4 d 07 h"; "-" for nan.
std::string human_duration(double seconds);

// Metrics as rows, one column per named summary. Times in human units
// (human_duration); the final states read "finished", "reached walltime"
// (killed at the estimate: with exact estimates, a job that ran exactly
// its estimate), "rejected", "unfinished". With two columns or more a
// last line names the best policy on each headline metric (best_line).
void print_table(std::ostream&, const std::vector<std::pair<std::string, Summary>>& columns);

// "best: utilization easy (0.83) | wait mean conservative (1 h 02 m) | ...":
// the best column on utilization (highest), mean wait, mean bounded
// slowdown and mean response (lowest); ties name every tied column.
// Empty with fewer than two columns.
std::string best_line(const std::vector<std::pair<std::string, Summary>>& columns);

// [Leinberger99] §4.2's normalised performance gain of a metric over a baseline
// policy: (baseline - value) / baseline, positive when the policy does
// better (a smaller response time). nan when the baseline is 0 or either
// value is nan.
double normalised_gain(double baseline, double value);
// The gains of every column over the column named `baseline` in average
// response time and weighted average response time, as rows; nothing if
// no column has that name.
void print_gains(std::ostream&, const std::vector<std::pair<std::string, Summary>>& columns,
                 const std::string& baseline);

}  // namespace rota::sim
