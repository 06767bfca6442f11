#include "batch_means.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rota::sim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Continued fraction of the regularized incomplete beta function (Lentz).
double beta_cf(double a, double b, double x) {
    constexpr double kTiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (std::fabs(d) < kTiny) d = kTiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny) d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny) c = kTiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny) d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny) c = kTiny;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < 1e-15) break;
    }
    return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df) {
    const double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? 1 - tail : tail;
}

}  // namespace

double student_t_quantile(double p, double df) {
    if (!(p > 0 && p < 1) || !(df >= 1))
        throw std::invalid_argument("student_t_quantile: need 0 < p < 1 and df >= 1");
    if (p < 0.5) return -student_t_quantile(1 - p, df);
    double lo = 0, hi = 1;
    while (student_t_cdf(hi, df) < p) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (student_t_cdf(mid, df) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

BatchMeans::BatchMeans(std::size_t series, const BatchMeansOptions& options,
                       std::vector<bool> watched)
    : series_(series),
      opt_(options),
      watched_(std::move(watched)),
      size_(options.batch),
      open_sum_(series, 0),
      open_n_(series, 0) {
    if (opt_.batch < 1) throw std::invalid_argument("batch means: the batch size must be >= 1");
    if (opt_.min_batches < 2)
        throw std::invalid_argument("batch means: at least 2 batches are needed");
    if (opt_.max_batches < 2 * opt_.min_batches)
        throw std::invalid_argument("batch means: max_batches must be at least 2 x min_batches");
    if (!(opt_.confidence > 0 && opt_.confidence < 1))
        throw std::invalid_argument("batch means: the confidence must be in (0, 1)");
    if (watched_.empty()) watched_.assign(series, true);
    if (watched_.size() != series)
        throw std::invalid_argument("batch means: one watched flag per series");
}

void BatchMeans::add(const std::size_t* series, std::size_t n, double value) {
    for (std::size_t i = 0; i < n; ++i) {
        open_sum_[series[i]] += value;
        ++open_n_[series[i]];
    }
    next_job();
}

void BatchMeans::skip() {
    next_job();
}

void BatchMeans::next_job() {
    closed_ = false;
    if (++in_batch_ < size_) return;
    closed_ = true;
    sums_.push_back(open_sum_);
    ns_.push_back(open_n_);
    std::fill(open_sum_.begin(), open_sum_.end(), 0);
    std::fill(open_n_.begin(), open_n_.end(), 0);
    in_batch_ = 0;
    if (static_cast<std::int32_t>(sums_.size()) < opt_.max_batches) return;
    // Merge neighbours: half as many batches, twice as long.
    const std::size_t k = sums_.size() / 2;
    for (std::size_t b = 0; b < k; ++b)
        for (std::size_t s = 0; s < series_; ++s) {
            sums_[b][s] = sums_[2 * b][s] + sums_[2 * b + 1][s];
            ns_[b][s] = ns_[2 * b][s] + ns_[2 * b + 1][s];
        }
    sums_.resize(k);
    ns_.resize(k);
    size_ *= 2;
}

BatchMeansResult BatchMeans::result() const {
    BatchMeansResult r;
    r.batch_size = size_;
    r.batches = batches();
    r.observations = static_cast<std::int64_t>(sums_.size()) * size_;
    r.confidence = opt_.confidence;
    r.series.resize(series_);
    const std::size_t k = sums_.size();
    const double t =
        k >= 2 ? student_t_quantile(0.5 + opt_.confidence / 2, static_cast<double>(k - 1)) : kNaN;
    bool any = false;
    r.max_rel_error = 0;
    for (std::size_t s = 0; s < series_; ++s) {
        SeriesEstimate& e = r.series[s];
        double y = 0;
        for (std::size_t b = 0; b < k; ++b) {
            y += sums_[b][s];
            e.count += ns_[b][s];
        }
        e.mean = e.count > 0 ? y / static_cast<double>(e.count) : kNaN;
        e.half_width = kNaN;
        e.rel_error = kInf;
        if (e.count > 0 && k >= 2) {
            // Ratio estimator: Var(Y/N) ~ sum (Y_b - r N_b)^2 / (k (k - 1) Nbar^2).
            const double nbar = static_cast<double>(e.count) / static_cast<double>(k);
            double ss = 0;
            for (std::size_t b = 0; b < k; ++b) {
                const double d = sums_[b][s] - e.mean * static_cast<double>(ns_[b][s]);
                ss += d * d;
            }
            e.half_width = t * std::sqrt(ss / (static_cast<double>(k) * (k - 1))) / nbar;
            e.rel_error = e.mean != 0 ? e.half_width / std::fabs(e.mean) : kInf;
        }
        if (!watched_[s] || e.count == 0) continue;
        any = true;
        r.max_rel_error = std::max(r.max_rel_error, e.rel_error);
    }
    if (!any || static_cast<std::int32_t>(k) < opt_.min_batches) r.max_rel_error = kInf;
    // Lag-1 autocorrelation of the whole stream's batch means.
    r.lag1 = kNaN;
    if (k >= 3 && series_ > 0) {
        std::vector<double> m(k);
        double mean = 0;
        for (std::size_t b = 0; b < k; ++b) {
            m[b] = ns_[b][0] > 0 ? sums_[b][0] / static_cast<double>(ns_[b][0]) : 0;
            mean += m[b];
        }
        mean /= static_cast<double>(k);
        double num = 0, den = 0;
        for (std::size_t b = 0; b < k; ++b) {
            den += (m[b] - mean) * (m[b] - mean);
            if (b + 1 < k) num += (m[b] - mean) * (m[b + 1] - mean);
        }
        r.lag1 = den > 0 ? num / den : kNaN;
    }
    return r;
}

}  // namespace rota::sim
