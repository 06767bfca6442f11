// The trace-driven simulator: it plays the machine for an engine it knows
// only through the C ABI (rota.h), feeding arrivals and job ends and
// carrying out the engine's actions, and records what happened to each job.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics.h"
#include "rota.h"
#include "swf.h"

namespace rota::sim {

// The latest time a simulation can hold, in seconds: the engine's time
// axis in microseconds (a quarter of int64, for windows past it) / 1e6.
constexpr std::int64_t kMaxSimSeconds = INT64_MAX / 4 / 1'000'000;

// How events with the same timestamp are ordered (docs/design.md, "The
// simulator").
enum class EventOrder {
    // All job ends first, then all arrivals in trace order, then one pass.
    batched,
    // pyss's rules: arrivals (in trace order) before ends, ends in the order
    // the jobs started, and a pass after every single event. A job killed at
    // its estimate is freed when the clock reaches it, but its end still
    // takes its place in start order, with a pass of its own.
    pyss,
};

struct SimOptions {
    EventOrder order = EventOrder::batched;
    // Called after each pass with the engine, for live views and checks.
    std::function<void(rota_engine*, std::int64_t now_us)> after_pass;
    // Called every `progress_every` arrivals with (arrived, total).
    std::function<void(std::int64_t, std::int64_t)> progress;
    std::int64_t progress_every = 10000;
    // Gang scheduling: context-switch overhead as a fraction of the time
    // slice, paid by every job switched in at a slice boundary ([Zhang00] §5).
    double cs_overhead = 0.0;
    // The jobs' pool demands ([Leinberger99]'s resources 2..K), one row per job
    // of the workload; the engine must have exactly these pools, in this
    // order ([[machine.pools]]). nullptr or empty: no pools.
    const PoolDemands* pools = nullptr;
    // The jobs' components ([Ngubiri07] §2.2), one entry per job of the
    // workload, submitted with each job; the engine must have clusters
    // ([[machine.clusters]]). nullptr or empty: every job is one component.
    const Components* components = nullptr;
    // Called after every event time with the outcomes so far (workload
    // order); true ends the simulation there: no more arrivals, jobs
    // running stay unfinished. The stopping rule of [Ngubiri07] §4.2
    // (stopping.h) is one.
    std::function<bool(const std::vector<JobOutcome>&)> stop;
    // Record the nodes of every job as it starts (SimResult::nodes).
    bool record_nodes = false;
    // [Weissman03]'s malleable jobs: each job's min (one per job of the
    // workload; its procs are its ideal), submitted with the job, and the
    // execution model the engine is configured with (0 linear, 1
    // parabolic): a job's work runs at the rate its current allocation
    // gives (§4.3), GROW and SHRINK change it and pause the job for their
    // delay. nullptr: rigid jobs.
    const std::vector<std::int32_t>* min_procs = nullptr;
    int exec_model = 0;
    // With min_procs: each job's rota_job.adapt_bytes (the SWF header's
    // AdaptBytes of its executable, [Weissman03] §4.1). nullptr or empty: 0.
    const std::vector<std::int64_t>* adapt_bytes = nullptr;
    // [Feitelson97]: each job's class (rota_job.job_class; 0 the default), one
    // per job of the workload. nullptr: every job in the default class.
    const std::vector<std::int32_t>* job_class = nullptr;
    // SWF field 16: each job's partition number (one per job of the
    // workload, -1 for none), submitted as its partition: the name
    // (*partition_names)[number - 1] when partition_names is given and not
    // empty (a number without a name throws SimError), else the number in
    // decimal ("3"). nullptr or empty: no job has a partition.
    const std::vector<std::int32_t>* partition = nullptr;
    const std::vector<std::string>* partition_names = nullptr;
    // SWF fields 17 and 18 (swf.h, Dependencies): a job with a preceding
    // job arrives when that job ends (finishes, is killed or rejected),
    // plus its think time; its own submit time is not used. The engine
    // holds it: it is submitted ahead, depending on the job it follows
    // (rota_job.depends: ROTA_AFTER_ANY, the think time as the delay), and
    // released as if submitted then. nullptr or empty: every job arrives
    // at its submit time.
    const Dependencies* deps = nullptr;
    // The jobs' arrival order (groups.h, arrival_order()), when the caller
    // keeps it anyway: the simulation reads it instead of sorting a copy of
    // its own. nullptr: computed.
    const std::vector<std::uint32_t>* arrival_order = nullptr;
    // A pass at every multiple of `cycle` seconds while jobs wait (held by
    // admission or queued), as a batch system's periodic scheduling cycle;
    // 0: passes at events only. When only the cycle is left and 100,000
    // cycles in a row have started nothing, the run ends (the waiting jobs
    // unfinished).
    std::int64_t cycle = 0;
};

// One text per job, packed in blocks of 64 KiB, each text ended by a NUL
// (4 bytes a job beside the text): a std::string per job of a million-job
// trace costs 32 MB before any text, and one growing buffer holds up to
// twice its text and, while it grows, both copies. A text longer than a
// block has a block of its own. Setting a job's text again leaves the old
// one unused. A text may not contain a NUL.
class NodeTexts {
  public:
    void resize(std::size_t jobs) {
        offset_.assign(jobs, 0);
        block_.assign(1, std::string(1, '\0'));  // offset 0: the empty text
        block_.front().reserve(kBlock);
    }
    void set(std::size_t job, std::string_view text);
    std::string_view operator[](std::size_t job) const {
        const std::uint32_t at = offset_[job];
        return std::string_view(block_[at >> kBlockBits].data() + (at & (kBlock - 1)));
    }
    std::size_t size() const { return offset_.size(); }
    bool empty() const { return offset_.empty(); }

