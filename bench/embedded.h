// What the benchmarks that embed rota through rota.h alone share: checking
// a call, a seeded generator and the calling thread's CPU clock.
#pragma once

#include <time.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "rota.h"

namespace bench {

// Each program says who failed: "bench_latency: ...", then exits 1.
[[noreturn]] void die(const std::string& msg);

// A call that returned neither ROTA_OK nor ROTA_DONE ends the program with
// its status name and the engine's message.
inline void check(rota_engine* e, int rc, const char* what) {
    if (rc != ROTA_OK && rc != ROTA_DONE)
        die(std::string(what) + ": " + rota_status_name(rc) + ": " + rota_errmsg(e));
}

// splitmix64 (Steele, Lea, Flood): tiny, fast and the same on every
// platform, unlike the standard library's distributions.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    // Log-uniform on [lo, hi).
    double log_uniform(double lo, double hi) {
        return lo * std::exp(uniform() * std::log(hi / lo));
    }
    std::uint64_t below(std::uint64_t n) { return next() % n; }  // bias negligible for small n

  private:
    std::uint64_t s_;
};

// Nanoseconds of CPU time of the calling thread: what a pass costs the
// embedding program, whatever else the machine runs.
inline double thread_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

}  // namespace bench
