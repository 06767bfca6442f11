// Synthetic workload generator (model and defaults: docs/workloads.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/swf.h"

namespace rota::sim {

struct GenerateOptions {
    std::int64_t jobs = 10000;
    std::int32_t procs = 1024;  // machine size
    double load = 0.9;          // offered load: sum(procs * runtime) / (procs_machine * span)
    double phi = 0.2;           // Φ: fraction of jobs whose estimate equals their runtime
    std::uint64_t seed = 1;

    // Job sizes: 1 with probability p_serial; otherwise 2^U, U ~ uniform[0, log2(procs)],
    // U rounded to an integer with probability p_pow2, else a uniform size in
    // [2^floor(U), 2^(floor(U)+1)). Capped at procs.
    double p_serial = 0.25;
    double p_pow2 = 0.75;

    // Runtimes: lognormal, exp(mu + sigma * N(0,1)) seconds, rounded, clamped to
    // [1, runtime_max]. Defaults: median 403 s, mean about 2,660 s after the cap.
    double runtime_mu = 6.0;
    double runtime_sigma = 2.0;
    std::int64_t runtime_max = 36 * 3600;

    // Estimates: runtime * Φ-model factor, rounded up, at most
    // max(runtime, estimate_max) (a site's walltime limit).
    std::int64_t estimate_max = 36 * 3600;

    // Users: 0 = no user ids (-1); else ids 1..users with Zipf(1) popularity.
    std::int32_t users = 0;
};

// Throws std::invalid_argument on options out of range. Deterministic for a
// seed on every platform: only std::mt19937_64's raw output is used.
std::vector<TraceJob> generate(const GenerateOptions&);

// Offered load of jobs on a machine of `procs` processors:
// sum(procs_i * runtime_i) / (procs * (last submit - first submit)).
double offered_load(const std::vector<TraceJob>&, std::int32_t procs);

// SWF with header comments (MaxProcs, MaxNodes, the generator and its
// options). Fields 4 = runtime, 5 = 8 = procs, 9 = estimate, 12 = user; the
// others are -1.
void write_swf(std::ostream&, const std::vector<TraceJob>&, const GenerateOptions&);

// The options as "key=value" pairs separated by spaces, as written in the header.
std::string describe(const GenerateOptions&);

}  // namespace rota::sim
