// Confidence intervals by batch means and the stopping rule of [Ngubiri07]
// §4.2 ("readings are taken at a maximum relative error of 0.05 at 95 %
// confidence"). Observations arrive in a fixed order (jobs in arrival
// order); consecutive runs of `batch` observations form batches whose means
// are nearly independent when the batches are long enough, and the spread
// of the batch means gives the standard error. Method and defaults:
// docs/workloads.md, "Confidence and the stopping rule".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rota::sim {

// The p-quantile of Student's t distribution with `df` degrees of freedom
// (df >= 1, 0 < p < 1): t_{0.975}(19) = 2.093.
double student_t_quantile(double p, double df);

struct BatchMeansOptions {
    std::int64_t batch = 500;       // jobs per batch at the start
    std::int32_t min_batches = 20;  // no interval from fewer
    // When this many batches are complete, neighbours are merged in pairs
    // and the batch size doubles: there are always between max/2 and max
    // batches, and batches grow with the run, which keeps their means
    // nearly uncorrelated however correlated the jobs are.
    std::int32_t max_batches = 40;
    double confidence = 0.95;
};

// One series' estimate: a ratio of sums over the batches (the series'
// values and its number of values in each batch, which varies for a group).
struct SeriesEstimate {
    std::int64_t count = 0;  // values in the complete batches
    double mean = 0;         // nan without values
    double half_width = 0;   // nan with fewer than two batches
    double rel_error = 0;    // half_width / mean; +inf when unknown
};

struct BatchMeansResult {
    std::int64_t batch_size = 0;    // jobs per batch
    std::int32_t batches = 0;       // complete batches
    std::int64_t observations = 0;  // jobs in the complete batches
    double confidence = 0.95;
    std::vector<SeriesEstimate> series;
    // Lag-1 autocorrelation of series 0's batch means: near 0 when the
    // batches are long enough.
    double lag1 = 0;
    // The largest relative error of the watched series that have values
    // (+inf before min_batches batches).
    double max_rel_error = 0;
};

// Batch means over several series at once: every job belongs to a batch,
// and adds its value to the series it is in (the whole stream and its
// groups). A job without a value (rejected) still takes its place in the
// batch. Series whose `watched` flag is false are estimated but do not
// count towards max_rel_error.
class BatchMeans {
  public:
    BatchMeans(std::size_t series, const BatchMeansOptions& options,
               std::vector<bool> watched = {});

    // The next job: `value` in each of series[0 .. n).
    void add(const std::size_t* series, std::size_t n, double value);
    // The next job, without a value.
    void skip();
    // True when the last add or skip completed a batch.
    bool batch_closed() const { return closed_; }
    std::int32_t batches() const { return static_cast<std::int32_t>(sums_.size()); }
    std::int64_t batch_size() const { return size_; }
    BatchMeansResult result() const;

  private:
    void next_job();

    std::size_t series_;
    BatchMeansOptions opt_;
    std::vector<bool> watched_;
    std::int64_t size_;
    std::int64_t in_batch_ = 0;  // jobs in the open batch
    std::vector<double> open_sum_;
    std::vector<std::int64_t> open_n_;
    std::vector<std::vector<double>> sums_;      // per complete batch, per series
    std::vector<std::vector<std::int64_t>> ns_;  // per complete batch, per series
    bool closed_ = false;
};

}  // namespace rota::sim
