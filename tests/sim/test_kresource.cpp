// [Leinberger99]'s K resources in the simulator: pools in SWF, memory as a pool,
// the feitelson-k workload and its calibration, and the K-resource metrics.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "sim/calibrate.h"
#include "sim/generate.h"
#include "sim/metrics.h"
#include "sim/pools.h"
#include "sim/run_config.h"
#include "sim/swf.h"
#include "support.h"

using namespace rota::sim;
using rota::test::engine_from;

namespace {

std::string data(const std::string& name) {
    return std::string(ROTA_TEST_DATA) + "/swf/" + name;
}

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_k_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::vector<std::int64_t> column(const PoolDemands& p, std::size_t njobs, std::size_t k) {
    std::vector<std::int64_t> v;
    for (std::size_t j = 0; j < njobs; ++j) v.push_back(p.at(j, k));
    return v;
}

// An engine for `procs` processors and these pools, with a preset.
rota::test::EnginePtr pool_engine(const std::string& policy, std::int32_t procs,
                                  const std::vector<PoolSpec>& pools) {
    RunConfig rc;
    rc.pools = pools;
    return engine_from(engine_toml(rc, policy, procs));
}

double variance_of(const std::vector<double>& v) {
    const double m = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return s / static_cast<double>(v.size() - 1);
}

}  // namespace

// ---------------------------------------------------------------------------
// Pools

TEST_CASE("pool specs parse name=capacity with binary suffixes", "[pools]") {
    CHECK(parse_pool_spec("memory=33554432") == PoolSpec{"memory", 33554432});
    CHECK(parse_pool_spec("memory=32G") == PoolSpec{"memory", 33554432});
    CHECK(parse_pool_spec("licenses=4") == PoolSpec{"licenses", 4});
    CHECK(parse_amount("2T", "x") == (std::int64_t{2} << 30));
    CHECK(parse_amount("3m", "x") == 3072);
    CHECK_THROWS_WITH(parse_pool_spec("memory"), Catch::Contains("name=capacity"));
    CHECK_THROWS_WITH(parse_pool_spec("=4"), Catch::Contains("name=capacity"));
    CHECK_THROWS_WITH(parse_pool_spec("gpu=0"), Catch::Contains("must be positive"));
    CHECK_THROWS_WITH(parse_pool_spec("gpu=x"), Catch::Contains("not a positive integer"));
    CHECK_THROWS_WITH(parse_amount("9999999999999T", "cap"), Catch::Contains("out of range"));
}

TEST_CASE("merge_pools follows demands by name", "[pools]") {
    PoolDemands w;
    w.pools = {{"a", 10}, {"b", 20}};
    w.demand = {1, 2, 3, 4};  // job 0: a=1 b=2; job 1: a=3 b=4
    std::vector<std::string> unused;
    merge_pools(w, 2, {{"b", 99}, {"c", 5}}, &unused);
    CHECK(w.pools == std::vector<PoolSpec>{{"b", 99}, {"c", 5}, {"a", 10}});
    CHECK(w.demand == std::vector<std::int64_t>{2, 0, 1, 4, 0, 3});
    CHECK(unused == std::vector<std::string>{"c"});
    CHECK(over_capacity(w, 2) == std::vector<std::int64_t>{0, 0, 0});
    CHECK_THROWS_WITH(merge_pools(w, 2, {{"x", 1}, {"x", 2}}), Catch::Contains("twice"));

    PoolDemands none;  // a workload without pools gets the machine's, demand 0
    merge_pools(none, 3, {{"gpu", 4}});
    CHECK(none.demand == std::vector<std::int64_t>{0, 0, 0});
    CHECK(none.mean_share(0, 4, 8) == Approx(0.25));
}

