// The stopping rule of [Ngubiri07] §4.2: simulate until the average response
// times of the whole stream and of every group are known within a relative
// error (0.05) at a confidence (95 %), by batch means over the jobs in
// arrival order after a warm-up (docs/workloads.md, "Confidence and the
// stopping rule"). The workload's length is the cap.
#pragma once

#include <cstdint>
#include <vector>

#include "batch_means.h"
#include "groups.h"
#include "metrics.h"

namespace rota::sim {

struct StopRule {
    double rel_error = 0;     // the target; 0: no rule, run the whole workload
    std::int64_t warmup = 0;  // first jobs (arrival order) left out of every metric
    bool groups = true;       // every group must meet it, not only the whole stream
    BatchMeansOptions batches;
};

// Watches a simulation's outcomes as they come (SimOptions::stop) and says
// when the rule holds. A job joins its batch when it is resolved (completed
// or rejected) and every job that arrived before it has joined, so the
// measured set is always a run of consecutive arrivals.
class StopMonitor {
  public:
    StopMonitor(std::vector<JobShape> shapes, GroupLayout layout, std::vector<std::uint32_t> order,
                StopRule rule);

    // Takes in the jobs resolved since the last call; true when the rule
    // holds (at the end of a batch).
    bool update(const std::vector<JobOutcome>& outcomes);
    bool stopped() const { return stopped_; }
    // Jobs in the complete batches when it stopped (the measured set starts
    // at the warm-up's end).
    std::int64_t measured_jobs() const { return measured_; }
    double max_rel_error() const { return last_.max_rel_error; }
    const BatchMeansResult& last() const { return last_; }

  private:
    std::vector<JobShape> shapes_;
    GroupLayout layout_;
    std::vector<std::uint32_t> order_;
    StopRule rule_;
    BatchMeans bm_;
    std::size_t next_ = 0;
    bool stopped_ = false;
    std::int64_t measured_ = 0;
    BatchMeansResult last_;
};

// Which series the rule watches: the whole stream only, or every series.
std::vector<bool> watched_series(const GroupLayout& layout, bool groups);

}  // namespace rota::sim
