#include "weissman.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "rng.h"

namespace rota::sim {

namespace {

constexpr double kDay = 86400;
constexpr double kHour = 3600;

void check(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("generate: ") + what);
}

// Job ids 1..n in arrival order.
void finish_jobs(std::vector<TraceJob>& jobs) {
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].id = static_cast<std::int64_t>(i) + 1;
}

}  // namespace

std::vector<std::string> describe_fit(const WeissmanFit& f) {
    std::vector<std::string> v;
    std::int64_t n = 0;
    for (const auto& sc : f.sizes) n += sc.second;
    v.push_back(fmt::format("Fit: {} ({} processors): {} jobs over {:.17g} days", f.source, f.procs,
                            n, f.days));
    v.push_back(fmt::format("Fit: run times Weibull shape {:.17g} scale {:.17g} s, at most {} s",
                            f.weibull_shape, f.weibull_scale, f.runtime_max));
    v.push_back(fmt::format("Fit: arrivals per local hour 0-23: {}", fmt::join(f.hourly, " ")));
    std::string sizes;
    for (const auto& [s, c] : f.sizes)
        sizes += fmt::format("{}{}:{}", sizes.empty() ? "" : " ", s, c);
    v.push_back("Fit: jobs per size: " + sizes);
    return v;
}

double WeissmanFit::rate(int hour) const {
    return static_cast<double>(hourly[static_cast<std::size_t>(hour)]) / (days * kHour);
}

double WeissmanFit::offered_load(std::int32_t machine) const {
    std::int64_t n = 0;
    double size_sum = 0;
    for (const auto& [s, c] : sizes) {
        n += c;
        size_sum += static_cast<double>(std::min(s, machine)) * static_cast<double>(c);
    }
    std::int64_t arrivals = 0;
    for (auto h : hourly) arrivals += h;
    if (n == 0 || days <= 0 || machine <= 0) return 0;
    const double per_second = static_cast<double>(arrivals) / (days * kDay);
    const double mean_runtime = weibull_scale * std::tgamma(1.0 + 1.0 / weibull_shape);
    return per_second * (size_sum / static_cast<double>(n)) * mean_runtime / machine;
}

std::pair<double, double> weibull_mle(const std::vector<double>& x) {
    if (x.size() < 2) throw std::invalid_argument("weibull_mle: fewer than two samples");
    double ymax = -std::numeric_limits<double>::infinity(), ymean = 0;
    for (double v : x) {
        if (!(v > 0) || !std::isfinite(v))
            throw std::invalid_argument("weibull_mle: samples must be positive");
        ymax = std::max(ymax, std::log(v));
        ymean += std::log(v);
    }
    ymean /= static_cast<double>(x.size());
    // The likelihood equation in the shape k,
    //   sum x^k ln x / sum x^k - 1/k - mean ln x = 0,
    // has one root, where the left side (increasing in k) crosses 0; x^k
    // is taken relative to the largest sample so that it cannot overflow.
    auto f = [&](double k) {
        double a = 0, b = 0;
        for (double v : x) {
            const double y = std::log(v), w = std::exp(k * (y - ymax));
            a += w * y;
            b += w;
        }
        return a / b - 1.0 / k - ymean;
    };
    double lo = 1e-3, hi = 1e3;
    if (f(lo) > 0 || f(hi) < 0)
        throw std::invalid_argument("weibull_mle: the samples do not determine a shape");
    for (int it = 0; it < 200 && hi / lo > 1 + 1e-12; ++it) {
        const double mid = std::sqrt(lo * hi);
        (f(mid) < 0 ? lo : hi) = mid;
    }
    const double k = std::sqrt(lo * hi);
    double m = 0;
    for (double v : x) m += std::exp(k * (std::log(v) - ymax));
    m /= static_cast<double>(x.size());
    return {k, std::exp(ymax) * std::pow(m, 1.0 / k)};
}