TEST_CASE("SWF pools: the header declares them, fields 19.. carry the demands", "[pools][swf]") {
    Trace t = load_trace(data("pools.swf"), LoadOptions{});
    CHECK(t.header.pools == std::vector<PoolSpec>{{"r2", 100}, {"licenses", 4}});
    REQUIRE(t.jobs.size() == 2);
    CHECK(t.pools.pools == t.header.pools);
    CHECK(t.pools.demand == std::vector<std::int64_t>{50, 1, 0, 4});
    auto r = t.pools.shares(0, 4, 16);
    CHECK(r == std::vector<double>{0.25, 0.5, 0.25});
    CHECK(t.pools.mean_share(1, 2, 16) == Approx((0.125 + 0 + 1) / 3));

    auto bad = [](const std::string& body) {
        std::string p = temp_path("bad_pools.swf");
        std::ofstream(p) << "; Pools: r2=100 r3=10\n" << body;
        return p;
    };
    CHECK_THROWS_WITH(
        load_trace(bad("1 0 -1 10 4 -1 -1 4 20 -1 -1 -1 -1 -1 -1 -1 -1 -1 5\n"), LoadOptions{}),
        Catch::Contains(":2: field 20 (demand on pool 'r3'): missing"));
    CHECK_THROWS_WITH(
        load_trace(bad("1 0 -1 10 4 -1 -1 4 20 -1 -1 -1 -1 -1 -1 -1 -1 -1 5 -1\n"), LoadOptions{}),
        Catch::Contains("field 20 (demand on pool 'r3'): negative"));
    CHECK_THROWS_WITH(
        load_trace(bad("1 0 -1 10 4 -1 -1 4 20 -1 -1 -1 -1 -1 -1 -1 -1 -1 5x 1\n"), LoadOptions{}),
        Catch::Contains("field 19 (demand on pool 'r2'): not a number"));
    std::string p = temp_path("bad_header.swf");
    std::ofstream(p) << "; Pools: r2=100 r2=5\n";
    CHECK_THROWS_WITH(load_trace(p, LoadOptions{}), Catch::Contains("declared twice"));
    std::ofstream(p) << "; Pools: r2\n";
    CHECK_THROWS_WITH(load_trace(p, LoadOptions{}), Catch::Contains(":1: Pools: pool 'r2'"));
    std::filesystem::remove(p);
    std::filesystem::remove(temp_path("bad_pools.swf"));
}

TEST_CASE("engine_toml writes the pools and the config file's pools are read", "[pools][config]") {
    std::string p = temp_path("pools.toml");
    std::ofstream(p) << "[simulator]\nmemory = \"auto\"\nmemory_capacity = \"32G\"\n"
                        "queue_length = 64\n[[machine.pools]]\nname = \"gpu\"\ncapacity = 8\n";
    RunConfig rc = load_run_config(p);
    CHECK(rc.pools == std::vector<PoolSpec>{{"gpu", 8}});
    CHECK(rc.memory == "auto");
    CHECK(rc.memory_capacity == 33554432);
    CHECK(rc.queue_length == 64);
    CHECK(engine_toml(rc, "easy", 16).find("name = 'gpu'") != std::string::npos);
    auto e = engine_from(engine_toml(rc, "easy", 16));
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    REQUIRE(rota_machine_info_get(e.get(), &mi) == ROTA_OK);
    CHECK(mi.npools == 1);

    std::ofstream(p) << "[[machine.pools]]\nname = \"gpu\"\ncapacity = 0\n";
    CHECK_THROWS_WITH(load_run_config(p), Catch::Contains("machine.pools[0].capacity"));
    std::ofstream(p) << "[simulator]\nmemory_capacity = true\n";
    CHECK_THROWS_WITH(load_run_config(p), Catch::Contains("simulator.memory_capacity"));
    std::filesystem::remove(p);
}

// ---------------------------------------------------------------------------
// Memory as a pool (tests/data/swf/memory.swf: see its comments)

