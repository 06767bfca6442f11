#include "generate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <ostream>
#include <random>
#include <stdexcept>

#include "lublin.h"
#include "rng.h"
#include "simulation.h"
#include "weissman.h"

namespace rota::sim {

namespace {

void check(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("generate: ") + what);
}

// A setting's range, with the value given: the caller names the key or
// the flag that gave it (GenerateError).
template <class T>
void need(bool ok, const char* setting, const char* rule, T value) {
    if (!ok) throw GenerateError(setting, fmt::format("{}, not {}", rule, value));
}

void validate(const GenerateOptions& o) {
    check(o.model == WorkloadModel::standard || o.model == WorkloadModel::zhang ||
              o.model == WorkloadModel::feitelson_k || o.model == WorkloadModel::ngubiri ||
              o.model == WorkloadModel::lublin || o.model == WorkloadModel::feitelson96 ||
              o.model == WorkloadModel::weissman || o.model == WorkloadModel::weissman_apps,
          "unknown model");
    // Every job is built up front: more would exhaust memory, not a bound of the model.
    need(o.jobs >= 0 && o.jobs <= kMaxJobs, "jobs", "must be from 0 to 100,000,000", o.jobs);
    check(o.model == WorkloadModel::weissman || o.fit_trace.empty(),
          "fit_trace applies only to model weissman");
    if (o.model == WorkloadModel::ngubiri) {
        check(o.factor == 1.0, "factor applies only to model zhang");
        need(std::isfinite(o.q) && o.q > 0 && o.q <= 100, "q", "must be in (0, 100]", o.q);
        need(o.size_min >= 1, "size_min", "must be >= 1", o.size_min);
        need(o.size_max >= o.size_min, "size_max", "must be >= size_min", o.size_max);
        need(o.size_max <= kMaxNgubiriSize, "size_max", "must be <= 1,000,000", o.size_max);
        need(o.max_components >= 1 && o.max_components <= kMaxComponents, "max_components",
             "must be in 1..1000", o.max_components);
        need(o.thres >= 0, "thres", "must be >= 0", o.thres);
        // A job of thres + 1 nodes must be able to have max_components
        // components of at least one node.
        need(o.max_components == 1 || o.thres >= o.max_components - 1, "thres",
             "must be at least max_components - 1 (every component at least 1 node)", o.thres);
        need(std::isfinite(o.mean_runtime) && o.mean_runtime > 0, "mean_runtime", "must be > 0",
             o.mean_runtime);
        need(std::isfinite(o.mean_interarrival) && o.mean_interarrival > 0, "mean_interarrival",
             "must be > 0", o.mean_interarrival);
        need(std::isfinite(o.time_unit) && o.time_unit > 0 && o.time_unit <= 1e6, "time_unit",
             "must be in (0, 1e6] seconds", o.time_unit);
        check(o.mean_runtime * o.time_unit * kNgubiriWalltimeMeans < 1e15,
              "mean_runtime * time_unit is too large");
        for (auto c : o.clusters) check(c >= 1, "every cluster needs at least one node");
        return;
    }
    check(o.clusters.empty(), "clusters apply only to model ngubiri");
    need(o.procs >= 1, "procs", "must be >= 1", o.procs);
    need(o.phi >= 0 && o.phi <= 1, "phi", "must be in [0, 1]", o.phi);
    if (o.model == WorkloadModel::feitelson_k) {
        check(o.factor == 1.0, "factor applies only to model zhang");
        need(o.k >= 1 && o.k <= kMaxResources, "k", "must be in 1..64", o.k);
        need(std::isfinite(o.variance) && o.variance >= 0 && o.variance <= 100, "variance",
             "must be in [0, 100]", o.variance);
        need(o.pool_capacity >= 1, "pool_capacity", "must be >= 1", o.pool_capacity);
        need(std::isfinite(o.load) && o.load > 0, "load", "must be > 0", o.load);
        need(std::isfinite(o.queue_length) && o.queue_length >= 0, "queue_length", "must be >= 0",
             o.queue_length);
        return;
    }
    if (o.model == WorkloadModel::feitelson96) {
        check(o.factor == 1.0, "factor applies only to model zhang");
        need(std::isfinite(o.load) && o.load > 0, "load", "must be > 0", o.load);
        return;
    }
    if (o.model == WorkloadModel::weissman || o.model == WorkloadModel::weissman_apps) {
        check(o.factor == 1.0, "factor applies only to model zhang");
        return;  // the rest in weissman.cpp
    }
    if (o.model == WorkloadModel::zhang) {
        need(std::isfinite(o.factor) && o.factor > 0 && o.factor <= 1000, "factor",
             "must be in (0, 1000]", o.factor);
        return;
    }
    check(o.factor == 1.0, "factor applies only to model zhang");
    need(std::isfinite(o.load) && o.load > 0, "load", "must be > 0", o.load);
    if (o.model == WorkloadModel::lublin) {
        need(o.estimate_max >= 1, "estimate_max", "must be >= 1", o.estimate_max);
        need(o.users >= 0, "users", "must be >= 0", o.users);
        return;
    }
    need(o.p_serial >= 0 && o.p_serial <= 1, "p_serial", "must be in [0, 1]", o.p_serial);
    need(o.p_pow2 >= 0 && o.p_pow2 <= 1, "p_pow2", "must be in [0, 1]", o.p_pow2);
    need(std::isfinite(o.runtime_mu), "runtime_mu", "must be finite", o.runtime_mu);
    need(std::isfinite(o.runtime_sigma) && o.runtime_sigma >= 0, "runtime_sigma", "must be >= 0",
         o.runtime_sigma);
    need(o.runtime_max >= 1, "runtime_max", "must be >= 1", o.runtime_max);
    need(o.estimate_max >= 1, "estimate_max", "must be >= 1", o.estimate_max);
    need(o.users >= 0, "users", "must be >= 0", o.users);
}

std::int32_t sample_size(Rng& rng, const GenerateOptions& o, double log2_procs) {
    if (rng.uniform() < o.p_serial) return 1;
    double u = rng.uniform() * log2_procs;
    std::int64_t size;
    if (rng.uniform() < o.p_pow2) {
        size = std::int64_t{1} << static_cast<int>(std::lround(u));
    } else {
        std::int64_t lo = std::int64_t{1} << static_cast<int>(std::floor(u));
        size = lo + static_cast<std::int64_t>(rng.uniform() * static_cast<double>(lo));
    }
    return static_cast<std::int32_t>(std::min<std::int64_t>(size, o.procs));
}

std::int64_t sample_runtime(Rng& rng, const GenerateOptions& o) {
    double x = std::exp(o.runtime_mu + o.runtime_sigma * rng.normal());
    x = std::min(x, static_cast<double>(o.runtime_max));
    return std::max<std::int64_t>(1, std::llround(x));
}

}  // namespace