WeissmanFit fit_weissman(const std::vector<TraceJob>& jobs, std::int32_t procs,
                         std::int64_t day_start, std::string source) {
    if (jobs.size() < 2) throw std::invalid_argument("weissman fit: fewer than two jobs");
    if (procs <= 0) throw std::invalid_argument("weissman fit: the machine size is unknown");
    WeissmanFit f;
    f.source = std::move(source);
    f.procs = procs;
    std::int64_t first = jobs.front().submit, last = first;
    std::vector<double> runtimes;
    runtimes.reserve(jobs.size());
    std::vector<std::int64_t> by_size(static_cast<std::size_t>(procs) + 1, 0);
    for (const TraceJob& j : jobs) {
        first = std::min(first, j.submit);
        last = std::max(last, j.submit);
        const std::int64_t tod = ((day_start + j.submit) % 86400 + 86400) % 86400;
        ++f.hourly[static_cast<std::size_t>(tod / 3600)];
        ++by_size[static_cast<std::size_t>(std::clamp(j.procs, 1, procs))];
        runtimes.push_back(static_cast<double>(std::max<std::int64_t>(j.runtime, 1)));
        f.runtime_max = std::max(f.runtime_max, std::max<std::int64_t>(j.runtime, 1));
    }
    f.days = static_cast<double>(last - first) / kDay;
    if (f.days * kDay < kHour)
        throw std::invalid_argument("weissman fit: the arrivals span less than an hour");
    for (std::int32_t s = 1; s <= procs; ++s)
        if (by_size[static_cast<std::size_t>(s)] > 0)
            f.sizes.emplace_back(s, by_size[static_cast<std::size_t>(s)]);
    std::tie(f.weibull_shape, f.weibull_scale) = weibull_mle(runtimes);
    return f;
}

WeissmanFit fit_weissman_trace(const std::string& path) {
    const Trace t = load_trace(path, Mapping::standard);
    const std::int32_t procs = header_procs(t.header, path);
    if (procs <= 0)
        throw std::invalid_argument(path + ": the header gives neither MaxProcs nor MaxNodes");
    const std::int64_t day_start =
        t.header.unix_start_time >= 0 ? t.header.unix_start_time + t.header.time_zone : 0;
    std::string name = path.substr(path.find_last_of('/') + 1);
    return fit_weissman(t.jobs, procs, day_start, name);
}

const std::array<AppInstance, 12>& weissman_instances() {
    // Table 1. STEN and GE redistribute their N x N matrix of doubles,
    // 2 N^2 x 8 bytes (divided by P at the adaptation); CL its source
    // sequences, 2 NumSourceSeqs x SeqBlockSize bytes.
    constexpr auto nn = [](std::int64_t n) { return 2 * n * n * 8; };
    constexpr auto cl = [](std::int64_t s) { return 2 * s * kWeissmanSeqBlockSize; };
    static const std::array<AppInstance, 12> t = {{
        {"STEN", 1, "N=128", 4, 1289, nn(128)},
        {"STEN", 2, "N=256", 8, 6359, nn(256)},
        {"STEN", 3, "N=512", 10, 24758, nn(512)},
        {"STEN", 4, "N=1024", 14, 113824, nn(1024)},
        {"GE", 1, "N=128", 6, 177, nn(128)},
        {"GE", 2, "N=256", 8, 768, nn(256)},
        {"GE", 3, "N=512", 12, 3857, nn(512)},
        {"GE", 4, "N=1024", 18, 3857, nn(1024)},  // Table 1 gives P3's run time again
        {"CL", 1, "NumSourceSeqs=25", 10, 4815, cl(25)},
        {"CL", 2, "NumSourceSeqs=50", 16, 6666, cl(50)},
        {"CL", 3, "NumSourceSeqs=100", 24, 23622, cl(100)},
        {"CL", 4, "NumSourceSeqs=200", 32, 244800, cl(200)},
    }};
    return t;
}