TEST_CASE("memory as a pool: requested, used, auto and none", "[pools][memory]") {
    LoadOptions o;
    o.memory_capacity = 100000;
    auto demands = [&](MemorySource src) {
        o.memory = src;
        Trace t = load_trace(data("memory.swf"), o);
        REQUIRE(t.jobs.size() == 5);  // job 4 never ran
        REQUIRE(t.pools.pools == std::vector<PoolSpec>{{"memory", 100000}});
        return std::make_pair(column(t.pools, t.jobs.size(), 0), t.stats);
    };
    {
        auto [d, st] = demands(MemorySource::requested);
        CHECK(d == std::vector<std::int64_t>{2000, 0, 0, 200, 32000});
        CHECK(st.memory_requested == 3);
        CHECK(st.memory_used == 0);
        CHECK(st.memory_missing == 2);
        CHECK(st.memory_missing_ids_sample == std::vector<std::int64_t>{2, 3});
    }
    {
        auto [d, st] = demands(MemorySource::used);
        CHECK(d == std::vector<std::int64_t>{600, 1200, 0, 200, 16000});
        CHECK(st.memory_used == 4);
        CHECK(st.memory_missing == 1);
    }
    {
        // Requested memory, else used memory (job 2); job 3 has neither:
        // it demands 0, is kept and counted.
        auto [d, st] = demands(MemorySource::automatic);
        CHECK(d == std::vector<std::int64_t>{2000, 1200, 0, 200, 32000});
        CHECK(st.memory_requested == 3);
        CHECK(st.memory_used == 1);
        CHECK(st.memory_missing == 1);
        CHECK(st.memory_missing_ids_sample == std::vector<std::int64_t>{3});
    }
    o.memory = MemorySource::none;
    Trace t = load_trace(data("memory.swf"), o);
    CHECK(t.pools.empty());
    CHECK(t.stats.memory_missing == 0);

    CHECK(parse_memory_source("auto") == MemorySource::automatic);
    CHECK(memory_source_name(MemorySource::requested) == std::string("requested"));
    CHECK_THROWS_WITH(parse_memory_source("peak"), Catch::Contains("expected none"));
    CHECK(parse_memory_units("bytes-per-job") == MemoryUnits::bytes_per_job);
}

TEST_CASE("memory as a pool needs a capacity", "[pools][memory]") {
    LoadOptions o;
    o.memory = MemorySource::automatic;
    CHECK_THROWS_WITH(load_trace(data("memory.swf"), o), Catch::Contains("--memory-capacity"));
}

TEST_CASE("positive use keeps jobs with CPU time and used memory ([Leinberger99] §4.1)",
          "[memory]") {
    LoadOptions o;
    o.positive_use = true;
    Trace t = load_trace(data("memory.swf"), o);
    std::vector<std::int64_t> ids;
    for (const auto& j : t.jobs) ids.push_back(j.id);
    CHECK(ids == std::vector<std::int64_t>{1, 2, 6});
    CHECK(t.stats.skipped.at("cpu_or_memory_unused") == 2);
    CHECK(t.stats.skipped.at("runtime_not_positive") == 1);
    CHECK(t.stats.kept == 3);
    CHECK(t.stats.records == 6);
}

TEST_CASE("Alea extended SWF: bytes per job, capacity and processors from .machines", "[memory]") {
    LoadOptions o;
    o.memory = MemorySource::requested;
    o.memory_units = MemoryUnits::bytes_per_job;
    Trace t = load_trace(data("alea.swf"), o);
    REQUIRE(t.machines);
    CHECK(t.machines->cpus == 2 * 80 + 4 * 12);
    CHECK(t.machines->nodes == 6);
    CHECK(t.machines->clusters == 2);
    CHECK(t.pools.pools == std::vector<PoolSpec>{{"memory", 2 * 1048576 + 4 * 524288}});
    // 64 GiB in bytes is 67108864 KB; 1025 bytes round up to 2 KB.
    CHECK(t.pools.demand == std::vector<std::int64_t>{67108864, 2});
    CHECK(over_capacity(t.pools, 2) == std::vector<std::int64_t>{1});
    o.memory_capacity = 100;  // a given capacity wins over the file's
    CHECK(load_trace(data("alea.swf"), o).pools.pools.front().capacity == 100);
}