  private:
    static constexpr unsigned kBlockBits = 16;
    static constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;
    std::vector<std::uint32_t> offset_;  // block << kBlockBits | place in it
    std::vector<std::string> block_;
};

struct SimResult {
    std::vector<JobOutcome> jobs;  // in input order
    double capacity_loss = 0;      // eq. 2 of [Zhang00] (eq. 3 with more than one row)
    std::int64_t slices = 0;       // gang: slice boundaries simulated
    std::int64_t event_times = 0;  // distinct timestamps simulated
    rota_counters counters{};
    // Gang with migration: node-seconds charged to checkpoints and restarts,
    // the sum of eq. (4)/(5) of [Zhang00] over every migration (delay x tasks).
    double migration_node_seconds = 0;
    std::vector<std::pair<std::string, rota_hook_stats>> hooks;    // every hook, by name
    std::vector<std::pair<std::int64_t, std::string>> rejections;  // job id, reason
    // The ready queue (jobs submitted and neither started nor rejected),
    // time-averaged from the first arrival to the last: the load measure of
    // [Leinberger99] §4.1. nan when all jobs arrive at the same time.
    double mean_queue = 0;
    // With components: the cluster (0-based) of each component of each job,
    // in the layout of SimOptions::components; -1 for a job that never
    // started.
    Components clusters;
    // With SimOptions::record_nodes: the nodes each job was started on, in
    // interval notation ("0-3 8"; node_intervals); empty for a job that never
    // started. The last start counts for a job requeued and started again.
    NodeTexts nodes;
    // SimOptions::stop ended the run at stop_time (seconds), after
    // `arrived` of the jobs had been submitted (with dependencies: every
    // job submitted so far; a job whose preceding job never ended is never
    // submitted and stays unfinished).
    bool stopped = false;
    std::int64_t stop_time = -1;
    std::int64_t arrived = 0;
};

// Thrown when the engine answers an error; carries the engine's message.
class SimError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Node runs as Batsim's interval notation: "0-3 8" (runs in order, a run of
// one node as its number, runs separated by a space).
std::string node_intervals(const rota_node_run* runs, std::int32_t nruns);

// Runs `jobs` (seconds, sorted by submit or not: ties keep input order) on
// the engine `e` until every job has ended or nothing can happen any more.
SimResult simulate(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt);

// Every slice switch of a time-sharing engine is a pass: a warning, or
// nothing, when its slice makes more than 10^9 of them over the span of
// `jobs` (the first submission to the last, plus the longest estimate).
// The span bounds the switches from above (rows switch only while two hold
// jobs), so callers warn rather than refuse.
std::string slice_warning(const rota_engine* e, const std::vector<TraceJob>& jobs);
// The same for the scheduling cycle (SimOptions::cycle, seconds): a pass
// every cycle while jobs wait.
std::string cycle_warning(std::int64_t cycle, const std::vector<TraceJob>& jobs);

}  // namespace rota::sim
