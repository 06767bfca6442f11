#include "lublin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "rng.h"

namespace rota::sim {

namespace {

constexpr int kBuckets = 48;  // half-hours of a day
constexpr double kBucketSeconds = 86400.0 / kBuckets;
constexpr int kCyclicDayStart = 11;

// One class's arrival process: the model's calc_next_arrive with the
// rush-hour inter-arrival time multiplied by `stretch`.
class Arrivals {
  public:
    Arrivals(const LublinClass& c, std::uint64_t seed, double stretch)
        : c_(c), w_(lublin_daily_weights(c)), rng_(seed), stretch_(stretch) {
        advance();
    }
    double next() const { return t_; }
    void advance() {
        double g;
        do g = rng_.gamma(c_.aarr * c_.arar, c_.barr);
        while (g > kLublinMaxLogInterarrival);
        points_ += stretch_ * std::exp(g) / kBucketSeconds;
        double dt = 0;
        while (points_ > w_[bucket_]) {
            points_ -= w_[bucket_];
            bucket_ = (bucket_ + 1) % kBuckets;
            dt += kBucketSeconds;
        }
        const double rem = points_ / w_[bucket_];
        dt += kBucketSeconds * (rem - reminder_);
        reminder_ = rem;
        t_ += dt;
    }

  private:
    LublinClass c_;
    std::vector<double> w_;
    Rng rng_;
    double stretch_;
    double t_ = 0, points_ = 0, reminder_ = 0;
    int bucket_ = 0;  // the model starts at midnight
};

// The jobs of one class, in order: the n-th job of a class has the same
// size, runtime, estimate and user whatever the arrivals.
class Jobs {
  public:
    Jobs(const LublinClass& c, const GenerateOptions& o, std::uint64_t seed,
         const std::vector<double>* user_cdf)
        : c_(c), o_(o), rng_(seed), user_cdf_(user_cdf) {}
    TraceJob next() {
        TraceJob j{};
        const double u = rng_.uniform();
        double size = 1;
        if (u >= c_.serial) {
            const double lo = rng_.uniform() <= c_.uprob ? c_.ulow : c_.umed;
            const double hi = lo == c_.ulow ? c_.umed : c_.uhi;
            double par = lo + rng_.uniform() * (hi - lo);
            if (u < c_.serial + c_.pow2) par = std::floor(par + 0.5);
            size = std::floor(std::pow(2.0, par) + 0.5);
        }
        j.procs = static_cast<std::int32_t>(std::clamp<double>(size, 1, o_.procs));
        const double p = std::clamp(c_.pa * j.procs + c_.pb, 0.0, 1.0);
        double hg;
        do {
            const bool first = rng_.uniform() <= p;
            hg = first ? rng_.gamma(c_.a1, c_.b1) : rng_.gamma(c_.a2, c_.b2);
        } while (hg > kLublinMaxLogRuntime);
        j.runtime = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp(hg)));
        // The Φ model ([Zhang00] §2.1), as in the standard model.
        const double y = rng_.uniform();
        const std::int64_t cap = std::max(j.runtime, o_.estimate_max);
        if (y < o_.phi) {
            j.estimate = j.runtime;
        } else {
            const double est =
                std::ceil(static_cast<double>(j.runtime) * (1.0 - o_.phi) / (1.0 - y));
            j.estimate = !(est < static_cast<double>(cap))
                             ? cap
                             : std::max(j.runtime, static_cast<std::int64_t>(est));
        }
        j.user = -1;
        if (user_cdf_) {
            const auto it = std::upper_bound(user_cdf_->begin(), user_cdf_->end(), rng_.uniform());
            j.user =
                static_cast<std::int32_t>(std::min<std::ptrdiff_t>(
                    it - user_cdf_->begin(), static_cast<std::ptrdiff_t>(user_cdf_->size()) - 1)) +
                1;
        }
        return j;
    }

  private:
    LublinClass c_;
    const GenerateOptions& o_;
    Rng rng_;
    const std::vector<double>* user_cdf_;
};

// Series (x < a + 1) and continued fraction (Lentz) of the regularised
// incomplete gamma function P(a, x).
double lower_regularised_gamma(double a, double x) {
    if (x <= 0) return 0;
    const double lead = std::exp(-x + a * std::log(x) - std::lgamma(a));
    if (x < a + 1) {
        double term = 1.0 / a, sum = term, aa = a;
        for (int i = 0; i < 1000; ++i) {
            aa += 1;
            term *= x / aa;
            sum += term;
            if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
        }
        return sum * lead;
    }
    constexpr double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < 1e-15) break;
    }
    return 1 - lead * h;
}

}  // namespace

double gamma_cdf(double x, double shape, double scale) {
    return lower_regularised_gamma(shape, x / scale);
}

