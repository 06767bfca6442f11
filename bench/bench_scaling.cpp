// Throughput as workloads grow: does the cost per job stay flat?
//
//   build/bin/bench_scaling [--suite backfill|traces|gang|kresource|classes|malleable|all]
//                           [--repeat R] [--sizes N,N,...] [--gang-sizes N,N,...]
//                           [--k-jobs N] [--min-pct P]
//   build/bin/bench_gang    the same program, the gang suite by default
//
// backfill: conservative and EASY (shipped Lua first_fit) on generated
//   workloads (1,024 processors, offered load 0.9) of 10k, 50k and 200k jobs.
// traces:   conservative against EASY on CTC-SP2 and HPC2N (standard mapping).
// gang:     BGS and MBGS (MPL 5, 200 s slices, C = 10 s, Q = 64) on
//           [Zhang00]'s workload 8 (factor 1.8) scaled to 10k, 30k and 100k jobs.
// kresource: BB-EASY and BL-EASY (backfill/balanced.lua, lowest.lua) against
//           FF-EASY on [Leinberger99]'s feitelson-k workload, K = 8, V = 0.1,
//           100,000 jobs, arrivals calibrated for a mean queue of 64
//           (the calibration runs before, outside the measure).
// classes:  [Feitelson97]'s two-pass algorithm with preemption (Table 1's
//           classes, limits x 4) against EASY on the backfill suite's
//           workload, --k-jobs jobs.
// malleable: [Weissman03]'s harvesting policies (Lua harvest and distribution,
//           min = --min-pct % of the ideal, default 30) against EASY on the
//           ideal (ideal-backfill), the backfill suite's workload, --k-jobs
//           jobs; the harvests are printed to show the runs harvest.
//
// Each figure is the CPU time of this thread while the simulation runs
// (CLOCK_THREAD_CPUTIME_ID: the workload is built before, outside the
// measure), so that other processes on a shared machine do not count. The
// settings compared are run alternately, R times each (default 3), and the
// median is reported with the spread (max/min) of the R runs. "spread over
// sizes" is the largest jobs/s divided by the smallest: the target is within
// ±15 % (at most 1.35).
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "calibrate.h"
#include "generate.h"
#include "malleable.h"
#include "run_config.h"
#include "simulation.h"
#include "swf.h"

using namespace rota::sim;