TEST_CASE("a job demanding more than a pool holds is rejected with a reason and counted",
          "[pools][memory]") {
    LoadOptions o;
    o.memory = MemorySource::automatic;
    o.memory_capacity = 20000;  // job 6 asks for 32000
    Trace t = load_trace(data("memory.swf"), o);
    auto e = pool_engine("easy", 8, t.pools.pools);
    SimOptions opt;
    opt.pools = &t.pools;
    SimResult r = simulate(e.get(), t.jobs, opt);
    REQUIRE(r.rejections.size() == 1);
    CHECK(r.rejections[0].first == 6);
    CHECK_THAT(r.rejections[0].second, Catch::Contains("memory") && Catch::Contains("20000"));
    Summary s = summarize(r.jobs, 8, r.capacity_loss);
    CHECK(s.jobs == 5);
    CHECK(s.rejected == 1);
    CHECK(s.finished + s.killed + s.rejected + s.unfinished == 5);
    CHECK(s.unfinished == 0);
    CHECK(r.jobs.back().state == FinalState::rejected);

    // A workload whose pools differ from the engine's is an error, not a
    // silent run without them.
    auto plain = rota::test::preset_engine("easy", 8);
    CHECK_THROWS_WITH(simulate(plain.get(), t.jobs, opt),
                      Catch::Contains("0 pools and the workload demands 1"));
}

// ---------------------------------------------------------------------------
// Metrics

TEST_CASE("weighted response time over K resources: a hand-computed 3-job example",
          "[metrics][pools]") {
    // 10 processors and 100 units of memory, EASY. All arrive at 0.
    //   A: 10 procs,  0 mem, 100 s -> runs 0-100
    //   B:  5 procs, 100 mem, 50 s -> waits for A, runs 100-150
    //   C:  1 proc,  50 mem,  10 s -> no processor before 100, no memory
    //                                 while B runs: 150-160
    // Shares (procs/10 + mem/100) / 2: A 0.5, B 0.75, C 0.3.
    // Weights share x execution: 50, 37.5, 3 (sum 90.5).
    // Weighted response: (50*100 + 37.5*150 + 3*160) / 90.5 = 11105 / 90.5.
    std::vector<TraceJob> jobs = {rota::test::job(1, 0, 10, 100, 200),
                                  rota::test::job(2, 0, 5, 50, 100),
                                  rota::test::job(3, 0, 1, 10, 20)};
    PoolDemands pd;
    pd.pools = {{"memory", 100}};
    pd.demand = {0, 100, 50};
    auto e = pool_engine("easy", 10, pd.pools);
    SimOptions opt;
    opt.pools = &pd;
    SimResult r = simulate(e.get(), jobs, opt);
    CHECK(rota::test::starts(r) ==
          std::map<std::int64_t, std::int64_t>{{1, 0}, {2, 100}, {3, 150}});
    CHECK(r.jobs[1].share == Approx(0.75));
    Summary s = summarize(r.jobs, 10, r.capacity_loss);
    CHECK(s.all.response.mean == Approx(410.0 / 3));
    CHECK(s.all.weighted_response == Approx(11105.0 / 90.5));
    // Queue from the first arrival to the last: both at 0, so undefined.
    CHECK(std::isnan(r.mean_queue));

    // Without shares the processors weigh: (1000*100 + 250*150 + 10*160) / 1260.
    for (auto& o : r.jobs) o.share = -1;
    CHECK(summarize(r.jobs, 10, 0).all.weighted_response == Approx(139100.0 / 1260));

    // [Leinberger99] §4.2's normalised gain: (baseline - policy) / baseline.
    CHECK(normalised_gain(200, 150) == Approx(0.25));
    CHECK(normalised_gain(200, 250) == Approx(-0.25));
    CHECK(std::isnan(normalised_gain(0, 1)));
    std::ostringstream os;
    Summary worse = s;
    worse.all.response.mean *= 1.5;
    print_gains(os, {{"easy", s}, {"other", worse}}, "easy");
    CHECK_THAT(os.str(), Catch::Contains("gain over easy") && Catch::Contains("-0.5000"));
    std::ostringstream none;
    print_gains(none, {{"other", worse}}, "easy");
    CHECK(none.str().empty());
}

