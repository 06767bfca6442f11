// `rota sweep`: running a plan's runs on this machine, N at a time, each
// as a child process `rota simulate runs/<i>/run.toml --summary-json ...`
// (docs/sweeps.md, "How runs are run").
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sweep_plan.h"

namespace rota::sim {

struct PoolOptions {
    int jobs = 1;      // runs at a time
    std::string rota;  // the rota binary to run; empty: this process's own (/proc/self/exe)
    // Called after every finished run and once at the start.
    std::function<void(const struct PoolProgress&)> progress;
};

struct PoolProgress {
    std::size_t total = 0;    // runs of the plan
    std::size_t done = 0;     // finished, this time or before (summary present)
    std::size_t skipped = 0;  // already done when the pool started
    std::size_t failed = 0;
    double elapsed = 0;  // seconds since the pool started
    double eta = -1;     // seconds left, from this session's mean run time; -1: unknown
};

struct PoolResult {
    std::size_t ran = 0, skipped = 0;
    std::vector<std::size_t> failed;  // run indices whose `rota simulate` failed
    double seconds = 0;
};

// A run is done when runs/<i>/summary.json exists; done runs are skipped,
// so a sweep that was interrupted resumes where it stopped. A failed run's
// messages stay in runs/<i>/stderr.txt.
PoolResult run_pool(const SweepPlan&, const std::string& dir, const PoolOptions&);

// The progress line: "12/40 runs, 1 failed, elapsed 0:31, ETA 1:13".
std::string progress_line(const PoolProgress&);

// This process's own executable.
std::string self_exe();

}  // namespace rota::sim