// Φ model (paper 000 §2.1): the factor is 1 with probability Φ, else
// (1-Φ)/(1-y), which makes runtime/estimate uniform on (0, 1] for those jobs.
std::int64_t phi_estimate(Rng& rng, const GenerateOptions& o, std::int64_t runtime) {
    double y = rng.uniform();
    std::int64_t cap = std::max(runtime, o.estimate_max);
    if (y < o.phi) return runtime;
    double est = std::ceil(static_cast<double>(runtime) * (1.0 - o.phi) / (1.0 - y));
    if (!(est < static_cast<double>(cap))) return cap;  // also catches huge factors
    return std::max(runtime, static_cast<std::int64_t>(est));
}

namespace {

std::int64_t sample_estimate(Rng& rng, const GenerateOptions& o, std::int64_t runtime) {
    return phi_estimate(rng, o, runtime);
}

// ---- The zhang model: paper 000 §2.1-2.2 (docs/workloads.md, "The zhang model") ----

// Size class k holds the sizes (2^(k-1), 2^k]; class 0 is size 1 [Zhang00 §2.1:
// "each class is a bin in which the upper boundary is a power of 2"].
// §2.1 models, for each class, the interarrival times and the execution
// times with Hyper Erlang distributions of Common Order fitted to three
// moments of the log; the fitted parameters are not published. Execution
// times of a class: with probability short_prob an Erlang with mean
// short_mean, else one with mean long_mean (seconds, at factor 1), both of
// order kZhangRuntimeOrder. Arrivals: every class is its own renewal
// process of hyper-exponential interarrival times whose rate is the
// class's share `prob` of the jobs; the workload is their superposition.
struct ZhangClass {
    double prob;        // fraction of the jobs in the class (its arrival rate)
    double short_prob;  // probability of the short branch
    double short_mean;  // s
    double long_mean;   // s
};
constexpr ZhangClass kZhangClasses[] = {
    // prob, short_prob, short_mean, long_mean    sizes
    {0.22, 0.70, 330, 4000},  // 1
    {0.08, 0.70, 350, 4200},  // 2
    {0.09, 0.70, 360, 4400},  // 3-4
    {0.11, 0.70, 390, 4700},  // 5-8
    {0.10, 0.70, 410, 5000},  // 9-16
    {0.10, 0.70, 440, 5300},  // 17-32
    {0.14, 0.70, 460, 5600},  // 33-64
    {0.10, 0.70, 500, 6000},  // 65-128
    {0.06, 0.70, 530, 6400},  // 129-256
};
// Order 1: the branches are exponential (a hyper-exponential, the lowest
// order of the family). With these means it puts the median execution
// time at workload 5 (factor 1.5) at about 680 s, the median §5.6 reports
// for workload 5; order 2 put it near 760 s and made jobs under a minute
// rare (about 2 % instead of 12 %).
constexpr int kZhangRuntimeOrder = 1;
// Probability that a job of class k >= 2 has size 2^k; else its size is
// uniform on (2^(k-1), 2^k).
constexpr double kZhangPow2 = 0.75;
// Interarrival times of a class: hyper-exponential in model time units,
// divided by the class's share; the whole arrival process is rescaled
// afterwards to the offered load kZhangBaseLoad of the base execution times.
constexpr double kZhangGapShortProb = 0.9;
constexpr double kZhangGapShortMean = 1.0;
constexpr double kZhangGapLongMean = 10.0;
// Cap of the Φ-model overestimation factor (1-Φ)/(1-y), which is unbounded
// as y -> 1: about (1-Φ)/100 of the jobs (0.8 % for Φ = 0.2) are affected.
constexpr double kZhangMaxOverestimation = 100;

double hyper_erlang(Rng& rng, int order, double p_short, double short_mean, double long_mean) {
    double mean = rng.uniform() < p_short ? short_mean : long_mean;
    double x = 0;
    for (int i = 0; i < order; ++i) x += rng.exponential(mean / order);
    return x;
}

// A size of class k: 2^k, or for k >= 2 with probability 1 - kZhangPow2 a
// size uniform on (2^(k-1), 2^k).
std::int32_t zhang_size(Rng& rng, int k, std::int32_t procs) {
    std::int64_t size = std::int64_t{1} << k;
    if (k >= 2 && rng.uniform() >= kZhangPow2) {
        std::int64_t lo = (std::int64_t{1} << (k - 1)) + 1;  // lo .. 2^k - 1
        size = lo + static_cast<std::int64_t>(rng.uniform() * static_cast<double>(size - lo));
    }
    return static_cast<std::int32_t>(std::min<std::int64_t>(size, procs));
}

double zhang_gap(Rng& rng, int k) {
    return hyper_erlang(rng, 1, kZhangGapShortProb, kZhangGapShortMean, kZhangGapLongMean) /
           kZhangClasses[k].prob;
}

std::vector<TraceJob> generate_zhang(const GenerateOptions& o) {
    Rng rng(o.seed);
    constexpr int classes = static_cast<int>(std::size(kZhangClasses));
    // The next arrival of every class, in model time units; each class's
    // first arrival is one gap after 0, so the superposition starts in the
    // middle of every class's process rather than with a burst.
    double next[classes];
    for (int k = 0; k < classes; ++k) next[k] = zhang_gap(rng, k);
    std::vector<TraceJob> jobs(static_cast<std::size_t>(o.jobs));
    std::vector<double> arrival(jobs.size());  // model time units
    double base_work = 0;                      // at factor 1
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        // Every draw is made whatever the factor, so a seed gives the same
        // arrivals, sizes, base runtimes and overestimation factors.
        const int k = static_cast<int>(std::min_element(next, next + classes) - next);
        arrival[i] = next[k];
        next[k] += zhang_gap(rng, k);
        TraceJob& j = jobs[i];
        j.id = static_cast<std::int64_t>(i) + 1;
        j.user = -1;
        j.procs = zhang_size(rng, k, o.procs);
        const ZhangClass& c = kZhangClasses[k];
        double x = hyper_erlang(rng, kZhangRuntimeOrder, c.short_prob, c.short_mean, c.long_mean);
        std::int64_t base = std::max<std::int64_t>(1, std::llround(x));
        double y = rng.uniform();
        double over =
            y < o.phi ? 1.0 : std::min((1.0 - o.phi) / (1.0 - y), kZhangMaxOverestimation);
        base_work += static_cast<double>(j.procs) * static_cast<double>(base);

        j.runtime = std::max<std::int64_t>(1, std::llround(o.factor * static_cast<double>(base)));
        j.estimate = j.runtime;
        if (over > 1.0)
            j.estimate = std::max(j.runtime, static_cast<std::int64_t>(
                                                 std::ceil(static_cast<double>(j.runtime) * over)));
    }
    // Shift the first arrival to 0 and rescale the arrivals so that the base
    // workload offers kZhangBaseLoad on o.procs processors over its span:
    // the same times for every factor.
    const double first = jobs.empty() ? 0 : arrival.front();
    const double clock = jobs.empty() ? 0 : arrival.back() - first;
    const double span = base_work / (kZhangBaseLoad * static_cast<double>(o.procs));
    const double scale = clock > 0 ? span / clock : 0;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        jobs[i].submit = static_cast<std::int64_t>(std::floor((arrival[i] - first) * scale));
    return jobs;
}

