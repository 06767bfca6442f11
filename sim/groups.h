// Group-wise metrics of [Ngubiri07] §4.2 and Table 1: the average response
// time (ART) of the whole job stream and of job groups by number of
// components (C1..Ck), by size quartile (S1..S4) and by quartile of the
// width of the widest component (W1..W4), each with its share of the jobs
// and of the load (size x execution time). Definitions:
// docs/workloads.md, "Group-wise metrics".
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batch_means.h"
#include "components.h"
#include "metrics.h"
#include "swf.h"

namespace rota::sim {

// Quartile boundaries: the largest value of groups 1, 2 and 3 (the last
// group runs to the largest value). [Ngubiri07] §4.2 for its workload: sizes
// {1, 3, 7}, i.e. S1 = {1}, S2 = [2, 3], S3 = [4, 7], S4 = [8, 38].
struct GroupBounds {
    std::vector<std::int32_t> size;                                    // S: 3 values, increasing
    std::vector<std::int32_t> widest;                                  // W: 3 values, increasing
    std::string size_source = "workload", widest_source = "workload";  // or "given"
};

// The quartile boundaries of a discrete distribution: the three cuts that
// make the four groups' shares of `weight` closest to 25 % each (least sum
// of squared deviations; balanced_cuts). `values` are distinct and
// increasing, weight[i] the mass of values[i]. With fewer than four values,
// fewer boundaries (and empty last groups).
std::vector<std::int32_t> quartile_bounds(const std::vector<std::int32_t>& values,
                                          const std::vector<double>& weight);

// What a job is, for grouping: its size and its components.
struct JobShape {
    std::int32_t size = 0;
    std::int32_t components = 1;
    std::int32_t widest = 0;
};
// Shapes of a workload's jobs; without components every job is one.
std::vector<JobShape> job_shapes(const std::vector<TraceJob>& jobs, const Components& c);

// The bounds of the empirical distributions of sizes and widest components
// over the jobs (each job counts once).
GroupBounds derive_bounds(const std::vector<JobShape>& shapes);

// The series the groups define: 0 = the whole stream, then C1..Ck, S1..S4,
// W1..W4 (k: the most components of any job, at least 1). A job belongs to
// exactly one group of each family.
struct GroupLayout {
    GroupBounds bounds;
    std::int32_t max_components = 1;
    // The smallest and largest size and widest component of the workload,
    // the ends of the first and last groups.
    std::int32_t size_min = std::numeric_limits<std::int32_t>::max(), size_max = 0;
    std::int32_t widest_min = std::numeric_limits<std::int32_t>::max(), widest_max = 0;
    std::size_t series() const { return 1 + static_cast<std::size_t>(max_components) + 8; }
    std::string name(std::size_t series) const;  // "all", "C1", ..., "S1", ..., "W4"
    // The range of values of a group series, "[2, 3]", "{1}" or "2" for C.
    std::string range(std::size_t series) const;
    // The four series of the job: all, its C, S and W groups.
    std::array<std::size_t, 4> of(const JobShape&) const;
};
GroupLayout make_layout(const std::vector<JobShape>& shapes, const GroupBounds& bounds);

struct GroupStat {
    std::string name, range;
    std::int64_t jobs = 0;       // jobs of the group in the measured set
    double job_share = 0;        // of the measured jobs
    double load_share = 0;       // of their size x runtime
    std::int64_t completed = 0;  // with a response time
    double art = 0;              // average response time, seconds (nan if none)
    double half_width = 0;       // batch means, seconds (nan: too few batches)
    double rel_error = 0;        // half_width / art
};

// The measured set: jobs whose rank in arrival order (submit time, ties in
// workload order) is in [first, first + count). count -1: to the end.
struct MeasuredSet {
    std::int64_t first = 0;
    std::int64_t count = -1;
};

struct GroupReport {
    GroupLayout layout;
    std::vector<GroupStat> stats;  // one per series, layout order
    BatchMeansResult batches;      // of the measured jobs, every series
    std::int64_t measured_first = 0, measured_jobs = 0;
    double time_unit = 0;  // seconds per model time unit (0: none declared)
};

// `order` is the arrival order of the jobs (arrival_order()); outcomes and
// shapes are in workload order. Response times come from the outcomes of
// completed jobs; shares from the workload's sizes and runtimes.
GroupReport group_report(const std::vector<TraceJob>& jobs, const std::vector<JobShape>& shapes,
                         const std::vector<JobOutcome>& outcomes,
                         const std::vector<std::uint32_t>& order, const GroupLayout& layout,
                         const MeasuredSet& measured, const BatchMeansOptions& batch_options);

// Jobs sorted by submit time, ties in workload order: the order the
// simulator submits them in.
std::vector<std::uint32_t> arrival_order(const std::vector<TraceJob>& jobs);

nlohmann::json to_json(const GroupReport&);
// One table per family: group, range, jobs %, load %, ART, ± half-width.
void print_groups(std::ostream&, const std::string& policy, const GroupReport&);

}  // namespace rota::sim
