// Synthetic workload generator (model and defaults: docs/workloads.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "swf.h"

namespace rota::sim {

// Which workload model generate() draws from (docs/workloads.md):
//  * standard: rota's own model; the arrival rate is set by `load`.
//  * zhang: the LLNL ASCI Blue-Pacific model of paper 000 §2.1-2.2 (320
//    nodes, sizes 1..256, size classes with hyper-Erlang execution times and
//    hyper-exponential interarrivals, offered load 0.55 at factor 1), whose
//    execution times are multiplied by `factor` (1.0..1.8: workloads 0..8 of
//    its Table 1). Uses jobs, procs, phi, seed and factor; the other options
//    are ignored. Start from zhang_options() to get its defaults.
enum class WorkloadModel { standard, zhang };

struct GenerateOptions {
    WorkloadModel model = WorkloadModel::standard;
    // zhang only (standard requires 1): multiplies every execution time; the
    // arrival times, sizes and overestimation factors of a seed do not change.
    double factor = 1.0;

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

// Defaults of the zhang model: 10,000 jobs, 320 processors, Φ = 0.2, the given
// runtime factor (workload k of paper 000's Table 1 is factor 1.0 + 0.1 k).
inline constexpr std::int32_t kZhangProcs = 320;
inline constexpr double kZhangBaseLoad = 0.55;  // offered load at factor 1
GenerateOptions zhang_options(double factor = 1.0, std::uint64_t seed = 1);

// "standard" or "zhang"; parse_model throws std::invalid_argument otherwise.
const char* model_name(WorkloadModel);
WorkloadModel parse_model(const std::string&);

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

// The options as "key=value" pairs separated by spaces, as written in the
// header. Standard model: every option but model and factor. Zhang model:
// "model=zhang factor=F jobs=N procs=P phi=Φ seed=S", the options it uses.
std::string describe(const GenerateOptions&);

}  // namespace rota::sim