// ---- feitelson-k: [Leinberger99] §4.1 (docs/workloads.md, "The feitelson-k model") ----
//
// The Feitelson 1996 model as its published description gives it (harmonic
// sizes of order 1.5 hand-tailored towards small sizes and powers of two,
// hyperexponential runtimes whose long branch grows likelier with the size,
// repeated runs); the constants are rota's, the model's code was not at hand.

// Size n in 1..P is drawn with weight n^-1.5 times: kSerialBoost for n = 1;
// kPow2Boost * n for a power of two >= 2; kSquareBoost * n for another
// square >= 9; 1 otherwise.
constexpr double kSerialBoost = 2.0;
constexpr double kPow2Boost = 1.5;
constexpr double kSquareBoost = 0.5;
// Runtime: an exponential of mean kShortMean, or with probability
// p(n) = kLongProbLo + (kLongProbHi - kLongProbLo) (n - 1) / (P - 1) one of
// mean kLongMean (seconds).
constexpr double kShortMean = 180;
constexpr double kLongMean = 5400;
constexpr double kLongProbLo = 0.15;
constexpr double kLongProbHi = 0.70;
constexpr std::int64_t kFeitelsonRuntimeMax = 36 * 3600;
// Runs of one job: r in 1..kRepeatMax with probability proportional to
// r^-kRepeatExponent (a Zipf-like law, mean 1.69 runs).
constexpr double kRepeatExponent = 2.5;
constexpr int kRepeatMax = 32;

std::vector<double> cdf_of(const std::vector<double>& w) {
    std::vector<double> c(w.size());
    double s = 0;
    for (std::size_t i = 0; i < w.size(); ++i) c[i] = s += w[i];
    for (double& x : c) x /= s;
    return c;
}

std::size_t draw(Rng& rng, const std::vector<double>& cdf) {
    auto it = std::upper_bound(cdf.begin(), cdf.end(), rng.uniform());
    return std::min<std::size_t>(static_cast<std::size_t>(it - cdf.begin()), cdf.size() - 1);
}

bool is_pow2(std::int64_t n) {
    return n > 0 && (n & (n - 1)) == 0;
}

bool is_square(std::int64_t n) {
    auto m = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
    return m * m == n;
}

// The Feitelson 1996 sizes on 1..P, as a CDF (index n - 1).
std::vector<double> feitelson_size_cdf(std::int32_t P) {
    std::vector<double> size_w(static_cast<std::size_t>(P));
    for (std::int64_t n = 1; n <= P; ++n) {
        double w = std::pow(static_cast<double>(n), -1.5);
        if (n == 1)
            w *= kSerialBoost;
        else if (is_pow2(n))
            w *= kPow2Boost * static_cast<double>(n);
        else if (n >= 9 && is_square(n))
            w *= kSquareBoost * static_cast<double>(n);
        size_w[static_cast<std::size_t>(n - 1)] = w;
    }
    return cdf_of(size_w);
}

// The runs of one job of the model, 1..kRepeatMax, as a CDF (index r - 1).
std::vector<double> feitelson_repeat_cdf() {
    std::vector<double> repeat_w(kRepeatMax);
    for (int r = 1; r <= kRepeatMax; ++r)
        repeat_w[static_cast<std::size_t>(r - 1)] = std::pow(r, -kRepeatExponent);
    return cdf_of(repeat_w);
}

