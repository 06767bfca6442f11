#include "cli_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "run_config.h"  // kMinLoad, kMaxLoad

namespace rota::sim {

CLI::Validator real_in(double lo, double hi, bool open_lo, bool open_hi, const std::string& what) {
    return CLI::Validator(
        [=](std::string& in) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(in.c_str(), &end);
            if (in.empty() || *end != '\0') return "expected a number, not '" + in + "'";
            if (!std::isfinite(v) || v < lo || v > hi || (open_lo && v == lo) ||
                (open_hi && v == hi))
                return "must be " + what + ", not " + in;
            return {};
        },
        what, "");
}
// Far below 0.001 the gaps between arrivals leave the time axis (and
// lublin's calibration never ends); far above, nothing is left to measure.
CLI::Validator offered_load() {
    return real_in(kMinLoad, kMaxLoad, false, false, "an offered load in [0.001, 1000]");
}
CLI::Validator nonnegative_real() {
    return real_in(0, std::numeric_limits<double>::max(), false, false, "a number >= 0");
}
CLI::Validator int_in(long long lo, long long hi, const std::string& what) {
    return CLI::Validator(
        [=](std::string& in) -> std::string {
            char* end = nullptr;
            errno = 0;
            const long long v = std::strtoll(in.c_str(), &end, 10);
            if (in.empty() || *end != '\0' || errno == ERANGE)
                return "expected a whole number, not '" + in + "'";
            if (v < lo || v > hi) return "must be " + what + ", not " + in;
            return {};
        },
        what, "");
}
CLI::Validator int_at_least(long long lo) {
    return int_in(lo, std::numeric_limits<long long>::max(),
                  "a whole number >= " + std::to_string(lo));
}

}  // namespace rota::sim
