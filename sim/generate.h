// Synthetic workload generator (model and defaults: docs/workloads.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <utility>
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
//  * feitelson_k ("feitelson-k"): [Leinberger99] §4.1's synthetic workload: job
//    sizes and runtimes of the Feitelson 1996 model (with its repeated
//    runs) on `procs` (128) processors, extended to `k` resources with
//    requirements drawn from Normal(0.5, `variance`) scaled by the job's
//    size; resources 2..k are pools "r2".."rk" of `pool_capacity` units.
//    Poisson arrivals at offered processor load `load`, or calibrated to a
//    mean ready-queue length under FCFS/FF-EASY (calibrate.h). Uses jobs,
//    procs, load, phi, seed, k, variance and pool_capacity. Start from
//    feitelson_k_options().
//  * ngubiri: [Ngubiri07] §2.2 and §4.1's multi-cluster workload: sizes from
//    D(q) on [size_min, size_max] (eq. 1), jobs above `thres` broken into
//    2..max_components components (random or phased), exponential
//    execution and inter-arrival times in model time units of `time_unit`
//    seconds; estimates are a constant walltime the runtimes never reach.
//    Uses jobs, seed and the ngubiri options below. Start from
//    ngubiri_options().
//  * lublin: the Lublin-Feitelson 2003 model of rigid jobs (lublin.h),
//    batch and interactive jobs, on `procs` processors at offered load
//    `load`. Uses jobs, procs, load, phi, seed, estimate_max and users.
//    Start from lublin_options(): the built-in workload of `rota`.
//  * feitelson96: [Feitelson97] §3.2's workload (Feitelson & Jette 1997, an
//    improved Feitelson 1996 model): the 1996 sizes, three-stage
//    hyperexponential runtimes whose stage weights depend on the size,
//    Poisson arrivals of new jobs and repeated runs submitted when the run
//    before them ends (Dependencies, SWF fields 17 and 18). `load` is the
//    offered processor load of every run over the span of the new jobs'
//    arrivals. Uses jobs, procs (128), load, phi (1: exact estimates) and
//    seed. Start from feitelson96_options().
//  * weissman: [Weissman03] §4.2's system-centric workload (weissman.h):
//    arrivals by hour of the day, the log's job sizes and Weibull run
//    times, fitted to the SDSC SP2 log or to `fit_trace`. Uses jobs, procs
//    (the log's machine), load (0: the log's own rates; else the rates
//    scaled to this offered load), phi (1: exact estimates) and seed.
//  * weissman_apps ("weissman-apps"): [Weissman03] §4.1's user-centric
//    workload: instances of Table 1's applications (`apps`: sten, ge, cl
//    or mixed) on `procs` (64) processors, Poisson arrivals of mean gap
//    RT_ideal / (P / P_ideal) x `beta`, each job's executable (SWF field
//    14) and adaptation bytes. Uses jobs, procs, apps, beta, phi, seed.
enum class WorkloadModel {
    standard,
    zhang,
    feitelson_k,
    ngubiri,
    lublin,
    feitelson96,
    weissman,
    weissman_apps
};

// How a large job's component count is chosen ([Ngubiri07] §2.2): random, each
// of 2..k with probability 1/(k-1); phased, by its size, from bounds that
// give each count 1/(k-1) of the large jobs.
enum class Partition { random, phased };
const char* partition_name(Partition);          // "random", "phased"
Partition parse_partition(const std::string&);  // std::invalid_argument otherwise

// The most jobs a generated workload holds: each is built before the run,
// and a hundred million take gigabytes.
inline constexpr long long kMaxJobs = 100'000'000;
// feitelson-k's K (the pools are a bit mask of the engine's); ngubiri's
// largest job size and most components of a job.
inline constexpr long long kMaxResources = 64;
inline constexpr long long kMaxNgubiriSize = 1'000'000;
inline constexpr long long kMaxComponents = 1000;

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

    // feitelson_k only (docs/workloads.md, "The feitelson-k model").
    std::int32_t k = 2;     // K resources: processors and k - 1 pools
    double variance = 0.1;  // V of Normal(0.5, V) [Leinberger99 §4.1: 0.01, 0.1, 1.0]
    std::int64_t pool_capacity = 1000000;  // units of each pool r2..rk
    // Recorded in the header only: the target of the calibration that set
    // the arrivals (0: none, the arrivals follow `load`).
    double queue_length = 0;

    // weissman only: the SWF log to fit (empty: the built-in SDSC SP2 fit).
    std::string fit_trace;
    // weissman_apps only: the trace template and §4.1's beta.
    std::string apps = "mixed";
    double beta = 1.0;

    // ngubiri only (docs/workloads.md, "The ngubiri model"); defaults are
    // [Ngubiri07] §4.1's.
    double q = 0.85;                  // D(q) of eq. 1
    std::int32_t size_min = 1;        // n1
    std::int32_t size_max = 38;       // n2
    std::int32_t thres = 11;          // the largest job that is not broken up
    std::int32_t max_components = 4;  // k
    Partition partition = Partition::random;
    double mean_runtime = 10;         // model time units
    double mean_interarrival = 0.64;  // model time units
    double time_unit = 1000;          // seconds per model time unit
    // The machine the workload is made for, written into the SWF header
    // ("; Clusters:"); procs is their sum. Empty: 5 clusters of 20 nodes.
    std::vector<std::int32_t> clusters;
};

