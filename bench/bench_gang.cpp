// Gang scheduling throughput: BGS and MBGS (MPL 5, 200 s slices) on seed
// 000's workload 8 (10,000 jobs) and on a 100,000-job workload of the same
// model, through the C ABI as `rota simulate --policy bgs|mbgs` runs them.
//
//   build/bin/bench_gang [--jobs N]
//
// Prints wall seconds, jobs per second and slices per second.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "generate.h"
#include "run_config.h"
#include "simulation.h"

using namespace rota::sim;
using Clock = std::chrono::steady_clock;

namespace {

void run(const char* label, const std::vector<TraceJob>& jobs, const char* policy) {
    RunConfig rc;
    rc.mpl = 5;
    rc.slice = 200;
    rc.migration_cost = 10;  // Figure 15's setting
    rc.migration_q = 64;
    std::string cfg = engine_toml(rc, policy, kZhangProcs);
    double best = 1e300;
    SimResult r;
    for (int rep = 0; rep < 3; ++rep) {
        rota_engine* e = nullptr;
        if (rota_engine_new(cfg.c_str(), nullptr, &e) != ROTA_OK) {
            std::fprintf(stderr, "bench: %s\n", rota_errmsg(e));
            std::exit(1);
        }
        SimOptions opt;
        opt.cs_overhead = 0.01;
        auto t0 = Clock::now();
        r = simulate(e, jobs, opt);
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
        rota_engine_free(e);
    }
    std::printf(
        "%-34s %-5s %8.3f s  %10.0f jobs/s  %10.0f slices/s  (%lld slices, %llu migrated tasks)\n",
        label, policy, best, jobs.size() / best, r.slices / best, static_cast<long long>(r.slices),
        static_cast<unsigned long long>(r.counters.migrated_tasks));
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t big = 100'000;
    for (int i = 1; i + 1 < argc; i += 2)
        if (!std::strcmp(argv[i], "--jobs")) big = std::stoll(argv[i + 1]);
    std::printf(
        "rota %s, gang scheduling, MPL 5, 200 s slices, 1%% context switch, C = 10 s, Q = 64; "
        "best of 3\n",
        rota_version());
    auto w8 = generate(zhang_options(1.8, 1));
    run("seed 000 workload 8 (10,000 jobs)", w8, "bgs");
    run("seed 000 workload 8 (10,000 jobs)", w8, "mbgs");
    GenerateOptions g = zhang_options(1.8, 1);
    g.jobs = big;
    auto wb = generate(g);
    std::string label = "zhang model, factor 1.8 (" + std::to_string(big) + " jobs)";
    run(label.c_str(), wb, "bgs");
    run(label.c_str(), wb, "mbgs");
    std::printf("reproduce: build/bin/bench_gang --jobs %lld\n", static_cast<long long>(big));
    return 0;
}