GeneratedWorkload generate_feitelson_k(const GenerateOptions& o) {
    Rng rng(o.seed);
    const std::int32_t P = o.procs;
    const std::vector<double> size_cdf = feitelson_size_cdf(P);
    const std::vector<double> repeat_cdf = feitelson_repeat_cdf();

    GeneratedWorkload w;
    const std::size_t n = static_cast<std::size_t>(o.jobs);
    const std::size_t npools = static_cast<std::size_t>(o.k - 1);
    for (std::size_t p = 0; p < npools; ++p)
        w.pools.pools.push_back({fmt::format("r{}", p + 2), o.pool_capacity});
    w.jobs.reserve(n);
    w.pools.demand.reserve(n * npools);
    const double sd = std::sqrt(o.variance);
    const double cap = static_cast<double>(o.pool_capacity);
    std::vector<std::int64_t> demands(npools);
    double work = 0;
    while (w.jobs.size() < n) {
        // One job of the model and its repeated runs: the same size, runtime
        // and requirements for every run.
        const std::int64_t s = static_cast<std::int64_t>(draw(rng, size_cdf)) + 1;
        const double p_long =
            P > 1 ? kLongProbLo + (kLongProbHi - kLongProbLo) * static_cast<double>(s - 1) / (P - 1)
                  : kLongProbLo;
        const double mean = rng.uniform() < p_long ? kLongMean : kShortMean;
        const std::int64_t runtime =
            std::clamp<std::int64_t>(std::llround(rng.exponential(mean)), 1, kFeitelsonRuntimeMax);
        const std::size_t runs = draw(rng, repeat_cdf) + 1;
        // K requirements [Leinberger99 §4.1]: x ~ Normal(0.5, V), R = x / 0.5 * s / P
        // clipped to (0, 1]: the smallest share is one unit of the resource.
        const double size_share = static_cast<double>(s) / P;
        auto requirement = [&](double unit) {
            const double x = 0.5 + sd * rng.normal();
            return std::clamp(x / 0.5 * size_share, unit, 1.0);
        };
        const double r1 = requirement(1.0 / P);
        const auto procs = static_cast<std::int32_t>(
            std::clamp<std::int64_t>(std::llround(r1 * P), 1, static_cast<std::int64_t>(P)));
        for (std::size_t p = 0; p < npools; ++p) {
            const double r = requirement(1.0 / cap);
            demands[p] = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(r * cap)), 1,
                                                  o.pool_capacity);
        }
        for (std::size_t k = 0; k < runs && w.jobs.size() < n; ++k) {
            TraceJob j{};
            j.id = static_cast<std::int64_t>(w.jobs.size()) + 1;
            j.procs = procs;
            j.runtime = runtime;
            j.estimate = sample_estimate(rng, o, runtime);
            j.user = -1;
            work += static_cast<double>(procs) * static_cast<double>(runtime);
            w.jobs.push_back(j);
            w.pools.demand.insert(w.pools.demand.end(), demands.begin(), demands.end());
        }
    }
    // Arrivals: the unit-rate Poisson process from the same stream, at the
    // rate that offers `load` on the processors (expected span (n-1)/rate).
    w.unit_arrivals.resize(n);
    double t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) t += rng.exponential(1.0);
        w.unit_arrivals[i] = t;
    }
    if (n > 1 && work > 0) {
        set_arrivals(w.jobs, w.unit_arrivals, o.load * P * static_cast<double>(n - 1) / work);
    } else {
        for (auto& j : w.jobs) j.submit = 0;
    }
    return w;
}

// ---- feitelson96: [Feitelson97] §3.2 (docs/workloads.md, "The feitelson96 model") ----
//
// §3.2 gives the model's shape only (its Figure 5): the 1996 sizes, a
// three-stage hyperexponential runtime whose stage weights depend on the
// size, Poisson arrivals, repeated runs re-submitted as soon as the run
// before them ends. The sizes and run counts are the feitelson-k model's
// (above); the stages and their weights are rota's: stage k has mean
// kStageMean[k] and, for a job of n processors with x = log2(n) / log2(P)
// in [0, 1], weight kStageLo[k] + (kStageHi[k] - kStageLo[k]) x.
constexpr double kStageMean[3] = {60, 1200, 10800};  // 1 min, 20 min, 3 h
constexpr double kStageLo[3] = {0.60, 0.30, 0.10};   // serial jobs
constexpr double kStageHi[3] = {0.25, 0.40, 0.35};   // jobs of the whole machine

GeneratedWorkload generate_feitelson96(const GenerateOptions& o) {
    Rng rng(o.seed);
    const std::int32_t P = o.procs;
    const std::vector<double> size_cdf = feitelson_size_cdf(P);
    const std::vector<double> repeat_cdf = feitelson_repeat_cdf();
    GeneratedWorkload w;
    const std::size_t n = static_cast<std::size_t>(o.jobs);
    w.jobs.reserve(n);
    std::vector<std::size_t> first_runs;  // the jobs that arrive on their own
    double work = 0;
    while (w.jobs.size() < n) {
        const std::int64_t s = static_cast<std::int64_t>(draw(rng, size_cdf)) + 1;
        const double x = P > 1 ? std::log2(static_cast<double>(s)) / std::log2(P) : 0.0;
        const double u = rng.uniform();
        double mean = kStageMean[2];
        double cum = 0;
        for (int k = 0; k < 3; ++k) {
            cum += kStageLo[k] + (kStageHi[k] - kStageLo[k]) * x;
            if (u < cum) {
                mean = kStageMean[k];
                break;
            }
        }
        const std::int64_t runtime =
            std::clamp<std::int64_t>(std::llround(rng.exponential(mean)), 1, kFeitelsonRuntimeMax);
        const std::size_t runs = draw(rng, repeat_cdf) + 1;
        first_runs.push_back(w.jobs.size());
        for (std::size_t k = 0; k < runs && w.jobs.size() < n; ++k) {
            TraceJob j{};
            j.id = static_cast<std::int64_t>(w.jobs.size()) + 1;
            j.procs = static_cast<std::int32_t>(s);
            j.runtime = runtime;
            j.estimate = sample_estimate(rng, o, runtime);
            j.user = -1;
            work += static_cast<double>(s) * static_cast<double>(runtime);
            if (k > 0)
                w.deps.add(w.jobs.size(), n, static_cast<std::int32_t>(w.jobs.size() - 1), 0);
            w.jobs.push_back(j);
        }
    }
    // Poisson arrivals of the first runs, at the rate that offers `load`
    // over their span ((c - 1) / rate for c first runs); a re-run's submit
    // time is the one it would have on an idle machine.
    const std::size_t c = first_runs.size();
    const double rate = c > 1 && work > 0 ? o.load * P * static_cast<double>(c - 1) / work : 0;
    double t = 0;  // unit-rate time
    for (std::size_t k = 0; k < c; ++k) {
        if (k > 0) t += rng.exponential(1.0);
        const std::size_t f = first_runs[k];
        const std::size_t end = k + 1 < c ? first_runs[k + 1] : w.jobs.size();
        w.jobs[f].submit = rate > 0 ? static_cast<std::int64_t>(std::floor(t / rate)) : 0;
        for (std::size_t i = f + 1; i < end; ++i)
            w.jobs[i].submit = w.jobs[i - 1].submit + w.jobs[i - 1].runtime;
    }
    return w;
}