std::vector<int> weissman_template(const std::string& apps) {
    std::vector<int> v;
    const auto& t = weissman_instances();
    for (int i = 0; i < static_cast<int>(t.size()); ++i) {
        std::string a = t[static_cast<std::size_t>(i)].app;
        for (auto& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (apps == "mixed" || apps == a) v.push_back(i);
    }
    if (v.empty())
        throw std::invalid_argument("generate: apps must be sten, ge, cl or mixed, not '" + apps +
                                    "'");
    return v;
}

GeneratedWorkload generate_weissman(const GenerateOptions& o) {
    std::optional<WeissmanFit> fitted;
    if (!o.fit_trace.empty()) fitted = fit_weissman_trace(o.fit_trace);
    const WeissmanFit& f = fitted ? *fitted : sdsc_sp2_fit();
    if (o.procs < 1) throw GenerateError("procs", "must be >= 1, not " + std::to_string(o.procs));
    // A vanishing load would spend the arrival loop an hour at a time for ever.
    if (!(std::isfinite(o.load) && (o.load == 0 || (o.load >= 1e-6 && o.load <= 1e6))))
        throw GenerateError("load", fmt::format("must be 0 (the fitted rates) or between 1e-6 and "
                                                "1e6, not {}",
                                                o.load));
    const double own = f.offered_load(o.procs);
    check(own > 0, "the fit gives no load");
    const double scale = o.load > 0 ? o.load / own : 1.0;
    std::vector<double> size_cdf;
    std::int64_t total = 0;
    for (const auto& [s, c] : f.sizes) size_cdf.push_back(static_cast<double>(total += c));
    for (double& c : size_cdf) c /= static_cast<double>(total);

    Rng rng(o.seed);
    GeneratedWorkload w;
    w.jobs.resize(static_cast<std::size_t>(o.jobs));
    double t = 0;  // local midnight
    for (TraceJob& j : w.jobs) {
        // Non-stationary Poisson arrivals: a unit exponential spent at the
        // rate of each hour it crosses.
        double e = rng.exponential(1.0);
        for (;;) {
            const int hour = static_cast<int>(std::fmod(std::floor(t / kHour), 24.0));
            const double r = scale * f.rate(hour);
            const double end = (std::floor(t / kHour) + 1) * kHour;
            if (r > 0 && e <= r * (end - t)) {
                t += e / r;
                break;
            }
            e -= r * (end - t);
            t = end;
        }
        j.submit = static_cast<std::int64_t>(std::floor(t));
        const auto it = std::upper_bound(size_cdf.begin(), size_cdf.end(), rng.uniform());
        const auto k = std::min<std::size_t>(static_cast<std::size_t>(it - size_cdf.begin()),
                                             f.sizes.size() - 1);
        j.procs = std::min(f.sizes[k].first, o.procs);
        j.runtime = std::clamp<std::int64_t>(
            std::llround(rng.weibull(f.weibull_shape, f.weibull_scale)), 1, f.runtime_max);
        j.estimate = phi_estimate(rng, o, j.runtime);
        j.user = -1;
    }
    finish_jobs(w.jobs);
    w.notes = describe_fit(f);
    w.notes.push_back(fmt::format(
        "Arrivals: the fitted hourly rates x {:.6g} (expected offered load {:.4f} on {} "
        "processors); time 0 is midnight",
        scale, own * scale, o.procs));
    return w;
}

GeneratedWorkload generate_weissman_apps(const GenerateOptions& o) {
    const std::vector<int> tmpl = weissman_template(o.apps);
    if (o.procs < 1) throw GenerateError("procs", "must be >= 1, not " + std::to_string(o.procs));
    if (!(std::isfinite(o.beta) && o.beta >= 0))
        throw GenerateError("beta", fmt::format("must be >= 0, not {}", o.beta));
    const auto& table = weissman_instances();
    double rt = 0, p = 0;
    for (int i : tmpl) {
        rt += static_cast<double>(table[static_cast<std::size_t>(i)].rt_ideal);
        p += table[static_cast<std::size_t>(i)].ideal;
    }
    rt /= static_cast<double>(tmpl.size());
    p /= static_cast<double>(tmpl.size());
    for (int i : tmpl)
        check(table[static_cast<std::size_t>(i)].ideal <= o.procs,
              "an instance of the template needs more processors than the machine has");
    // §4.1: inter_arrival = RT_ideal / (P / P_ideal) x beta, the mean of
    // exponential gaps (Poisson arrivals); beta = 0 submits every job at 0.
    const double gap = rt / (static_cast<double>(o.procs) / p) * o.beta;

    Rng rng(o.seed);
    GeneratedWorkload w;
    w.jobs.resize(static_cast<std::size_t>(o.jobs));
    w.apps.executable.resize(w.jobs.size());
    double t = 0;
    for (std::size_t n = 0; n < w.jobs.size(); ++n) {
        TraceJob& j = w.jobs[n];
        if (n > 0 && gap > 0) t += rng.exponential(gap);
        const auto pick = std::min<std::size_t>(
            static_cast<std::size_t>(rng.uniform() * static_cast<double>(tmpl.size())),
            tmpl.size() - 1);
        const int i = tmpl[pick];
        const AppInstance& a = table[static_cast<std::size_t>(i)];
        j.submit = static_cast<std::int64_t>(std::floor(t));
        j.procs = a.ideal;
        j.runtime = a.rt_ideal;
        j.estimate = phi_estimate(rng, o, j.runtime);
        j.user = -1;
        w.apps.executable[n] = i + 1;
    }
    for (int i : tmpl) {
        const AppInstance& a = table[static_cast<std::size_t>(i)];
        w.apps.entries.push_back({i + 1, a.adapt_bytes,
                                  std::string(a.app) + " P" + std::to_string(a.problem) + " (" +
                                      a.size + ", P_ideal " + std::to_string(a.ideal) +
                                      ", RT_ideal " + std::to_string(a.rt_ideal) + " s)"});
    }
    finish_jobs(w.jobs);
    return w;
}

}  // namespace rota::sim