// A workload with its pool demands and its arrival process at rate 1
// (feitelson_k: the Poisson process the calibration rescales; empty for
// the other models).
struct GeneratedWorkload {
    std::vector<TraceJob> jobs;
    PoolDemands pools;
    Components components;  // ngubiri: every job's widths; else empty
    std::vector<double> unit_arrivals;
    // feitelson96: every repeated run follows the run before it (think
    // time 0); its submit time is where it would arrive on an idle machine
    // (the run before's submit plus its runtime), which the simulator does
    // not use. Else empty.
    Dependencies deps;
    // weissman_apps: every job's executable and each executable's
    // adaptation bytes (SWF field 14 and "; AdaptBytes:"). Else empty.
    Applications apps;
    // Header notes the model adds (weissman: the fit it drew from).
    std::vector<std::string> notes;
};

// Defaults of the zhang model: 10,000 jobs, 320 processors, Φ = 0.2, the given
// runtime factor (workload k of paper 000's Table 1 is factor 1.0 + 0.1 k).
inline constexpr std::int32_t kZhangProcs = 320;
inline constexpr double kZhangBaseLoad = 0.55;  // offered load at factor 1
GenerateOptions zhang_options(double factor = 1.0, std::uint64_t seed = 1);

// Defaults of the feitelson_k model: 128 processors [Leinberger99 §4.1], K = 2,
// V = 0.1, pools of 1,000,000 units, exact estimates (Φ = 1).
inline constexpr std::int32_t kFeitelsonProcs = 128;
GenerateOptions feitelson_k_options(std::int32_t k = 2, double variance = 0.1,
                                    std::uint64_t seed = 1);

// Defaults of the feitelson96 model: 128 processors (the machine of
// [Feitelson97]'s examples), exact estimates (Φ = 1), offered load 0.5.
GenerateOptions feitelson96_options(std::uint64_t seed = 1);

// Defaults of the ngubiri model, [Ngubiri07] §4.1: 5 clusters of 20 nodes,
// D(0.85) on [1, 38], thres 11, up to 4 components, random partitioning,
// mean execution time 10 and mean inter-arrival time 0.64 (offered load
// 0.786), one model time unit = 1,000 s.
inline constexpr std::int32_t kNgubiriClusters = 5;
inline constexpr std::int32_t kNgubiriNodes = 20;
// The walltime every job is given as its estimate: this many mean
// execution times. Exponential runtimes reach it with probability e^-100.
inline constexpr double kNgubiriWalltimeMeans = 100;
GenerateOptions ngubiri_options(std::uint64_t seed = 1);

// The built-in workload of `rota` and `rota simulate` without a trace: the
// lublin model, 10,000 jobs on 128 processors (the machine the model was
// fitted to) at offered load 0.5, Φ = 0.2, seed 1 (docs/workloads.md).
GenerateOptions lublin_options(std::uint64_t seed = 1);

// Defaults of the weissman models: the SDSC SP2's 128 processors and its
// own arrival rates (load 0), or 64 processors, mixed apps and beta 1;
// exact estimates (Φ = 1) for both.
GenerateOptions weissman_options(std::uint64_t seed = 1);
GenerateOptions weissman_apps_options(std::uint64_t seed = 1);

class Rng;
// A run time's estimate under the Φ model of paper 000 §2.1: the run time
// with probability phi, else run time x (1-Φ)/(1-y), y uniform, at most
// max(run time, estimate_max).
std::int64_t phi_estimate(Rng&, const GenerateOptions&, std::int64_t runtime);