// ---- ngubiri: [Ngubiri07] §2.2, §4.1 (docs/workloads.md, "The ngubiri model") ----

std::vector<std::int32_t> ngubiri_clusters(const GenerateOptions& o) {
    if (!o.clusters.empty()) return o.clusters;
    return std::vector<std::int32_t>(kNgubiriClusters, kNgubiriNodes);
}

GeneratedWorkload generate_ngubiri(const GenerateOptions& o) {
    Rng rng(o.seed);
    const std::vector<double> size_cdf = cdf_of(ngubiri_size_pmf(o.q, o.size_min, o.size_max));
    const std::vector<std::int32_t> bounds =
        o.partition == Partition::phased
            ? phased_bounds(ngubiri_size_pmf(o.q, o.size_min, o.size_max), o.size_min, o.thres,
                            o.max_components)
            : std::vector<std::int32_t>{};
    const double unit = o.time_unit;
    const auto walltime =
        static_cast<std::int64_t>(std::ceil(kNgubiriWalltimeMeans * o.mean_runtime * unit));
    GeneratedWorkload w;
    const std::size_t n = static_cast<std::size_t>(o.jobs);
    w.jobs.resize(n);
    w.components.offset.reserve(n + 1);
    w.components.widths.reserve(n + n / 8);
    w.components.offset.push_back(0);
    double t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        // Every draw is made for every job whatever the partition and thres,
        // so one seed gives the same arrivals, sizes and runtimes for all of
        // them: their comparisons are paired (common random numbers).
        if (i > 0) t += rng.exponential(o.mean_interarrival);
        // Checked as drawn: the sum of the gaps is random.
        if (t * unit > static_cast<double>(kMaxSimSeconds))
            throw std::invalid_argument(fmt::format(
                "mean_interarrival * time_unit is too large: job {} would arrive past {} s, the "
                "end of the time axis",
                i + 1, kMaxSimSeconds));
        const auto s = static_cast<std::int32_t>(draw(rng, size_cdf)) + o.size_min;
        const double x = rng.exponential(o.mean_runtime);
        const double u = rng.uniform();  // the random partition's draw
        TraceJob& j = w.jobs[i];
        j.id = static_cast<std::int64_t>(i) + 1;
        j.submit = static_cast<std::int64_t>(std::floor(t * unit));
        j.runtime = std::max<std::int64_t>(1, std::llround(x * unit));
        // Runtimes are unknown to the scheduler [Ngubiri07 §2.2]: the estimate is
        // the same walltime for every job.
        j.estimate = std::max(walltime, j.runtime);
        j.procs = s;
        j.user = -1;
        std::int32_t parts = 1;
        if (s > o.thres && o.max_components > 1) {
            if (o.partition == Partition::random) {
                parts = 2 + std::min(static_cast<std::int32_t>(u * (o.max_components - 1)),
                                     o.max_components - 2);
            } else {
                parts = 2;
                for (auto b : bounds) parts += s > b;
            }
            parts = std::min(parts, s);
        }
        w.components.push(split_widths(s, parts));
    }
    return w;
}

}  // namespace

std::vector<double> ngubiri_size_pmf(double q, std::int32_t n1, std::int32_t n2) {
    if (n1 < 1 || n2 < n1 || !(q > 0))
        throw std::invalid_argument("ngubiri_size_pmf: need 1 <= n1 <= n2 and q > 0");
    // Weights relative to q^n1 keep q^i representable for large sizes.
    std::vector<double> p(static_cast<std::size_t>(n2 - n1 + 1));
    double total = 0;
    for (std::int32_t i = n1; i <= n2; ++i) {
        const double c = is_pow2(i) ? 3.0 : 1.0;
        total += p[static_cast<std::size_t>(i - n1)] = c * std::pow(q, i - n1);
    }
    for (double& x : p) x /= total;
    return p;
}

std::vector<std::size_t> balanced_cuts(const std::vector<double>& w, std::size_t groups) {
    const std::size_t n = w.size();
    const std::size_t g = std::min(groups, n);
    if (g <= 1) return {};
    std::vector<double> pre(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + w[i];
    const double total = pre[n] > 0 ? pre[n] : 1;
    const double target = 1.0 / static_cast<double>(groups);
    auto cost = [&](std::size_t a, std::size_t b) {  // range a..b inclusive
        const double d = (pre[b + 1] - pre[a]) / total - target;
        return d * d;
    };
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // best[k * n + i]: values 0..i in k + 1 ranges; from[k * n + i]: where
    // the last of them starts.
    std::vector<double> best(g * n, kInf);
    std::vector<std::size_t> from(g * n, 0);
    for (std::size_t i = 0; i < n; ++i) best[i] = cost(0, i);
    for (std::size_t k = 1; k < g; ++k)
        for (std::size_t i = k; i < n; ++i)
            for (std::size_t a = k; a <= i; ++a) {
                const double c = best[(k - 1) * n + a - 1] + cost(a, i);
                if (c < best[k * n + i]) best[k * n + i] = c, from[k * n + i] = a;
            }
    std::vector<std::size_t> cuts(g - 1);
    std::size_t end = n - 1;
    for (std::size_t k = g - 1; k >= 1; --k) {
        const std::size_t a = from[k * n + end];
        cuts[k - 1] = a - 1;
        end = a - 1;
    }
    return cuts;
}

std::vector<std::int32_t> phased_bounds(const std::vector<double>& pmf, std::int32_t n1,
                                        std::int32_t thres, std::int32_t k) {
    const std::int32_t n2 = n1 + static_cast<std::int32_t>(pmf.size()) - 1;
    const std::int32_t first = std::max(thres + 1, n1);
    if (k < 3 || first > n2) return {};
    const std::vector<double> large(pmf.begin() + (first - n1), pmf.end());
    std::vector<std::int32_t> bounds;
    for (auto c : balanced_cuts(large, static_cast<std::size_t>(k - 1)))
        bounds.push_back(first + static_cast<std::int32_t>(c));
    return bounds;
}

const char* partition_name(Partition p) {
    return p == Partition::phased ? "phased" : "random";
}

Partition parse_partition(const std::string& s) {
    if (s == "random") return Partition::random;
    if (s == "phased") return Partition::phased;
    throw std::invalid_argument("unknown partition '" + s + "' (expected random or phased)");
}

GenerateOptions ngubiri_options(std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::ngubiri;
    o.seed = seed;
    o.clusters.assign(kNgubiriClusters, kNgubiriNodes);
    o.procs = kNgubiriClusters * kNgubiriNodes;
    return o;
}

std::vector<double> unit_poisson_arrivals(std::size_t n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<double> u(n);
    double t = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) t += rng.exponential(1.0);
        u[i] = t;
    }
    return u;
}

