// EASY backfilling throughput: the shipped Lua first-fit policy against
// the same policy written in C++ and installed through the C ABI.
//
//   build/bin/bench_easy [--jobs N] [--trace FILE]
//
// Prints jobs per second of simulation (reading or generating the
// workload excluded), SWF reading speed, the Lua/native ratio and the
// peak memory per job. Simulation figures are thread CPU time
// (CLOCK_THREAD_CPUTIME_ID), the Lua and native runs alternated, the best
// of three each.
#include <sys/resource.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "generate.h"
#include "run_config.h"
#include "simulation.h"
#include "swf.h"

using namespace rota::sim;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double thread_cpu() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// First fit: start the candidates in queue order (the engine re-checks each).
int first_fit(void*, const rota_batch* c, const rota_backfill_context*, uint32_t* picks) {
    for (size_t i = 0; i < c->n; ++i) picks[i] = static_cast<uint32_t>(i);
    return static_cast<int>(c->n);
}

struct Run {
    double seconds;
    std::size_t jobs;
    std::uint64_t hook_calls;
};

Run simulate_easy(const std::vector<TraceJob>& jobs, std::int32_t procs, bool native) {
    RunConfig rc;
    std::string cfg = engine_toml(rc, "easy", procs);
    rota_engine* e = nullptr;
    if (rota_engine_new(cfg.c_str(), nullptr, &e) != ROTA_OK) {
        std::fprintf(stderr, "bench: %s\n", rota_errmsg(e));
        std::exit(1);
    }
    // First fit decides in queue order: it streams, like backfill/first_fit.lua.
    if (native) rota_set_backfill_select(e, first_fit, nullptr, ROTA_STREAM);
    const double t0 = thread_cpu();
    SimResult r = simulate(e, jobs, {});
    const double s = thread_cpu() - t0;
    rota_engine_free(e);
    return {s, jobs.size(), r.hooks[ROTA_HOOK_BACKFILL_SELECT].second.calls};
}

long peak_rss_kb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

void compare(const char* name, const std::vector<TraceJob>& jobs, std::int32_t procs) {
    // Best of a few runs each, interleaved, so that noise on this shared
    // machine hits both sides alike.
    const int reps = 3;
    double lua = 1e300, native = 1e300;
    std::uint64_t calls = 0;
    for (int i = 0; i < reps; ++i) {
        Run l = simulate_easy(jobs, procs, false);
        Run n = simulate_easy(jobs, procs, true);
        lua = std::min(lua, l.seconds);
        native = std::min(native, n.seconds);
        calls = l.hook_calls;
    }
    std::printf(
        "%-28s %9zu jobs  lua %10.0f jobs/s  native %10.0f jobs/s  lua/native %.2fx  "
        "(%llu backfill_select calls)\n",
        name, jobs.size(), jobs.size() / lua, jobs.size() / native, lua / native,
        static_cast<unsigned long long>(calls));
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t njobs = 1'000'000;
    const std::string hpc2n = std::string(ROTA_SHARED_DIR) + "/traces/HPC2N-2002-2.2-cln.swf.gz";
    std::string trace = hpc2n;
    CLI::App app{"EASY throughput: the shipped Lua first fit against the same policy in C++",
                 "bench_easy"};
    app.add_option("--jobs", njobs, "jobs of the generated workload")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}))
        ->capture_default_str();
    app.add_option("--trace", trace, "an SWF trace, plain or gzipped; skipped if absent")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    std::printf("rota %s, EASY backfilling, thread CPU time, best of 3 alternated runs each\n",
                rota_version());

    GenerateOptions g;
    g.jobs = njobs;
    g.procs = 1024;
    g.load = 0.9;
    auto t0 = Clock::now();
    auto jobs = generate(g);
    std::printf("generated %zu jobs in %.2f s (%s)\n", jobs.size(), seconds_since(t0),
                describe(g).c_str());
    long rss_before = peak_rss_kb();
    Run once = simulate_easy(jobs, g.procs, false);
    long rss_after = peak_rss_kb();
    std::printf(
        "peak memory: %.0f bytes/job (peak RSS %ld MiB over %zu jobs; workload and "
        "per-job results included; %.0f bytes/job added by the simulation)\n",
        rss_after * 1024.0 / jobs.size(), rss_after / 1024, jobs.size(),
        (rss_after - rss_before) * 1024.0 / jobs.size());
    (void)once;
    compare("synthetic (1024 procs, 0.9)", jobs, g.procs);
    jobs.clear();
    jobs.shrink_to_fit();

    if (std::filesystem::exists(trace)) {
        t0 = Clock::now();
        std::int64_t lines = 0;
        {
            SwfReader r(trace);
            SwfRecord rec;
            while (r.next(rec)) ++lines;
        }
        double rs = seconds_since(t0);
        std::printf("SWF reading: %lld records in %.3f s = %.0f lines/s (%s)\n",
                    static_cast<long long>(lines), rs, lines / rs, trace.c_str());
        Trace t = load_trace(trace, Mapping::standard);
        // As rota simulate sizes the machine without --procs.
        const std::int32_t procs = t.header.max_procs > 0 ? t.header.max_procs : t.header.max_nodes;
        if (procs <= 0) {
            std::fprintf(stderr, "bench_easy: %s has neither MaxProcs nor MaxNodes\n",
                         trace.c_str());
            return 2;
        }
        const std::string name = std::filesystem::path(trace).filename().string() + " (" +
                                 std::to_string(procs) + " procs)";
        compare(name.c_str(), t.jobs, procs);
    } else {
        std::printf("trace not found at %s: skipped\n", trace.c_str());
    }
    std::printf("reproduce: build/bin/bench_easy --jobs %lld%s\n", static_cast<long long>(njobs),
                trace == hpc2n ? "" : (" --trace " + trace).c_str());
    return 0;
}