LublinClass lublin_batch() {
    return {0.2927, 0.6686, 1.2,    5,      7,      0.875,  6.57,   0.823, 639.1,
            0.0156, -0.003, 0.6986, 6.0415, 0.8531, 6.1271, 5.2740, 1.0519};
}

LublinClass lublin_interactive() {
    return {0.1541, 0.625,   1,      3,      5.5,    0.705,  3.8351, 0.6605, 7.073,
            0.6856, -0.0118, 0.9156, 6.5510, 0.6621, 8.9186, 3.6680, 0.9797};
}

LublinClass lublin_scaled(const LublinClass& c, std::int32_t procs, bool interactive) {
    LublinClass s = c;
    const double hi = std::log2(static_cast<double>(std::max(procs, 1))) - (interactive ? 1.5 : 0);
    s.uhi = std::max(hi, s.ulow);
    s.umed = std::clamp(s.uhi - (c.uhi - c.umed), s.ulow, s.uhi);
    return s;
}

std::vector<double> lublin_daily_weights(const LublinClass& c) {
    std::vector<double> w(kBuckets);
    double mean = 0;
    for (int i = kCyclicDayStart; i < kBuckets + kCyclicDayStart; ++i) {
        const int idx = (i - 1) % kBuckets;
        w[idx] = gamma_cdf(i + 0.5, c.anum, c.bnum) - gamma_cdf(i - 0.5, c.anum, c.bnum);
        mean += w[idx];
    }
    mean /= kBuckets;
    for (double& x : w) x /= mean;
    return w;
}

std::vector<TraceJob> generate_lublin(const GenerateOptions& o) {
    if (o.procs < 1) throw GenerateError("procs", "must be >= 1, not " + std::to_string(o.procs));
    if (!(o.load > 0) || !std::isfinite(o.load))
        throw GenerateError("load", fmt::format("must be > 0, not {}", o.load));
    const LublinClass batch = lublin_scaled(lublin_batch(), o.procs, false);
    const LublinClass inter = lublin_scaled(lublin_interactive(), o.procs, true);
    std::vector<double> user_cdf;
    if (o.users > 0) {
        double s = 0;
        for (std::int32_t u = 0; u < o.users; ++u) user_cdf.push_back(s += 1.0 / (u + 1));
        for (double& c : user_cdf) c /= s;
    }
    // Four independent streams from the seed: each class's arrivals and jobs.
    std::seed_seq seq{o.seed, std::uint64_t{0x4c75626c696eu}};
    std::uint64_t seeds[4];
    {
        std::uint32_t raw[8];
        seq.generate(raw, raw + 8);
        for (int k = 0; k < 4; ++k) seeds[k] = (std::uint64_t{raw[2 * k]} << 32) | raw[2 * k + 1];
    }
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(o.jobs, 0));
    auto build = [&](double stretch) {
        Arrivals arr[2] = {Arrivals(batch, seeds[0], stretch), Arrivals(inter, seeds[1], stretch)};
        Jobs jobs[2] = {Jobs(batch, o, seeds[2], user_cdf.empty() ? nullptr : &user_cdf),
                        Jobs(inter, o, seeds[3], user_cdf.empty() ? nullptr : &user_cdf)};
        std::vector<TraceJob> out(n);
        for (std::size_t i = 0; i < n; ++i) {
            const int k = arr[0].next() < arr[1].next() ? 0 : 1;  // the model's tie: interactive
            TraceJob j = jobs[k].next();
            j.id = static_cast<std::int64_t>(i) + 1;
            j.submit = static_cast<std::int64_t>(arr[k].next());
            arr[k].advance();
            out[i] = j;
        }
        if (!out.empty()) {
            const std::int64_t t0 = out.front().submit;
            for (auto& j : out) j.submit -= t0;  // the first job arrives at 0
        }
        return out;
    };
    // The load is nearly proportional to 1 / stretch; the first n arrivals
    // change with it, so the closest of a few fixed-point steps is kept.
    double stretch = 1;
    std::vector<TraceJob> jobs = build(stretch);
    if (n < 2) return jobs;
    double best_err = std::fabs(offered_load(jobs, o.procs) / o.load - 1);
    std::vector<TraceJob> best = jobs;
    for (int it = 0; it < 40 && best_err >= 0.002; ++it) {
        const double load = offered_load(jobs, o.procs);
        if (!(load > 0)) break;
        // Damped after the first steps, against oscillation between two sets.
        stretch *= std::pow(load / o.load, it < 3 ? 1.0 : 0.5);
        jobs = build(stretch);
        const double err = std::fabs(offered_load(jobs, o.procs) / o.load - 1);
        if (err < best_err) best_err = err, best = jobs;
    }
    jobs = std::move(best);
    return jobs;
}

}  // namespace rota::sim