void set_arrivals(std::vector<TraceJob>& jobs, const std::vector<double>& unit, double rate) {
    if (unit.size() != jobs.size())
        throw std::invalid_argument("set_arrivals: one arrival per job is needed");
    if (!(rate > 0) || !std::isfinite(rate))
        throw std::invalid_argument("set_arrivals: the rate must be positive");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const double t = std::floor(unit[i] / rate);
        if (!(t <= static_cast<double>(kMaxSimSeconds)))
            throw std::invalid_argument(fmt::format(
                "{:.6g} jobs/s is too low: job {} would arrive past {} s, the end of the time "
                "axis",
                rate, jobs[i].id, kMaxSimSeconds));
        jobs[i].submit = static_cast<std::int64_t>(t);
    }
}

GeneratedWorkload generate_workload(const GenerateOptions& o) {
    validate(o);
    if (o.model == WorkloadModel::feitelson_k) return generate_feitelson_k(o);
    if (o.model == WorkloadModel::ngubiri) return generate_ngubiri(o);
    if (o.model == WorkloadModel::feitelson96) return generate_feitelson96(o);
    if (o.model == WorkloadModel::weissman) return generate_weissman(o);
    if (o.model == WorkloadModel::weissman_apps) return generate_weissman_apps(o);
    GeneratedWorkload w;
    w.jobs = generate(o);
    return w;
}

std::vector<TraceJob> generate(const GenerateOptions& o) {
    validate(o);
    if (o.model == WorkloadModel::feitelson_k) return generate_feitelson_k(o).jobs;
    if (o.model == WorkloadModel::ngubiri) return generate_ngubiri(o).jobs;
    if (o.model == WorkloadModel::feitelson96) return generate_feitelson96(o).jobs;
    if (o.model == WorkloadModel::weissman) return generate_weissman(o).jobs;
    if (o.model == WorkloadModel::weissman_apps) return generate_weissman_apps(o).jobs;
    if (o.model == WorkloadModel::zhang) return generate_zhang(o);
    if (o.model == WorkloadModel::lublin) return generate_lublin(o);
    Rng rng(o.seed);
    const double log2_procs = std::log2(static_cast<double>(o.procs));

    std::vector<double> user_cdf;
    if (o.users > 0) {
        user_cdf.resize(static_cast<std::size_t>(o.users));
        double s = 0;
        for (std::int32_t u = 0; u < o.users; ++u) user_cdf[u] = s += 1.0 / (u + 1);
        for (double& c : user_cdf) c /= s;
    }

    std::vector<TraceJob> jobs(static_cast<std::size_t>(o.jobs));
    double work = 0;
    for (std::int64_t i = 0; i < o.jobs; ++i) {
        TraceJob& j = jobs[static_cast<std::size_t>(i)];
        j.id = i + 1;
        j.procs = sample_size(rng, o, log2_procs);
        j.runtime = sample_runtime(rng, o);
        j.estimate = sample_estimate(rng, o, j.runtime);
        j.user = -1;
        if (o.users > 0) {
            double u = rng.uniform();
            auto it = std::upper_bound(user_cdf.begin(), user_cdf.end(), u);
            j.user = static_cast<std::int32_t>(
                         std::min<std::ptrdiff_t>(it - user_cdf.begin(), o.users - 1)) +
                     1;
        }
        work += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
    }

    // The first job arrives at 0 and n-1 exponential gaps follow, so the
    // expected span is (n-1) * mean gap; choosing the mean gap from the work
    // actually generated removes the runtime tail's noise from the load.
    if (o.jobs > 1) {
        double mean_gap = work / (o.load * o.procs * static_cast<double>(o.jobs - 1));
        double t = 0;
        jobs[0].submit = 0;
        for (std::size_t i = 1; i < jobs.size(); ++i) {
            t += rng.exponential(mean_gap);
            jobs[i].submit = static_cast<std::int64_t>(std::floor(t));
        }
    } else if (o.jobs == 1) {
        jobs[0].submit = 0;
    }
    return jobs;
}

double offered_load(const std::vector<TraceJob>& jobs, std::int32_t procs) {
    if (jobs.empty() || procs <= 0) return 0;
    double work = 0;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const auto& j : jobs) {
        work += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
        first = std::min(first, j.submit);
        last = std::max(last, j.submit);
    }
    double span = static_cast<double>(std::max<std::int64_t>(last - first, 1));
    return work / (static_cast<double>(procs) * span);
}

GenerateOptions feitelson_k_options(std::int32_t k, double variance, std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::feitelson_k;
    o.procs = kFeitelsonProcs;
    o.k = k;
    o.variance = variance;
    o.phi = 1.0;
    o.seed = seed;
    return o;
}

GenerateOptions feitelson96_options(std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::feitelson96;
    o.procs = kFeitelsonProcs;
    o.load = 0.5;
    o.phi = 1.0;
    o.seed = seed;
    return o;
}

GenerateOptions lublin_options(std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::lublin;
    o.jobs = 10000;
    o.procs = kLublinProcs;
    o.load = 0.5;
    o.phi = 0.2;
    o.seed = seed;
    return o;
}

GenerateOptions zhang_options(double factor, std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::zhang;
    o.factor = factor;
    o.jobs = 10000;
    o.procs = kZhangProcs;
    o.phi = 0.2;
    o.seed = seed;
    return o;
}

GenerateOptions weissman_options(std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::weissman;
    o.procs = 128;  // the SDSC SP2's
    o.load = 0;     // the log's own arrival rates
    o.phi = 1.0;
    o.seed = seed;
    return o;
}