TEST_CASE("mean queue length is time-averaged over the arrival window", "[metrics]") {
    // 1 processor: job 1 runs 0-100; job 2 (t=10) and job 3 (t=20) wait.
    // Window [0, 20]: 0 waiting in [0,10), 1 in [10,20) -> mean 0.5.
    std::vector<TraceJob> jobs = {rota::test::job(1, 0, 1, 100, 200),
                                  rota::test::job(2, 10, 1, 10, 20),
                                  rota::test::job(3, 20, 1, 10, 20)};
    auto e = rota::test::preset_engine("easy", 1);
    SimResult r = simulate(e.get(), jobs, {});
    CHECK(r.mean_queue == Approx(0.5));
    Summary s = summarize(r.jobs, 1, 0);
    s.mean_queue = r.mean_queue;
    CHECK(to_json(s)["mean_queue_length"] == Approx(0.5));
}

// ---------------------------------------------------------------------------
// The feitelson-k workload

TEST_CASE("feitelson-k is deterministic for a seed", "[generate][feitelson-k]") {
    GenerateOptions o = feitelson_k_options(4, 0.1, 7);
    o.jobs = 3000;
    GeneratedWorkload a = generate_workload(o), b = generate_workload(o);
    REQUIRE(a.jobs.size() == 3000);
    CHECK(a.jobs == b.jobs);
    CHECK(a.pools.demand == b.pools.demand);
    CHECK(a.unit_arrivals == b.unit_arrivals);
    CHECK(generate(o) == a.jobs);
    o.seed = 8;
    GeneratedWorkload c = generate_workload(o);
    CHECK(c.jobs != a.jobs);
    CHECK(c.pools.demand != a.pools.demand);
}

TEST_CASE("feitelson-k jobs: processors from 1 to 128, requirements above 0 and at most 1",
          "[generate][feitelson-k]") {
    for (double v : {0.01, 0.1, 1.0}) {
        GenerateOptions o = feitelson_k_options(8, v, 3);
        o.jobs = 4000;
        GeneratedWorkload w = generate_workload(o);
        REQUIRE(w.pools.pools.size() == 7);
        CHECK(w.pools.pools.front() == PoolSpec{"r2", 1000000});
        CHECK(w.pools.pools.back() == PoolSpec{"r8", 1000000});
        REQUIRE(w.pools.demand.size() == 4000 * 7);
        for (std::size_t j = 0; j < w.jobs.size(); ++j) {
            const TraceJob& t = w.jobs[j];
            REQUIRE(t.procs >= 1);
            REQUIRE(t.procs <= 128);
            REQUIRE(t.runtime >= 1);
            REQUIRE(t.estimate == t.runtime);  // Φ = 1: exact estimates
            for (double r : w.pools.shares(j, t.procs, 128)) {
                REQUIRE(r > 0);
                REQUIRE(r <= 1);
            }
        }
        for (std::size_t j = 1; j < w.jobs.size(); ++j)
            REQUIRE(w.jobs[j].submit >= w.jobs[j - 1].submit);
        CHECK(w.jobs.front().submit == 0);
        CHECK(offered_load(w.jobs, 128) == Approx(0.9).epsilon(0.1));
    }
}