// Eq. 1 of [Ngubiri07]: p_i = c q^i / Q on [n1, n2] with c = 3 for a power of
// two (1 = 2^0 included) and 1 otherwise. Element i - n1 is p_i.
std::vector<double> ngubiri_size_pmf(double q, std::int32_t n1, std::int32_t n2);
// The phased bounds b_1 < ... < b_(k-2) for the sizes thres+1..n2: jobs up
// to b_1 get 2 components, b_1+1..b_2 get 3, ..., above b_(k-2) get k. Each
// range holds as nearly 1/(k-1) of the large jobs of `pmf` (index i - n1)
// as the discrete sizes allow (balanced_cuts). [Ngubiri07] names k - 1 bounds
// with b_(k-1) = the largest size, the end of the last range.
std::vector<std::int32_t> phased_bounds(const std::vector<double>& pmf, std::int32_t n1,
                                        std::int32_t thres, std::int32_t k);
// Splits the values 0..n-1, weighted by `w`, into `groups` consecutive
// ranges whose shares of the total weight are as close to 1/groups as
// possible (least sum of squared deviations; on a tie the earliest cut).
// Returns groups - 1 cut indices: range g ends at cut g (inclusive). Values
// of weight 0 are never the last of a range unless nothing else is left.
std::vector<std::size_t> balanced_cuts(const std::vector<double>& w, std::size_t groups);

// "standard", "zhang", "feitelson-k", "ngubiri", "lublin", "feitelson96",
// "weissman" or "weissman-apps"; parse_model throws
// std::invalid_argument otherwise.
const char* model_name(WorkloadModel);
WorkloadModel parse_model(const std::string&);

// A setting out of its range. `setting` is its name as the configuration
// spells it (simulator.workload.<setting>; the flag --<setting> with dashes),
// `rule` what it must be, with the value given; what() reads
// "generate: <setting> <rule>". The caller knows whether a key or a flag
// gave the value, and names that.
struct GenerateError : std::invalid_argument {
    GenerateError(std::string setting_, std::string rule_)
        : std::invalid_argument("generate: " + setting_ + " " + rule_),
          setting(std::move(setting_)),
          rule(std::move(rule_)) {}
    std::string setting, rule;
};

// Throws GenerateError on a setting out of range, std::invalid_argument on
// other inconsistent options. Deterministic for a seed on every platform:
// only std::mt19937_64's raw output is used.
std::vector<TraceJob> generate(const GenerateOptions&);
// The same with the pools and the unit-rate arrivals (feitelson_k).
GeneratedWorkload generate_workload(const GenerateOptions&);

// Poisson arrivals at rate 1: n cumulative sums of exponentials of mean 1,
// the first at 0, from std::mt19937_64(seed).
std::vector<double> unit_poisson_arrivals(std::size_t n, std::uint64_t seed);
// Sets job i's submit time to floor(unit[i] / rate) seconds: the same
// Poisson process at `rate` jobs per second. unit.size() == jobs.size().
void set_arrivals(std::vector<TraceJob>& jobs, const std::vector<double>& unit, double rate);

// Offered load of jobs on a machine of `procs` processors:
// sum(procs_i * runtime_i) / (procs * (last submit - first submit)).
double offered_load(const std::vector<TraceJob>&, std::int32_t procs);

// SWF with header comments (MaxProcs, MaxNodes, the generator and its
// options). Fields 4 = runtime, 5 = 8 = procs, 9 = estimate, 12 = user; the
// others are -1.
// With pools (not empty), the header declares them ("; Pools:") and every
// line carries the job's demands after field 18. `notes` are written as
// header comment lines ("; " is prepended).
// With components, the header declares them ("; Components: widths") and
// every line carries the job's widths ("6+6+5") after the pool demands; an
// ngubiri workload also declares its clusters and its time unit.
// With dependencies, fields 17 and 18 are each job's preceding job and
// think time (-1 -1 for a job without one).
void write_swf(std::ostream&, const std::vector<TraceJob>&, const GenerateOptions&,
               const PoolDemands* pools = nullptr, const std::vector<std::string>& notes = {},
               const Components* components = nullptr, const Dependencies* deps = nullptr,
               const Applications* apps = nullptr);

// The options as "key=value" pairs separated by spaces, as written in the
// header. Standard model: every option but model and factor. Zhang model:
// "model=zhang factor=F jobs=N procs=P phi=Φ seed=S", the options it uses.
std::string describe(const GenerateOptions&);

}  // namespace rota::sim