GenerateOptions weissman_apps_options(std::uint64_t seed) {
    GenerateOptions o;
    o.model = WorkloadModel::weissman_apps;
    o.procs = kWeissmanAppsProcs;
    o.phi = 1.0;
    o.seed = seed;
    return o;
}

const char* model_name(WorkloadModel m) {
    switch (m) {
        case WorkloadModel::standard:
            return "standard";
        case WorkloadModel::zhang:
            return "zhang";
        case WorkloadModel::feitelson_k:
            return "feitelson-k";
        case WorkloadModel::ngubiri:
            return "ngubiri";
        case WorkloadModel::lublin:
            return "lublin";
        case WorkloadModel::feitelson96:
            return "feitelson96";
        case WorkloadModel::weissman:
            return "weissman";
        case WorkloadModel::weissman_apps:
            return "weissman-apps";
    }
    return "?";
}

WorkloadModel parse_model(const std::string& name) {
    if (name == "standard") return WorkloadModel::standard;
    if (name == "zhang") return WorkloadModel::zhang;
    if (name == "feitelson-k") return WorkloadModel::feitelson_k;
    if (name == "ngubiri") return WorkloadModel::ngubiri;
    if (name == "lublin") return WorkloadModel::lublin;
    if (name == "feitelson96") return WorkloadModel::feitelson96;
    if (name == "weissman") return WorkloadModel::weissman;
    if (name == "weissman-apps") return WorkloadModel::weissman_apps;
    throw std::invalid_argument("unknown workload model '" + name +
                                "' (expected standard, zhang, feitelson-k, ngubiri, lublin, "
                                "feitelson96, weissman or weissman-apps)");
}

std::string describe(const GenerateOptions& o) {
    if (o.model == WorkloadModel::ngubiri) {
        const std::string cl = fmt::format("{}", fmt::join(ngubiri_clusters(o), ","));
        return fmt::format(
            "model=ngubiri q={} sizes={}-{} thres={} max_components={} partition={} "
            "mean_runtime={} mean_interarrival={} time_unit={} clusters={} jobs={} seed={}",
            o.q, o.size_min, o.size_max, o.thres, o.max_components, partition_name(o.partition),
            o.mean_runtime, o.mean_interarrival, o.time_unit, cl, o.jobs, o.seed);
    }
    if (o.model == WorkloadModel::feitelson_k)
        return fmt::format(
            "model=feitelson-k k={} variance={} jobs={} procs={} pool_capacity={} {} phi={} "
            "seed={}",
            o.k, o.variance, o.jobs, o.procs, o.pool_capacity,
            o.queue_length > 0 ? fmt::format("queue_length={}", o.queue_length)
                               : fmt::format("load={}", o.load),
            o.phi, o.seed);
    if (o.model == WorkloadModel::feitelson96)
        return fmt::format("model=feitelson96 jobs={} procs={} load={} phi={} seed={}", o.jobs,
                           o.procs, o.load, o.phi, o.seed);
    if (o.model == WorkloadModel::lublin)
        return fmt::format(
            "model=lublin jobs={} procs={} load={} phi={} seed={} estimate_max={} "
            "users={}",
            o.jobs, o.procs, o.load, o.phi, o.seed, o.estimate_max, o.users);
    if (o.model == WorkloadModel::weissman)
        return fmt::format("model=weissman fit={} jobs={} procs={} load={} phi={} seed={}",
                           o.fit_trace.empty() ? "sdsc-sp2" : o.fit_trace, o.jobs, o.procs, o.load,
                           o.phi, o.seed);
    if (o.model == WorkloadModel::weissman_apps)
        return fmt::format("model=weissman-apps apps={} beta={} jobs={} procs={} phi={} seed={}",
                           o.apps, o.beta, o.jobs, o.procs, o.phi, o.seed);
    if (o.model == WorkloadModel::zhang)
        return fmt::format("model=zhang factor={} jobs={} procs={} phi={} seed={}", o.factor,
                           o.jobs, o.procs, o.phi, o.seed);
    return fmt::format(
        "jobs={} procs={} load={} phi={} seed={} p_serial={} p_pow2={} runtime_mu={} "
        "runtime_sigma={} runtime_max={} estimate_max={} users={}",
        o.jobs, o.procs, o.load, o.phi, o.seed, o.p_serial, o.p_pow2, o.runtime_mu, o.runtime_sigma,
        o.runtime_max, o.estimate_max, o.users);
}