TEST_CASE("feitelson-k: the requirements spread out as the variance grows",
          "[generate][feitelson-k]") {
    // [Leinberger99] Figure 4: with V the R_i of a job spread around its size.
    // Both the variance of all pool shares and the variance between the
    // R_i of one job grow with V.
    std::vector<double> overall, within;
    for (double v : {0.01, 0.1, 1.0}) {
        GenerateOptions o = feitelson_k_options(4, v, 11);
        o.jobs = 5000;
        GeneratedWorkload w = generate_workload(o);
        std::vector<double> all;
        double within_sum = 0;
        for (std::size_t j = 0; j < w.jobs.size(); ++j) {
            auto r = w.pools.shares(j, w.jobs[j].procs, 128);
            std::vector<double> pools(r.begin() + 1, r.end());
            all.insert(all.end(), pools.begin(), pools.end());
            within_sum += variance_of(pools);
        }
        overall.push_back(variance_of(all));
        within.push_back(within_sum / static_cast<double>(w.jobs.size()));
    }
    CHECK(overall[0] < overall[1]);
    CHECK(overall[1] < overall[2]);
    CHECK(within[0] < within[1]);
    CHECK(within[1] < within[2]);
    CHECK(within[0] < 0.1 * within[2]);
}

TEST_CASE("feitelson-k sizes favour serial jobs, powers of two and squares",
          "[generate][feitelson-k]") {
    // V = 0 leaves the model's sizes as they are (R = size / 128).
    GenerateOptions o = feitelson_k_options(2, 0.0, 5);
    o.jobs = 20000;
    GeneratedWorkload w = generate_workload(o);
    std::size_t serial = 0, pow2 = 0, square = 0, odd = 0, large = 0;
    for (const auto& j : w.jobs) {
        serial += j.procs == 1;
        pow2 += j.procs > 1 && (j.procs & (j.procs - 1)) == 0;
        square += j.procs == 25 || j.procs == 36 || j.procs == 49;
        odd += j.procs == 23 || j.procs == 27 || j.procs == 47;
        large += j.procs > 32;
    }
    const double n = static_cast<double>(w.jobs.size());
    CHECK(serial / n == Approx(0.30).margin(0.04));
    CHECK(pow2 / n == Approx(0.49).margin(0.05));
    CHECK(square > 3 * odd);
    CHECK(large / n == Approx(0.12).margin(0.04));
    // Repeated runs: consecutive jobs with the same size, runtime and demands.
    std::size_t repeats = 0;
    for (std::size_t j = 1; j < w.jobs.size(); ++j)
        repeats += w.jobs[j].runtime == w.jobs[j - 1].runtime &&
                   w.jobs[j].procs == w.jobs[j - 1].procs &&
                   w.pools.at(j, 0) == w.pools.at(j - 1, 0);
    CHECK(repeats / n == Approx(0.41).margin(0.05));
}

TEST_CASE("feitelson-k options are checked", "[generate][feitelson-k]") {
    GenerateOptions o = feitelson_k_options();
    CHECK(o.procs == 128);
    CHECK(o.phi == 1.0);
    CHECK(describe(o).find("model=feitelson-k k=2 variance=0.1") == 0);
    CHECK(parse_model("feitelson-k") == WorkloadModel::feitelson_k);
    o.k = 0;
    CHECK_THROWS_WITH(generate(o), Catch::Contains("k must be"));
    o = feitelson_k_options();
    o.variance = -1;
    CHECK_THROWS_WITH(generate(o), Catch::Contains("variance"));
    o = feitelson_k_options();
    o.k = 1;  // processors only
    o.jobs = 10;
    CHECK(generate_workload(o).pools.empty());
}

TEST_CASE("feitelson-k SWF carries the pools and reads back", "[generate][feitelson-k][swf]") {
    GenerateOptions o = feitelson_k_options(3, 0.1, 2);
    o.jobs = 200;
    GeneratedWorkload w = generate_workload(o);
    const std::string p = temp_path("fk.swf");
    {
        std::ofstream out(p);
        write_swf(out, w.jobs, o, &w.pools, {"Arrivals: test"});
    }
    Trace t = load_trace(p, LoadOptions{});
    std::filesystem::remove(p);
    CHECK(t.header.max_procs == 128);
    CHECK(t.jobs == w.jobs);
    CHECK(t.pools.pools == w.pools.pools);
    CHECK(t.pools.demand == w.pools.demand);
    bool note = false;
    for (const auto& l : t.header.lines) note = note || l == "; Arrivals: test";
    CHECK(note);
}

