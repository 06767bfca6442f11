#include "generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <ostream>
#include <random>
#include <stdexcept>

namespace rota::sim {

namespace {

// Sampling from the raw engine output: std:: distributions differ between
// standard libraries, which would make a seed mean different workloads.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : e_(seed) {}

    double uniform() { return static_cast<double>(e_() >> 11) * 0x1.0p-53; }  // [0, 1)

    double exponential(double mean) { return -mean * std::log1p(-uniform()); }

    double normal() {  // Box-Muller, both values used
        if (have_spare_) {
            have_spare_ = false;
            return spare_;
        }
        double u1 = 1.0 - uniform();  // (0, 1]: log(0) is excluded
        double u2 = uniform();
        double r = std::sqrt(-2.0 * std::log(u1));
        double a = 2.0 * std::numbers::pi * u2;
        spare_ = r * std::sin(a);
        have_spare_ = true;
        return r * std::cos(a);
    }

  private:
    std::mt19937_64 e_;
    double spare_ = 0;
    bool have_spare_ = false;
};

void check(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("generate: ") + what);
}

void validate(const GenerateOptions& o) {
    check(o.model == WorkloadModel::standard || o.model == WorkloadModel::zhang, "unknown model");
    check(o.jobs >= 0, "jobs must be >= 0");
    check(o.procs >= 1, "procs must be >= 1");
    check(o.phi >= 0 && o.phi <= 1, "phi must be in [0, 1]");
    if (o.model == WorkloadModel::zhang) {
        check(std::isfinite(o.factor) && o.factor > 0 && o.factor <= 1000,
              "factor must be in (0, 1000]");
        return;
    }
    check(o.factor == 1.0, "factor applies only to model zhang");
    check(std::isfinite(o.load) && o.load > 0, "load must be > 0");
    check(o.p_serial >= 0 && o.p_serial <= 1, "p_serial must be in [0, 1]");
    check(o.p_pow2 >= 0 && o.p_pow2 <= 1, "p_pow2 must be in [0, 1]");
    check(std::isfinite(o.runtime_mu), "runtime_mu must be finite");
    check(std::isfinite(o.runtime_sigma) && o.runtime_sigma >= 0, "runtime_sigma must be >= 0");
    check(o.runtime_max >= 1, "runtime_max must be >= 1");
    check(o.estimate_max >= 1, "estimate_max must be >= 1");
    check(o.users >= 0, "users must be >= 0");
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

// Φ model (paper 000 §2.1): the factor is 1 with probability Φ, else
// (1-Φ)/(1-y), which makes runtime/estimate uniform on (0, 1] for those jobs.
std::int64_t sample_estimate(Rng& rng, const GenerateOptions& o, std::int64_t runtime) {
    double y = rng.uniform();
    std::int64_t cap = std::max(runtime, o.estimate_max);
    if (y < o.phi) return runtime;
    double est = std::ceil(static_cast<double>(runtime) * (1.0 - o.phi) / (1.0 - y));
    if (!(est < static_cast<double>(cap))) return cap;  // also catches huge factors
    return std::max(runtime, static_cast<std::int64_t>(est));
}

// ---- The zhang model: paper 000 §2.1-2.2 (docs/workloads.md, "The zhang model") ----

// Size class k holds the sizes (2^(k-1), 2^k]; class 0 is size 1 [000 §2.1:
// "each class is a bin in which the upper boundary is a power of 2"].
// Execution times of a class follow a two-branch hyper-Erlang distribution of
// common order kZhangRuntimeOrder: with probability short_prob an Erlang with
// mean short_mean, else one with mean long_mean (seconds, at factor 1).
struct ZhangClass {
    double prob;        // fraction of the jobs in the class
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
constexpr int kZhangRuntimeOrder = 2;
// Probability that a job of class k >= 2 has size 2^k; else its size is
// uniform on (2^(k-1), 2^k).
constexpr double kZhangPow2 = 0.75;
// Interarrival times: hyper-exponential (hyper-Erlang of order 1) in model
// time units; the whole arrival process is rescaled afterwards to the
// offered load kZhangBaseLoad of the base execution times.
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

std::int32_t zhang_size(Rng& rng, std::int32_t procs) {
    double u = rng.uniform();
    int k = 0;
    constexpr int last = static_cast<int>(std::size(kZhangClasses)) - 1;
    for (double c = kZhangClasses[0].prob; k < last && u >= c; c += kZhangClasses[k].prob) ++k;
    std::int64_t size = std::int64_t{1} << k;
    if (k >= 2 && rng.uniform() >= kZhangPow2) {
        std::int64_t lo = (std::int64_t{1} << (k - 1)) + 1;  // lo .. 2^k - 1
        size = lo + static_cast<std::int64_t>(rng.uniform() * static_cast<double>(size - lo));
    }
    return static_cast<std::int32_t>(std::min<std::int64_t>(size, procs));
}

int zhang_class(std::int32_t size) {
    int k = 0;
    while ((std::int64_t{1} << k) < size) ++k;
    return std::min(k, static_cast<int>(std::size(kZhangClasses)) - 1);
}

std::vector<TraceJob> generate_zhang(const GenerateOptions& o) {
    Rng rng(o.seed);
    std::vector<TraceJob> jobs(static_cast<std::size_t>(o.jobs));
    std::vector<double> arrival(jobs.size());  // model time units
    double clock = 0;
    double base_work = 0;  // at factor 1
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        // Every draw is made whatever the factor, so a seed gives the same
        // arrivals, sizes, base runtimes and overestimation factors.
        if (i > 0)
            clock +=
                hyper_erlang(rng, 1, kZhangGapShortProb, kZhangGapShortMean, kZhangGapLongMean);
        arrival[i] = clock;
        TraceJob& j = jobs[i];
        j.id = static_cast<std::int64_t>(i) + 1;
        j.user = -1;
        j.procs = zhang_size(rng, o.procs);
        const ZhangClass& c = kZhangClasses[zhang_class(j.procs)];
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
    // Rescale the arrivals so that the base workload offers kZhangBaseLoad on
    // o.procs processors over its span: the same times for every factor.
    const double span = base_work / (kZhangBaseLoad * static_cast<double>(o.procs));
    const double scale = clock > 0 ? span / clock : 0;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        jobs[i].submit = static_cast<std::int64_t>(std::floor(arrival[i] * scale));
    return jobs;
}

}  // namespace

std::vector<TraceJob> generate(const GenerateOptions& o) {
    validate(o);
    if (o.model == WorkloadModel::zhang) return generate_zhang(o);
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

const char* model_name(WorkloadModel m) {
    switch (m) {
        case WorkloadModel::standard:
            return "standard";
        case WorkloadModel::zhang:
            return "zhang";
    }
    return "?";
}

WorkloadModel parse_model(const std::string& name) {
    if (name == "standard") return WorkloadModel::standard;
    if (name == "zhang") return WorkloadModel::zhang;
    throw std::invalid_argument("unknown workload model '" + name +
                                "' (expected standard or zhang)");
}

std::string describe(const GenerateOptions& o) {
    if (o.model == WorkloadModel::zhang)
        return fmt::format("model=zhang factor={} jobs={} procs={} phi={} seed={}", o.factor,
                           o.jobs, o.procs, o.phi, o.seed);
    return fmt::format(
        "jobs={} procs={} load={} phi={} seed={} p_serial={} p_pow2={} runtime_mu={} "
        "runtime_sigma={} runtime_max={} estimate_max={} users={}",
        o.jobs, o.procs, o.load, o.phi, o.seed, o.p_serial, o.p_pow2, o.runtime_mu, o.runtime_sigma,
        o.runtime_max, o.estimate_max, o.users);
}

void write_swf(std::ostream& os, const std::vector<TraceJob>& jobs, const GenerateOptions& o) {
    fmt::memory_buffer buf;
    auto out = std::back_inserter(buf);
    fmt::format_to(out, "; Version: 2.2\n");
    fmt::format_to(out, "; Computer: synthetic ({} processors)\n", o.procs);
    fmt::format_to(out, "; Installation: rota generate\n");
    if (o.model == WorkloadModel::zhang)
        fmt::format_to(out,
                       "; Generator: rota::sim::generate v1, model zhang: LLNL ASCI Blue-Pacific "
                       "model of paper 000 §2.1-2.2, runtime factor {} (docs/workloads.md)\n",
                       o.factor);
    else
        fmt::format_to(out, "; Generator: rota::sim::generate v1 (model: docs/workloads.md)\n");
    fmt::format_to(out, "; GeneratorOptions: {}\n", describe(o));
    fmt::format_to(out, "; MaxJobs: {}\n", jobs.size());
    fmt::format_to(out, "; MaxRecords: {}\n", jobs.size());
    fmt::format_to(out, "; MaxNodes: {}\n", o.procs);
    fmt::format_to(out, "; MaxProcs: {}\n", o.procs);
    fmt::format_to(out, "; Note: fields 4 = runtime, 5 = 8 = procs, 9 = estimate; others -1\n");
    constexpr std::size_t kFlush = 1 << 20;
    for (const auto& j : jobs) {
        fmt::format_to(out, "{} {} -1 {} {} -1 -1 {} {} -1 -1 {} -1 -1 -1 -1 -1 -1\n", j.id,
                       j.submit, j.runtime, j.procs, j.procs, j.estimate, j.user);
        if (buf.size() >= kFlush) {
            os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            buf.clear();
        }
    }
    os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace rota::sim