void write_swf(std::ostream& os, const std::vector<TraceJob>& jobs, const GenerateOptions& o,
               const PoolDemands* pools, const std::vector<std::string>& notes,
               const Components* components, const Dependencies* deps, const Applications* apps) {
    if (pools && pools->empty()) pools = nullptr;
    if (deps && deps->empty()) deps = nullptr;
    if (deps && (deps->after.size() != jobs.size() || deps->think.size() != jobs.size()))
        throw std::invalid_argument("write_swf: the dependencies do not cover every job");
    if (pools && pools->demand.size() != jobs.size() * pools->count())
        throw std::invalid_argument("write_swf: the pool demands do not cover every job");
    if (components && components->empty()) components = nullptr;
    if (apps && apps->empty()) apps = nullptr;
    if (apps && apps->executable.size() != jobs.size())
        throw std::invalid_argument("write_swf: the executables do not cover every job");
    if (components && components->jobs() != jobs.size())
        throw std::invalid_argument("write_swf: the components do not cover every job");
    const bool ngubiri = o.model == WorkloadModel::ngubiri;
    std::int64_t procs = o.procs;
    if (ngubiri) {
        procs = 0;
        for (auto c : ngubiri_clusters(o)) procs += c;
    }
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out, "; Version: 2.2\n");
    fmt::format_to(out, "; Computer: synthetic ({} processors)\n", procs);
    fmt::format_to(out, "; Installation: rota generate\n");
    if (ngubiri)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model ngubiri: the multi-cluster "
                       "workload of paper 001 §2.2 and §4.1 (docs/workloads.md)\n");
    else if (o.model == WorkloadModel::feitelson_k)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model feitelson-k: the Feitelson 1996 "
                       "model extended to K resources as in paper 002 §4.1 (docs/workloads.md)\n");
    else if (o.model == WorkloadModel::feitelson96)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model feitelson96: the workload of "
                       "paper 003 §3.2, an improved Feitelson 1996 model with repeated runs "
                       "(docs/workloads.md)\n");
    else if (o.model == WorkloadModel::lublin)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model lublin: Lublin and Feitelson, "
                       "JPDC 63(11), 2003, batch and interactive jobs (docs/workloads.md)\n");
    else if (o.model == WorkloadModel::weissman)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model weissman: the system-centric "
                       "workload of paper 004 §4.2 (docs/workloads.md)\n");
    else if (o.model == WorkloadModel::weissman_apps)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model weissman-apps: the "
                       "user-centric workload of paper 004 §4.1, Table 1 (docs/workloads.md)\n");
    else if (o.model == WorkloadModel::zhang)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model zhang: LLNL ASCI Blue-Pacific "
                       "model of paper 000 §2.1-2.2, runtime factor {} (docs/workloads.md)\n",
                       o.factor);
    else
        fmt::format_to(out, "; Generator: rota::sim::generate v1 (model: docs/workloads.md)\n");
    fmt::format_to(out, "; GeneratorOptions: {}\n", describe(o));
    fmt::format_to(out, "; MaxJobs: {}\n", jobs.size());
    fmt::format_to(out, "; MaxRecords: {}\n", jobs.size());
    fmt::format_to(out, "; MaxNodes: {}\n", procs);
    fmt::format_to(out, "; MaxProcs: {}\n", procs);
    if (ngubiri) {
        fmt::format_to(out, "; Clusters:");
        for (auto c : ngubiri_clusters(o)) fmt::format_to(out, " {}", c);
        fmt::format_to(out, "\n; TimeUnit: {}\n", o.time_unit);
        const double size_mean = [&] {
            const auto p = ngubiri_size_pmf(o.q, o.size_min, o.size_max);
            double m = 0;
            for (std::size_t i = 0; i < p.size(); ++i)
                m += p[i] * (o.size_min + static_cast<double>(i));
            return m;
        }();
        fmt::format_to(
            out,
            "; Note: times in seconds, {} s per model time unit: mean execution time "
            "{} units, mean inter-arrival time {} units; mean size {:.4f}, offered "
            "load {:.4f}\n",
            o.time_unit, o.mean_runtime, o.mean_interarrival, size_mean,
            size_mean * o.mean_runtime / (o.mean_interarrival * static_cast<double>(procs)));
        fmt::format_to(out,
                       "; Note: field 9 = a walltime of {} mean execution times for every job: "
                       "the scheduler does not know the runtimes (paper 001 §2.2)\n",
                       kNgubiriWalltimeMeans);
        if (o.partition == Partition::phased) {
            const auto b = phased_bounds(ngubiri_size_pmf(o.q, o.size_min, o.size_max), o.size_min,
                                         o.thres, o.max_components);
            std::string r;
            std::int32_t lo = o.thres + 1;
            for (std::size_t i = 0; i <= b.size(); ++i) {
                const std::int32_t hi = i < b.size() ? b[i] : o.size_max;
                r += fmt::format("{}{}-{}: {} components", r.empty() ? "" : ", ", lo, hi, i + 2);
                lo = hi + 1;
            }
            fmt::format_to(out, "; Note: phased partitioning: sizes {}\n", r);
        }
    }
    if (pools) {
        fmt::format_to(out, "; Pools:");
        for (const auto& p : pools->pools) fmt::format_to(out, " {}={}", p.name, p.capacity);
        fmt::format_to(out, "\n");
    }
    if (apps) {
        fmt::format_to(out, "; AdaptBytes:");
        for (const auto& e : apps->entries)
            fmt::format_to(out, " {}={}", e.executable, e.adapt_bytes);
        fmt::format_to(out, "\n");
        for (const auto& e : apps->entries)
            fmt::format_to(out, "; Note: executable {} = {}\n", e.executable, e.name);
        fmt::format_to(out,
                       "; Note: field 14 = the executable; AdaptBytes = the bytes one adaptation "
                       "of it redistributes, divided by its processors at the adaptation "
                       "(paper 004 §4.1)\n");
    }
    for (const auto& n : notes) fmt::format_to(out, "; {}\n", n);
    fmt::format_to(out, "; Note: fields 4 = runtime, 5 = 8 = procs, 9 = estimate{}; others -1\n",
                   deps ? ", 17 = preceding job, 18 = think time" : "");
    if (deps)
        fmt::format_to(out,
                       "; Note: a job with a preceding job (field 17) is submitted when that job "
                       "ends, plus the think time (field 18); its field 2 is its submit time on "
                       "an idle machine, not used by the simulator\n");
    if (pools)
        fmt::format_to(out,
                       "; Note: fields 19.. = the demand on each pool of the Pools line, in "
                       "its order\n");
    if (components) {
        fmt::format_to(out, "; Components: widths\n");
        fmt::format_to(out,
                       "; Note: field {} = the component widths joined by '+' (paper 001 "
                       "§2.2)\n",
                       19 + (pools ? pools->count() : 0));
    }
    constexpr std::size_t kFlush = 1 << 20;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const TraceJob& j = jobs[i];
        fmt::format_to(out, "{} {} -1 {} {} -1 -1 {} {} -1 -1 {} -1 {} -1 -1", j.id, j.submit,
                       j.runtime, j.procs, j.procs, j.estimate, j.user,
                       apps ? apps->executable[i] : -1);
        if (deps && deps->after[i] >= 0)
            fmt::format_to(out, " {} {}", jobs[static_cast<std::size_t>(deps->after[i])].id,
                           deps->think[i]);
        else
            fmt::format_to(out, " -1 -1");
        if (pools)
            for (std::size_t k = 0; k < pools->count(); ++k)
                fmt::format_to(out, " {}", pools->at(i, k));
        if (components) {
            buf.push_back(' ');
            const std::int32_t* w = components->of(i);
            for (std::int32_t c = 0; c < components->count(i); ++c) {
                if (c > 0) buf.push_back('+');
                fmt::format_to(out, "{}", w[c]);
            }
        }
        buf.push_back('\n');
        if (buf.size() >= kFlush) {
            os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace rota::sim