TEST_CASE("calibration reaches the target mean queue length", "[calibrate][feitelson-k]") {
    GenerateOptions o = feitelson_k_options(2, 0.1, 3);
    o.jobs = 1500;
    GeneratedWorkload w = generate_workload(o);
    CalibrationOptions co;
    co.target = 16;
    co.tolerance = 0.05;
    int steps = 0;
    co.progress = [&](const CalibrationStep&) { ++steps; };
    CalibrationResult r = calibrate_arrivals(w.jobs, w.pools, 128, w.unit_arrivals, co);
    CHECK(r.converged);
    CHECK(r.mean_queue == Approx(16).margin(0.8));
    CHECK(r.runs == steps);
    CHECK(r.runs <= co.max_runs);
    CHECK(r.offered_load > 0.2);
    CHECK(r.offered_load < 2);
    // The jobs are left with the calibrated arrivals: simulating them again
    // gives the same queue.
    CalibrationStep again = queue_at_rate(w.jobs, w.pools, 128, w.unit_arrivals, r.rate);
    CHECK(again.mean_queue == Approx(r.mean_queue));
    // More load, longer queue.
    CalibrationStep more = queue_at_rate(w.jobs, w.pools, 128, w.unit_arrivals, 1.3 * r.rate);
    CHECK(more.mean_queue > r.mean_queue);

    co.target = 5000;  // more than the jobs
    CHECK_THROWS_WITH(calibrate_arrivals(w.jobs, w.pools, 128, w.unit_arrivals, co),
                      Catch::Contains("cannot keep"));
}

// ---------------------------------------------------------------------------
// The shared traces (docs/workloads.md, "Memory as a pool")

TEST_CASE("memory in LANL-CM5: requested, used and neither", "[memory][shared]") {
    const std::string path = rota::test::shared_path("traces/LANL-CM5-1994-4.1-cln.swf.gz");
    if (path.empty()) return;
    LoadOptions o;
    o.memory = MemorySource::automatic;
    o.memory_capacity = 1024 * 32768;  // 32 MB per node
    Trace t = load_trace(path, o);
    CHECK(t.jobs.size() == 122055);
    CHECK(t.stats.memory_requested == 110769);
    CHECK(t.stats.memory_used == 11283);
    CHECK(t.stats.memory_missing == 3);
    CHECK(over_capacity(t.pools, t.jobs.size()) == std::vector<std::int64_t>{0});
    o.positive_use = true;
    o.memory = MemorySource::used;
    Trace u = load_trace(path, o);
    CHECK(u.jobs.size() == 97120);
    CHECK(u.stats.memory_missing == 0);
}

TEST_CASE("memory in wagap-2013: bytes per job, the cluster from .machines", "[memory][shared]") {
    const std::string path = rota::test::shared_path("traces/wagap-2013.swf");
    if (path.empty()) return;
    LoadOptions o;
    o.memory = MemorySource::automatic;
    o.memory_units = MemoryUnits::bytes_per_job;
    Trace t = load_trace(path, o);
    REQUIRE(t.machines);
    CHECK(t.machines->cpus == 2176);
    CHECK(t.pools.pools == std::vector<PoolSpec>{{"memory", 15102255104}});
    CHECK(t.jobs.size() == 17898);
    CHECK(t.stats.memory_requested == 17898);
    CHECK(t.stats.memory_missing == 0);
    // One job asks for 512 GiB, more than a node but within the machine.
    CHECK(over_capacity(t.pools, t.jobs.size()) == std::vector<std::int64_t>{0});
}