namespace {

double thread_cpu() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Setting {
    std::string policy;
    RunConfig rc;
    SimOptions opt;
    std::string extra_toml = {};  // appended to the engine's configuration
    std::string label = {};       // printed instead of the policy, when set
    const std::string& name() const { return label.empty() ? policy : label; }
};

Setting backfilling(const char* policy) {
    return {policy, RunConfig{}, SimOptions{}};
}

Setting gang(const char* policy) {
    Setting s{policy, RunConfig{}, SimOptions{}};
    s.rc.mpl = 5;
    s.rc.slice = 200;
    s.rc.migration_cost = 10;  // [Zhang00] Figure 15's setting
    s.rc.migration_q = 64;
    s.opt.cs_overhead = 0.01;
    return s;
}

// Mean number of waiting jobs over the run (Little's law: total wait over
// the span from first submission to last start): what a pass has to walk.
double mean_waiting(const SimResult& r) {
    double wait = 0;
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = 0;
    for (const JobOutcome& j : r.jobs) {
        first = std::min(first, j.submit);
        if (j.start < 0) continue;
        wait += static_cast<double>(j.start - j.submit);
        last = std::max(last, j.start);
    }
    return last > first ? wait / static_cast<double>(last - first) : 0.0;
}

struct Measure {
    double cpu, waiting;
    rota_counters counters;
    std::vector<std::pair<std::string, rota_hook_stats>> hooks;
};

Measure run_once(const Setting& s, const std::vector<TraceJob>& jobs, std::int32_t procs) {
    const std::string cfg = engine_toml(s.rc, s.policy, procs) + s.extra_toml;
    if (s.opt.pools && s.rc.pools.size() != s.opt.pools->count()) {
        std::fprintf(stderr, "bench_scaling: the setting's pools differ from the workload's\n");
        std::exit(1);
    }
    rota_engine* e = nullptr;
    if (rota_engine_new(cfg.c_str(), nullptr, &e) != ROTA_OK) {
        std::fprintf(stderr, "bench_scaling: %s\n", rota_errmsg(e));
        std::exit(1);
    }
    const double t0 = thread_cpu();
    SimResult r = simulate(e, jobs, s.opt);
    const double t = thread_cpu() - t0;
    rota_engine_free(e);
    if (r.jobs.size() != jobs.size()) {
        std::fprintf(stderr, "bench_scaling: %zu of %zu jobs accounted for\n", r.jobs.size(),
                     jobs.size());
        std::exit(1);
    }
    return {t, mean_waiting(r), r.counters, r.hooks};
}

struct Figure {
    double median, spread, waiting;
    rota_counters counters;
    std::vector<std::pair<std::string, rota_hook_stats>> hooks;  // of the median run
};

// Runs every setting on `jobs` alternately, `repeat` times; one figure each.
std::vector<Figure> alternate(const std::vector<Setting>& settings,
                              const std::vector<TraceJob>& jobs, std::int32_t procs, int repeat) {
    std::vector<std::vector<double>> t(settings.size());
    std::vector<double> waiting(settings.size());
    std::vector<std::vector<Measure>> runs(settings.size());
    for (int i = 0; i < repeat; ++i)
        for (std::size_t k = 0; k < settings.size(); ++k) {
            Measure m = run_once(settings[k], jobs, procs);
            t[k].push_back(m.cpu);
            waiting[k] = m.waiting;  // the same schedule every time
            runs[k].push_back(std::move(m));
        }
    std::vector<Figure> out;
    for (std::size_t k = 0; k < t.size(); ++k) {
        auto& v = t[k];
        std::sort(v.begin(), v.end());
        const double median = v[v.size() / 2];
        const Measure* mid = &runs[k].front();
        for (const Measure& m : runs[k])
            if (m.cpu == median) mid = &m;
        out.push_back({median, v.back() / v.front(), waiting[k], mid->counters, mid->hooks});
    }
    return out;
}

std::string joined(const std::vector<std::int64_t>& v) {
    std::string out;
    for (std::int64_t x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
}

// One line per size and setting, then the spread of jobs/s over sizes.
void scaling(const char* title, const std::vector<Setting>& settings,
             const std::vector<std::int64_t>& sizes, GenerateOptions g, int repeat) {
    std::printf("\n%s\n", title);
    std::vector<std::vector<double>> rate(settings.size());
    for (std::int64_t n : sizes) {
        g.jobs = n;
        const auto jobs = generate(g);
        const auto f = alternate(settings, jobs, g.procs, repeat);
        for (std::size_t k = 0; k < settings.size(); ++k) {
            const double r = static_cast<double>(n) / f[k].median;
            rate[k].push_back(r);
            std::printf(
                "  %-13s %8lld jobs  %8.3f s CPU  %10.0f jobs/s  (runs within %.2fx; %.0f jobs "
                "waiting on average)\n",
                settings[k].policy.c_str(), static_cast<long long>(n), f[k].median, r, f[k].spread,
                f[k].waiting);
        }
        if (settings.size() == 2)
            std::printf("  %s / %s CPU time: %.2fx\n", settings[0].policy.c_str(),
                        settings[1].policy.c_str(), f[0].median / f[1].median);
    }
    for (std::size_t k = 0; k < settings.size(); ++k) {
        const auto [lo, hi] = std::minmax_element(rate[k].begin(), rate[k].end());
        std::printf("  %-13s spread over sizes: %.2fx (target at most 1.35x)\n",
                    settings[k].policy.c_str(), *hi / *lo);
    }
}

void traces(const std::vector<std::string>& names, int repeat) {
    std::printf("\nconservative against EASY (Lua first_fit) on real traces\n");
    for (const std::string& name : names) {
        const std::string path = std::string(ROTA_SHARED_DIR) + "/traces/" + name;
        if (!std::filesystem::exists(path)) {
            std::printf("  %s not found: skipped\n", path.c_str());
            continue;
        }
        const Trace t = load_trace(path, Mapping::standard);
        const auto f = alternate({backfilling("conservative"), backfilling("easy")}, t.jobs,
                                 t.header.max_procs, repeat);
        std::printf(
            "  %-28s %7zu jobs  conservative %7.3f s  easy %7.3f s CPU  ratio %.2fx "
            "(target at most 3x)\n",
            name.c_str(), t.jobs.size(), f[0].median, f[1].median, f[0].median / f[1].median);
    }
}

// [Leinberger99] §4's heuristics in Lua against first fit on one K = 8 workload.
void kresource(std::int64_t n, int repeat) {
    GenerateOptions g = feitelson_k_options(8, 0.1, 1);
    g.jobs = n;
    GeneratedWorkload w = generate_workload(g);
    CalibrationOptions co;
    co.target = 64;
    const CalibrationResult cal = calibrate_arrivals(w.jobs, w.pools, g.procs, w.unit_arrivals, co);
    std::printf(
        "\nBB-EASY and BL-EASY (Lua) against FF-EASY, feitelson-k K = 8, V = 0.1, %lld jobs, "
        "%.5f jobs/s (mean queue %.1f under FF-EASY)\n",
        static_cast<long long>(n), cal.rate, cal.mean_queue);
    std::vector<Setting> settings;
    for (const char* p : {"ff-easy", "bb-easy", "bl-easy"}) {
        Setting s = backfilling(p);
        s.rc.pools = w.pools.pools;
        s.opt.pools = &w.pools;
        settings.push_back(s);
    }
    const auto f = alternate(settings, w.jobs, g.procs, repeat);
    for (std::size_t k = 0; k < settings.size(); ++k)
        std::printf("  %-8s %8.3f s CPU  (runs within %.2fx; %.0f jobs waiting on average)%s\n",
                    settings[k].policy.c_str(), f[k].median, f[k].spread, f[k].waiting,
                    k == 0 ? "" : "");
    std::printf("  bb-easy / ff-easy CPU time: %.2fx (target at most 1.5x)\n",
                f[1].median / f[0].median);
    std::printf("  bl-easy / ff-easy CPU time: %.2fx\n", f[2].median / f[0].median);
}

// [Feitelson97]'s two passes with preemption against EASY on one workload of
// `n` jobs on 1,024 processors: Table 1's classes with §4.2's limits scaled
// from the T3D's 256 processors (x 4), interactive = at most 256
// processors and 2 hours requested.
void classes(std::int64_t n, int repeat) {
    GenerateOptions g;
    g.procs = 1024;
    g.load = 0.9;
    g.jobs = n;
    const auto jobs = generate(g);
    std::vector<std::int32_t> cls(jobs.size(), 0);
    std::size_t interactive = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (jobs[i].procs <= 256 && jobs[i].estimate <= 7200) {
            cls[i] = 1;  // interactive, class 1 of the preset
            ++interactive;
        }
    Setting c = backfilling("classes");
    c.rc.engine = toml::parse(
        "[classes]\npreset = \"llnl-t3d\"\nlarge_job = 256\nlarge_procs = 768\n"
        "job_procs = 1024\nsystem_procs = 2304\n"
        "[[classes.class]]\nname = \"interactive\"\nprocs = 1024\n"
        "[[classes.class]]\nname = \"debug\"\nprocs = 384\n"
        "[[classes.class]]\nname = \"production\"\nprocs = 1024\n"
        "[[classes.class]]\nname = \"benchmark\"\nprocs = 256\n"
        "[[classes.class]]\nname = \"standby\"\nprocs = 1024\n");
    c.opt.job_class = &cls;
    const auto f = alternate({c, backfilling("easy")}, jobs, g.procs, repeat);
    std::printf(
        "\n[Feitelson97]'s two passes (llnl-t3d classes x 4) against EASY, generated workload "
        "(1024 "
        "procs, load 0.9), %lld jobs, %zu interactive\n",
        static_cast<long long>(n), interactive);
    std::printf("  classes  %8.3f s CPU  (runs within %.2fx; %.0f jobs waiting on average)\n",
                f[0].median, f[0].spread, f[0].waiting);
    std::printf("  easy     %8.3f s CPU  (runs within %.2fx; %.0f jobs waiting on average)\n",
                f[1].median, f[1].spread, f[1].waiting);
    std::printf("  classes / easy CPU time: %.2fx (target at most 3x)\n",
                f[0].median / f[1].median);
}

// [Weissman03]'s malleable jobs (min..ideal processors, the linear execution
// model, no limit on the degree of multiprogramming) under the paper's
// harvesting policies, against EASY with every job on its ideal.
void malleable(std::int64_t n, double min_pct, int repeat) {
    GenerateOptions g;
    g.procs = 1024;
    g.load = 0.9;
    g.jobs = n;
    const auto jobs = generate(g);
    const std::vector<std::int32_t> mins = min_procs(jobs, min_pct);
    std::vector<Setting> settings;
    for (const char* p : {"ideal-backfill", "low-imp-fr", "even-h-fq"}) {
        Setting s = backfilling(p);
        s.rc.min_pct = min_pct;
        if (uses_min(p)) s.opt.min_procs = &mins;
        settings.push_back(s);
    }
    // The same scripts without the instruction budget's count hook, which
    // makes Lua 5.4 stop before every VM instruction (docs/lua-api.md).
    for (std::size_t k = 1; k < 3; ++k) {
        Setting s = settings[k];
        s.extra_toml = "\n[lua]\ninstruction_budget = 0\n";
        s.label = s.policy + ",nobudget";
        settings.push_back(s);
    }
    const auto f = alternate(settings, jobs, g.procs, repeat);
    std::printf(
        "\n[Weissman03]'s harvesting (Lua) against EASY on the ideal, generated workload (1024 "
        "procs, load 0.9), %lld jobs, min %.0f %% of the ideal\n",
        static_cast<long long>(n), min_pct);
    for (std::size_t k = 0; k < settings.size(); ++k) {
        const rota_counters& c = f[k].counters;
        std::printf(
            "  %-20s %8.3f s CPU  %5.2fx easy  (runs within %.2fx; %.0f jobs waiting on average; "
            "%llu harvests of %llu attempts, %llu shrinks, %llu grows)\n",
            settings[k].name().c_str(), f[k].median, f[k].median / f[0].median, f[k].spread,
            f[k].waiting, static_cast<unsigned long long>(c.harvests),
            static_cast<unsigned long long>(c.harvest_attempts),
            static_cast<unsigned long long>(c.shrinks), static_cast<unsigned long long>(c.grows));
    }
    // Wall time inside the hooks (rota_hook_stats): what is left to the
    // engine once the Lua policies' share is known.
    for (std::size_t k = 1; k < settings.size(); ++k)
        for (const auto& [name, h] : f[k].hooks)
            if (h.calls > 0)
                std::printf(
                    "  %-20s %-12s hook: %8llu calls  %7.3f s  %6.2f us per call\n",
                    settings[k].name().c_str(), name.c_str(),
                    static_cast<unsigned long long>(h.calls),
                    static_cast<double>(h.nanoseconds) * 1e-9,
                    static_cast<double>(h.nanoseconds) * 1e-3 / static_cast<double>(h.calls));
    for (std::size_t k = 1; k < settings.size(); ++k)
        std::printf("  %s / easy CPU time: %.2fx (target at most 2x)\n", settings[k].name().c_str(),
                    f[k].median / f[0].median);
}

}  // namespace

// bench_gang is this program built with the gang suite as its default.
#ifndef ROTA_BENCH_NAME
#define ROTA_BENCH_NAME "bench_scaling"
#define ROTA_BENCH_SUITE "all"
#endif

int main(int argc, char** argv) {
    std::string suite = ROTA_BENCH_SUITE;
    int repeat = 3;
    std::vector<std::int64_t> sizes{10000, 50000, 200000}, gang_sizes{10000, 30000, 100000};
    long long k_jobs = 100000;
    double min_pct = 30;
    CLI::App app{
        "Cost per job as workloads grow: thread CPU time of each simulation, settings "
        "run alternately (docs/benchmarks.md)",
        ROTA_BENCH_NAME};
    app.add_option("--suite", suite, "which figures")
        ->check(CLI::IsMember(
            {"backfill", "traces", "gang", "kresource", "classes", "malleable", "all"}))
        ->capture_default_str();
    app.add_option("--repeat", repeat, "runs of each setting, alternated; the median is reported")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--sizes", sizes, "backfill suite: generated workload sizes, in jobs")
        ->delimiter(',')
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}))
        ->capture_default_str();
    app.add_option("--gang-sizes", gang_sizes, "gang suite: workload 8 scaled to these job counts")
        ->delimiter(',')
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}))
        ->capture_default_str();
    app.add_option("--k-jobs", k_jobs, "kresource, classes and malleable suites: jobs")
        ->check(CLI::Range(1LL, 100'000'000LL))
        ->capture_default_str();
    app.add_option("--min-pct", min_pct, "malleable suite: each job's min, % of its ideal")
        ->check(CLI::Range(1.0, 100.0))
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    std::printf("rota %s: thread CPU time of the simulation, median of %d alternated runs\n",
                rota_version(), repeat);
    const bool all = suite == "all";
    if (all || suite == "backfill") {
        GenerateOptions g;
        g.procs = 1024;
        g.load = 0.9;
        scaling("conservative and EASY, generated workloads (1024 procs, load 0.9)",
                {backfilling("conservative"), backfilling("easy")}, sizes, g, repeat);
    }
    if (all || suite == "traces")
        traces({"CTC-SP2-1996-3.1-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz"}, repeat);
    if (all || suite == "gang")
        scaling("BGS and MBGS, [Zhang00] workload 8 (factor 1.8) scaled",
                {gang("bgs"), gang("mbgs")}, gang_sizes, zhang_options(1.8, 1), repeat);
    if (all || suite == "kresource") kresource(k_jobs, repeat);
    if (all || suite == "classes") classes(k_jobs, repeat);
    if (all || suite == "malleable") malleable(k_jobs, min_pct, repeat);
    std::printf(
        "\nreproduce: build/bin/%s --suite %s --repeat %d --sizes %s "
        "--gang-sizes %s --k-jobs %lld --min-pct %g\n",
        ROTA_BENCH_NAME, suite.c_str(), repeat, joined(sizes).c_str(), joined(gang_sizes).c_str(),
        k_jobs, min_pct);
    return 0;
}
