// The random stream of the workload generators.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace rota::sim {

// Sampling from the raw output of std::mt19937_64 only: std:: distributions
// differ between standard libraries, which would make a seed mean different
// workloads on different platforms.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : e_(seed) {}

    double uniform() { return static_cast<double>(e_() >> 11) * 0x1.0p-53; }  // [0, 1)
    double open_uniform() { return 1.0 - uniform(); }                         // (0, 1]

    double exponential(double mean) { return -mean * std::log1p(-uniform()); }

    // Box-Muller, both values used (the generate.cpp models).
    double normal() {
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

    // Box-Muller, one value per pair of draws (the lublin model's own).
    double normal_single() {
        const double r = std::sqrt(-2.0 * std::log(open_uniform()));
        return r * std::cos(2.0 * 3.14159265358979323846 * uniform());
    }

    // Marsaglia and Tsang (2000); shape < 1 through Gamma(shape + 1) U^(1/shape).
    double gamma(double shape, double scale) {
        if (shape < 1) return gamma(shape + 1, scale) * std::pow(open_uniform(), 1.0 / shape);
        const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x, v;
            do {
                x = normal_single();
                v = 1.0 + c * x;
            } while (v <= 0);
            v = v * v * v;
            const double u = open_uniform();
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v * scale;
        }
    }

    // Weibull(shape, scale) by inversion.
    double weibull(double shape, double scale) {
        return scale * std::pow(-std::log(open_uniform()), 1.0 / shape);
    }

  private:
    std::mt19937_64 e_;
    double spare_ = 0;
    bool have_spare_ = false;
};

}  // namespace rota::sim
