// Arrival-rate calibration of [Leinberger99] §4.1: the rate of a Poisson arrival
// process is chosen so that FCFS with first-fit EASY backfilling (the
// engine's preset "easy") keeps a target average ready-queue length; the
// other policies are then simulated with the same arrivals
// (docs/workloads.md, "Calibrating the arrival rate").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pools.h"
#include "swf.h"

namespace rota::sim {

struct CalibrationStep {
    double rate = 0;          // jobs per second
    double offered_load = 0;  // on the processors: rate * mean(procs * runtime) / P
    double mean_queue = 0;    // SimResult::mean_queue under the policy
};

struct CalibrationOptions {
    double target = 64;       // mean ready-queue length L [Leinberger99 §4.1: 32, 64, 128]
    double tolerance = 0.05;  // stop when |queue - L| <= tolerance * L
    int max_runs = 40;        // simulations at most
    std::string policy = "easy";
    // Called after every simulation.
    std::function<void(const CalibrationStep&)> progress;
};

// What `rota generate` and `rota simulate` print to stderr after each step.
void print_calibration_step(const CalibrationStep& s);

struct CalibrationResult {
    double rate = 0;  // the closest to the target found
    double offered_load = 0;
    double mean_queue = 0;
    int runs = 0;
    bool converged = false;  // within the tolerance
    std::vector<CalibrationStep> steps;
};

// The mean ready-queue length of `jobs` (with `pools`, on `procs`
// processors) under `policy` when job i arrives at floor(unit[i] / rate).
// Sets the jobs' submit times.
CalibrationStep queue_at_rate(std::vector<TraceJob>& jobs, const PoolDemands& pools,
                              std::int32_t procs, const std::vector<double>& unit, double rate,
                              const std::string& policy = "easy");

// Finds the rate by bisection on its logarithm, starting from the rate at
// which the busiest resource would be fully used, and leaves the jobs'
// submit times at the rate returned. The queue grows with the rate, so the
// bracket is widened by doubling or halving until it holds the target.
// Throws std::invalid_argument when the target cannot be reached (too few
// jobs to make such a queue).
CalibrationResult calibrate_arrivals(std::vector<TraceJob>& jobs, const PoolDemands& pools,
                                     std::int32_t procs, const std::vector<double>& unit,
                                     const CalibrationOptions& options);

}  // namespace rota::sim
