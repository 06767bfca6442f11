// The Lublin-Feitelson workload model of rigid parallel jobs:
//   U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
//   modeling the characteristics of rigid jobs", J. Parallel Distrib.
//   Comput. 63(11):1105-1122, 2003.
// Sizes from a two-stage uniform distribution of log2(size) with serial and
// power-of-two probabilities, runtimes whose log is hyper-gamma with a mix
// that depends on the size, arrivals whose log inter-arrival time is gamma,
// spread over the day by a daily cycle; batch and interactive jobs each
// with their own parameters. Every parameter and how rota adapts it to the
// machine size and the offered load: docs/workloads.md, "The lublin model".
#pragma once

#include <cstdint>
#include <vector>

#include "generate.h"

namespace rota::sim {

// One class of jobs (batch or interactive) of the model.
struct LublinClass {
    // Sizes: serial with probability `serial`; else log2(size) from the
    // two-stage uniform on [ulow, umed] (probability uprob) and [umed, uhi],
    // rounded to an integer (a power of two) with probability pow2 / (1 -
    // serial) (the model's u <= serial + pow2 on the same uniform).
    double serial, pow2, ulow, umed, uhi, uprob;
    // Runtimes: ln(runtime) ~ Gamma(a1, b1) with probability p = pa * size
    // + pb (clipped to [0, 1]), else Gamma(a2, b2); shape a, scale b.
    double a1, b1, a2, b2, pa, pb;
    // Arrivals: ln(inter-arrival seconds at the rush hour) ~ Gamma(aarr *
    // arar, barr); the share of the day's arrivals in half-hour k follows
    // the Gamma(anum, bnum) density on the day's hours moved cyclically to
    // start at half-hour 11 (the model's CYCLIC_DAY_START).
    double aarr, barr, anum, bnum, arar;
};

// The paper's parameters for a machine of 128 nodes (uhi = 7).
LublinClass lublin_batch();
LublinClass lublin_interactive();
// The same adapted to a machine of `procs` processors: uhi = log2(procs)
// for batch jobs (log2(procs) - 1.5 for interactive ones), umed kept at
// the same distance below uhi, both at least ulow.
LublinClass lublin_scaled(const LublinClass& c, std::int32_t procs, bool interactive);

inline constexpr std::int32_t kLublinProcs = 128;
// Runtimes and inter-arrival times are drawn again above these logs (the
// model's TOO_MUCH_TIME and TOO_MUCH_ARRIVE_TIME): about 45 hours, 5 days.
inline constexpr double kLublinMaxLogRuntime = 12;
inline constexpr double kLublinMaxLogInterarrival = 13;

// Gamma(shape, scale) cumulative distribution at x (regularised lower
// incomplete gamma function of x / scale).
double gamma_cdf(double x, double shape, double scale);

// The daily cycle: the weight of each of the 48 half-hours of the day
// (half-hour 0 starts at midnight), normalised to mean 1.
std::vector<double> lublin_daily_weights(const LublinClass& c);

// The workload of GenerateOptions `o` (model lublin): jobs, procs, load,
// phi, seed, estimate_max and users are used. The arrivals are stretched
// or compressed by one factor (the rush-hour inter-arrival times times a
// constant, the daily cycle kept at 24 hours) so that the offered load is
// `load` (within 0.5 % on the workloads tested; the closest of 40
// fixed-point steps otherwise). Estimates follow the Φ model of the standard model.
std::vector<TraceJob> generate_lublin(const GenerateOptions& o);

}  // namespace rota::sim
