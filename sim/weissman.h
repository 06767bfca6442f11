// [Weissman03]'s two workload models (Weissman, Abburi, England, "Integrated
// Scheduling: The Best of Both Worlds"; docs/workloads.md, "The weissman
// models"):
//  * weissman (§4.2, system-centric): a model of a supercomputer log's
//    statistics: non-stationary Poisson arrivals whose rate follows the
//    hour of the day, the log's discrete distribution of job sizes, and
//    one Weibull distribution of run times. Built in: the fit to the SDSC
//    SP2 log; any SWF log can be fitted instead.
//  * weissman-apps (§4.1, user-centric): instances of three applications,
//    STEN, GE and CL, four problem sizes each (Table 1), arriving with the
//    mean inter-arrival time RT_ideal / (P / P_ideal) x beta, each carrying
//    the bytes its adaptations redistribute.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "generate.h"
#include "swf.h"

namespace rota::sim {

// The statistics §4.2 models, fitted to one log.
struct WeissmanFit {
    std::string source;      // the log fitted, for the header
    std::int32_t procs = 0;  // its machine
    double days = 0;         // the span of its arrivals, in days
    // Arrivals in each hour of the local day over the log (hour 0 starts at
    // midnight): the arrival rate of hour h is hourly[h] / (days x 3600).
    std::array<std::int64_t, 24> hourly{};
    // Job sizes (processors) and how many jobs of the log had each, by size.
    std::vector<std::pair<std::int32_t, std::int64_t>> sizes;
    // Run times (s) ~ Weibull(shape alpha, scale beta), maximum likelihood;
    // drawn run times are cut at the log's longest.
    double weibull_shape = 0;
    double weibull_scale = 0;
    std::int64_t runtime_max = 0;

    double rate(int hour) const;  // arrivals per second in that hour
    // The offered load the fit gives on `procs` processors: mean arrivals
    // per second x E[size] x E[run time] / procs (sizes and run times
    // drawn independently, as the model does).
    double offered_load(std::int32_t procs) const;
};

// Fits §4.2's model to a log's jobs. day_start: the local time of day, in
// seconds, of the log's time 0 (SwfHeader: UnixStartTime + TimeZone).
// std::invalid_argument with fewer than two jobs or a span under an hour.
WeissmanFit fit_weissman(const std::vector<TraceJob>& jobs, std::int32_t procs,
                         std::int64_t day_start, std::string source);
// The same for an SWF file, read with the default mapping.
WeissmanFit fit_weissman_trace(const std::string& path);
// The built-in fit: SDSC-SP2-1998-4.2-cln, the first log of §4.2 (128
// processors), as fit_weissman_trace gives it.
const WeissmanFit& sdsc_sp2_fit();

// The fit as SWF header notes ("Fit: ..."), every number in full.
std::vector<std::string> describe_fit(const WeissmanFit&);

// The maximum-likelihood Weibull (shape, scale) of positive samples.
std::pair<double, double> weibull_mle(const std::vector<double>& x);

// One problem instance of Table 1.
struct AppInstance {
    const char* app;   // "STEN", "GE", "CL"
    int problem;       // 1..4 (P1..P4)
    const char* size;  // the problem size as Table 1 gives it
    std::int32_t ideal;
    std::int64_t rt_ideal;     // seconds on ideal processors
    std::int64_t adapt_bytes;  // bytes one adaptation redistributes, x P
};
// Table 1's twelve instances, STEN P1-P4, GE P1-P4, CL P1-P4; executable
// number (SWF field 14) = index + 1.
const std::array<AppInstance, 12>& weissman_instances();
// The instances of a §4.1 trace template: "sten", "ge", "cl" or "mixed"
// (every instance), as indices into weissman_instances();
// std::invalid_argument otherwise.
std::vector<int> weissman_template(const std::string& apps);

// §4.1's adaptation cost: 1 s + 0.00009 s per byte shipped.
inline constexpr double kWeissmanAdaptLatency = 1.0;      // seconds
inline constexpr double kWeissmanAdaptPerByte = 0.00009;  // seconds per byte
// CL's SeqBlockSize, which the paper does not give: bytes per sequence block.
inline constexpr std::int64_t kWeissmanSeqBlockSize = 16384;
// The machine of §4.4's user-centric experiments.
inline constexpr std::int32_t kWeissmanAppsProcs = 64;

GeneratedWorkload generate_weissman(const GenerateOptions&);
GeneratedWorkload generate_weissman_apps(const GenerateOptions&);

}  // namespace rota::sim
