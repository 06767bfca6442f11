#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/generate.h"
#include "sim/swf.h"

using namespace rota::sim;

namespace {

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_gen_" + std::to_string(::getpid()) + "_" + name)).string();
}

}  // namespace

namespace {

// The same seed gives the same jobs; another seed, mostly different ones.
void check_deterministic(GenerateOptions o, std::size_t n) {
    auto a = generate(o);
    auto b = generate(o);
    REQUIRE(a.size() == n);
    CHECK(a == b);
    o.seed += 1;
    auto c = generate(o);
    REQUIRE(c.size() == n);
    CHECK(a != c);
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i].runtime == c[i].runtime;
    CHECK(same < a.size() / 10);
}

}  // namespace

TEST_CASE("generate is deterministic for a seed", "[generate]") {
    GenerateOptions o;
    o.jobs = 5000;
    check_deterministic(o, 5000);
}

TEST_CASE("generated jobs are well formed", "[generate]") {
    GenerateOptions o;
    o.jobs = 20000;
    o.procs = 100;  // not a power of two: sizes must still be capped
    o.users = 10;
    auto jobs = generate(o);
    REQUIRE(jobs.size() == 20000);
    CHECK(jobs.front().submit == 0);
    std::int64_t serial = 0, pow2 = 0, large = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const auto& j = jobs[i];
        CHECK(j.id == static_cast<std::int64_t>(i + 1));
        if (i > 0) REQUIRE(j.submit >= jobs[i - 1].submit);
        REQUIRE(j.procs >= 1);
        REQUIRE(j.procs <= 100);
        REQUIRE(j.runtime >= 1);
        REQUIRE(j.runtime <= o.runtime_max);
        REQUIRE(j.estimate >= j.runtime);
        REQUIRE(j.estimate <= std::max(j.runtime, o.estimate_max));
        REQUIRE(j.user >= 1);
        REQUIRE(j.user <= 10);
        serial += j.procs == 1;
        pow2 += (j.procs & (j.procs - 1)) == 0;
        large += j.procs > 32;
    }
    // p_serial = 0.25, plus size 1 drawn from the binade [1, 2) for 9% of the rest: about 32%.
    CHECK(serial > 0.27 * 20000);
    CHECK(serial < 0.35 * 20000);
    CHECK(pow2 > 0.7 * 20000);
    CHECK(large > 0.1 * 20000);
}

TEST_CASE("generated offered load matches the requested load", "[generate]") {
    for (double load : {0.5, 0.9, 1.2}) {
        GenerateOptions o;
        o.jobs = 100000;
        o.procs = 1024;
        o.load = load;
        o.seed = 42;
        auto jobs = generate(o);
        double work = 0;
        for (const auto& j : jobs)
            work += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
        double span = static_cast<double>(jobs.back().submit - jobs.front().submit);
        double offered = work / (1024.0 * span);
        CHECK(offered == Approx(load).epsilon(0.03));
        CHECK(offered_load(jobs, 1024) == Approx(offered));
    }
}

TEST_CASE("generated estimates follow the Phi model", "[generate]") {
    GenerateOptions o;
    o.jobs = 100000;
    o.phi = 0.2;
    auto jobs = generate(o);
    std::int64_t exact = 0, below = 0;
    double ratio_sum = 0;
    std::int64_t over = 0;
    for (const auto& j : jobs) {
        exact += j.estimate == j.runtime;
        below += j.estimate < j.runtime;
        if (j.estimate > j.runtime && j.estimate < o.estimate_max && j.runtime >= 100) {
            // runtime/estimate is uniform on (0, 1] for the 1-Φ part: mean 1/2.
            ratio_sum += static_cast<double>(j.runtime) / static_cast<double>(j.estimate);
            ++over;
        }
    }
    CHECK(below == 0);
    CHECK(static_cast<double>(exact) / 100000.0 == Approx(0.2).margin(0.01));
    CHECK(ratio_sum / static_cast<double>(over) == Approx(0.5).margin(0.03));

    o.phi = 1.0;
    for (const auto& j : generate(o)) REQUIRE(j.estimate == j.runtime);
    o.phi = 0.0;
    std::int64_t exact0 = 0;
    for (const auto& j : generate(o)) exact0 += j.estimate == j.runtime;
    CHECK(exact0 < 100000 / 100);
}

TEST_CASE("generate rejects bad options and handles tiny workloads", "[generate]") {
    GenerateOptions o;
    o.procs = 0;
    CHECK_THROWS_WITH(generate(o), "generate: procs must be >= 1, not 0");
    o = {};
    o.load = 0;
    CHECK_THROWS_WITH(generate(o), "generate: load must be > 0, not 0");
    o = {};
    o.phi = 1.5;
    CHECK_THROWS_WITH(generate(o), "generate: phi must be in [0, 1], not 1.5");
    o = {};
    o.model = WorkloadModel::feitelson_k;
    o.k = 0;
    CHECK_THROWS_WITH(generate(o), "generate: k must be in 1..64, not 0");
    // The setting is named apart from its rule, for the caller to say
    // which key or flag gave it.
    o = ngubiri_options();
    o.size_max = 0;
    try {
        (void)generate(o);
        FAIL("size_max 0 was accepted");
    } catch (const GenerateError& e) {
        CHECK(e.setting == "size_max");
        CHECK(e.rule == "must be >= size_min, not 0");
    }
    o = {};
    o.jobs = 0;
    CHECK(generate(o).empty());
    o.jobs = 1;
    auto one = generate(o);
    REQUIRE(one.size() == 1);
    CHECK(one[0].submit == 0);
    o = {};
    o.procs = 1;
    for (const auto& j : generate(o)) REQUIRE(j.procs == 1);
}

TEST_CASE("write_swf output reads back as the same jobs", "[generate][swf]") {
    GenerateOptions o;
    o.jobs = 3000;
    o.procs = 256;
    o.seed = 7;
    o.users = 20;
    auto jobs = generate(o);
    const std::string path = temp_path("gen.swf");
    {
        std::ofstream out(path, std::ios::binary);
        write_swf(out, jobs, o);
    }
    SwfReader r(path);
    CHECK(r.header().max_procs == 256);
    CHECK(r.header().max_nodes == 256);
    bool has_options = false;
    for (const auto& l : r.header().lines) has_options |= l.find(describe(o)) != std::string::npos;
    CHECK(has_options);
    SwfRecord rec;
    REQUIRE(r.next(rec));
    CHECK(rec.wait == -1);
    CHECK(rec.avg_cpu == -1);
    CHECK(rec.status == -1);
    CHECK(rec.alloc_procs == rec.req_procs);
    std::remove(path.c_str());

    {
        std::ofstream out(path, std::ios::binary);
        write_swf(out, jobs, o);
    }
    Trace t = load_trace(path, Mapping::standard);
    std::remove(path.c_str());
    CHECK(t.stats.kept == 3000);
    CHECK(t.stats.skipped_total() == 0);
    CHECK(t.stats.runtime_cut_to_estimate == 0);
    CHECK(t.jobs == jobs);

    // Without users the user field is -1 and reads back as -1.
    o.users = 0;
    auto anon = generate(o);
    std::ostringstream ss;
    write_swf(ss, anon, o);
    CHECK(ss.str().find("\n1 0 -1 ") != std::string::npos);
    CHECK(anon[0].user == -1);
}

// ---- The zhang model (paper 000 §2.1-2.2) ----

namespace {

struct Shape {
    double large_fraction = 0;  // jobs with procs > 32
    double large_work = 0;      // their share of sum(procs * runtime)
    double pow2 = 0;            // fraction of power-of-two sizes
    double exact = 0;           // fraction with estimate == runtime
};

Shape shape(const std::vector<TraceJob>& jobs) {
    Shape s;
    double work = 0, large_work = 0;
    for (const auto& j : jobs) {
        double a = static_cast<double>(j.procs) * static_cast<double>(j.runtime);
        work += a;
        if (j.procs > 32) {
            s.large_fraction += 1;
            large_work += a;
        }
        s.pow2 += (j.procs & (j.procs - 1)) == 0;
        s.exact += j.estimate == j.runtime;
    }
    auto n = static_cast<double>(jobs.size());
    s.large_fraction /= n;
    s.pow2 /= n;
    s.exact /= n;
    s.large_work = large_work / work;
    return s;
}

double cv(const std::vector<double>& v) {
    double mean = 0, var = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (double x : v) var += (x - mean) * (x - mean);
    return std::sqrt(var / static_cast<double>(v.size())) / mean;
}

}  // namespace

TEST_CASE("zhang_options gives the defaults of paper 000", "[generate][zhang]") {
    auto o = zhang_options(1.3, 5);
    CHECK(o.model == WorkloadModel::zhang);
    CHECK(o.factor == 1.3);
    CHECK(o.jobs == 10000);
    CHECK(o.procs == 320);
    CHECK(o.phi == 0.2);
    CHECK(o.seed == 5);
    CHECK(GenerateOptions{}.model == WorkloadModel::standard);
    CHECK(parse_model("zhang") == WorkloadModel::zhang);
    CHECK(parse_model("standard") == WorkloadModel::standard);
    CHECK(parse_model("lublin") == WorkloadModel::lublin);
    CHECK_THROWS_AS(parse_model("lublin99"), std::invalid_argument);
    CHECK(std::string(model_name(WorkloadModel::zhang)) == "zhang");
}

TEST_CASE("zhang workloads are deterministic for a seed", "[generate][zhang]") {
    check_deterministic(zhang_options(1.4), 10000);
}

TEST_CASE("zhang factors change only the runtimes", "[generate][zhang]") {
    const auto base = generate(zhang_options(1.0, 3));
    for (int k = 1; k <= 8; ++k) {
        const double f = 1.0 + 0.1 * k;
        INFO("factor " << f);
        const auto w = generate(zhang_options(f, 3));
        REQUIRE(w.size() == base.size());
        std::size_t bad_submit = 0, bad_procs = 0, bad_runtime = 0, bad_phi = 0, bad_est = 0;
        for (std::size_t i = 0; i < w.size(); ++i) {
            bad_submit += w[i].submit != base[i].submit;
            bad_procs += w[i].procs != base[i].procs;
            // runtime = round(F * base runtime): within half a second.
            double want = f * static_cast<double>(base[i].runtime);
            bad_runtime += std::abs(static_cast<double>(w[i].runtime) - want) > 0.5 + 1e-9;
            // The overestimation draws are shared: the same jobs have exact
            // estimates, and estimate/runtime stays the same up to rounding up.
            bad_phi += (w[i].estimate == w[i].runtime) != (base[i].estimate == base[i].runtime);
            double r0 =
                static_cast<double>(base[i].estimate) / static_cast<double>(base[i].runtime);
            double r = static_cast<double>(w[i].estimate) / static_cast<double>(w[i].runtime);
            bad_est += w[i].estimate < w[i].runtime ||
                       std::abs(r - r0) > 1.0 / static_cast<double>(base[i].runtime) + 1e-9;
        }
        CHECK(bad_submit == 0);
        CHECK(bad_procs == 0);
        CHECK(bad_runtime == 0);
        CHECK(bad_phi == 0);
        CHECK(bad_est == 0);
    }
}

TEST_CASE("zhang workloads have the shape of paper 000 §2.2", "[generate][zhang]") {
    for (std::uint64_t seed : {1, 2, 3}) {
        INFO("seed " << seed);
        auto jobs = generate(zhang_options(1.0, seed));
        REQUIRE(jobs.size() == 10000);
        CHECK(jobs.front().submit == 0);
        std::vector<double> runtimes, gaps;
        double small_rt = 0, large_rt = 0, n_small = 0, n_large = 0;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const auto& j = jobs[i];
            CHECK(j.id == static_cast<std::int64_t>(i + 1));
            REQUIRE(j.procs >= 1);
            REQUIRE(j.procs <= 256);
            REQUIRE(j.runtime >= 1);
            REQUIRE(j.estimate >= j.runtime);
            CHECK(j.user == -1);
            if (i > 0) {
                REQUIRE(j.submit >= jobs[i - 1].submit);
                gaps.push_back(static_cast<double>(j.submit - jobs[i - 1].submit));
            }
            runtimes.push_back(static_cast<double>(j.runtime));
            (j.procs > 32 ? large_rt : small_rt) += static_cast<double>(j.runtime);
            (j.procs > 32 ? n_large : n_small) += 1;
        }
        Shape s = shape(jobs);
        CHECK(s.large_fraction >= 0.25);
        CHECK(s.large_fraction <= 0.35);
        CHECK(s.large_work > 0.8);
        CHECK(s.pow2 > 0.7);
        CHECK(s.exact == Approx(0.2).margin(0.015));  // Φ
        CHECK(cv(runtimes) > 1.0);                    // long-tailed execution times
        CHECK(cv(gaps) > 1.0);                        // long-tailed interarrival times
        // Larger jobs run longer (class means 1.5x apart; exponential
        // branches leave the sample means of one seed noisy).
        CHECK(large_rt / n_large > 1.1 * small_rt / n_small);
        // Both ends of the size range occur.
        CHECK(std::count_if(jobs.begin(), jobs.end(), [](auto& j) { return j.procs == 1; }) > 0);
        CHECK(std::count_if(jobs.begin(), jobs.end(), [](auto& j) { return j.procs == 256; }) > 0);
    }
}

// §5.6 reports a median execution time of 680 s at workload 5; the
// execution times' branches are exponential (order 1), which puts about a
// tenth of the jobs under a minute at workload 0 (order 2: about 2 %).
TEST_CASE("zhang execution times: the median of §5.6 and the short jobs", "[generate][zhang]") {
    for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
        INFO("seed " << seed);
        std::vector<double> rt5, rt0;
        for (const auto& j : generate(zhang_options(1.5, seed))) rt5.push_back(j.runtime);
        for (const auto& j : generate(zhang_options(1.0, seed))) rt0.push_back(j.runtime);
        std::sort(rt5.begin(), rt5.end());
        CHECK(rt5[rt5.size() / 2] == Approx(680).epsilon(0.06));
        const double under60 = static_cast<double>(std::count_if(rt0.begin(), rt0.end(),
                                                                 [](double x) { return x < 60; })) /
                               static_cast<double>(rt0.size());
        CHECK(under60 > 0.08);
        CHECK(under60 < 0.12);
    }
}

// Every size class arrives as its own process (§2.1), so the classes are
// spread over the whole trace: each holds its share of every tenth of it.
TEST_CASE("zhang classes arrive as separate processes over the whole trace", "[generate][zhang]") {
    const auto jobs = generate(zhang_options(1.0, 2));
    const std::size_t tenth = jobs.size() / 10;
    for (std::size_t part = 0; part < 10; ++part) {
        std::size_t serial = 0;
        for (std::size_t i = part * tenth; i < (part + 1) * tenth; ++i)
            serial += jobs[i].procs == 1;
        INFO("part " << part);
        CHECK(static_cast<double>(serial) / static_cast<double>(tenth) == Approx(0.22).margin(0.1));
    }
}

TEST_CASE("zhang offered load goes from 0.55 to about 1.0 with the factor", "[generate][zhang]") {
    for (std::uint64_t seed : {1, 7}) {
        INFO("seed " << seed);
        double prev = 0;
        for (int k = 0; k <= 8; ++k) {
            const double f = 1.0 + 0.1 * k;
            double load = offered_load(generate(zhang_options(f, seed)), 320);
            INFO("factor " << f << ": offered load " << load);
            CHECK(load > prev);
            CHECK(load == Approx(0.55 * f).epsilon(0.01));
            prev = load;
        }
        double l0 = offered_load(generate(zhang_options(1.0, seed)), 320);
        double l8 = offered_load(generate(zhang_options(1.8, seed)), 320);
        CHECK(l0 >= 0.50);
        CHECK(l0 <= 0.60);
        CHECK(l8 >= 0.90);
        CHECK(l8 <= 1.10);
    }
    // Fewer jobs, other machine sizes: still the base load on that machine.
    auto o = zhang_options(1.0, 4);
    o.jobs = 2000;
    o.procs = 128;
    auto jobs = generate(o);
    CHECK(offered_load(jobs, 128) == Approx(0.55).epsilon(0.01));
    for (const auto& j : jobs) REQUIRE(j.procs <= 128);
}

TEST_CASE("zhang Phi and tiny workloads", "[generate][zhang]") {
    auto o = zhang_options(1.0);
    o.phi = 1.0;
    for (const auto& j : generate(o)) REQUIRE(j.estimate == j.runtime);
    o.phi = 0.5;
    CHECK(shape(generate(o)).exact == Approx(0.5).margin(0.02));
    o = zhang_options(1.5);
    o.jobs = 0;
    CHECK(generate(o).empty());
    o.jobs = 1;
    auto one = generate(o);
    REQUIRE(one.size() == 1);
    CHECK(one[0].submit == 0);
    o.jobs = 500;
    o.procs = 1;
    for (const auto& j : generate(o)) REQUIRE(j.procs == 1);
}

TEST_CASE("zhang options are checked", "[generate][zhang]") {
    auto o = zhang_options(0.0);
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
    o.factor = -1;
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
    o.factor = std::nan("");
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
    o = zhang_options(1.2);
    o.load = 0;  // ignored by the zhang model
    CHECK_NOTHROW(generate(o));
    GenerateOptions s;
    s.factor = 1.5;  // the standard model has no factor
    CHECK_THROWS_AS(generate(s), std::invalid_argument);
}

TEST_CASE("zhang SWF names the model and the factor", "[generate][zhang][swf]") {
    auto o = zhang_options(1.3, 9);
    o.jobs = 2000;
    CHECK(describe(o) == "model=zhang factor=1.3 jobs=2000 procs=320 phi=0.2 seed=9");
    auto jobs = generate(o);
    const std::string path = temp_path("zhang.swf");
    {
        std::ofstream out(path, std::ios::binary);
        write_swf(out, jobs, o);
    }
    Trace t = load_trace(path, Mapping::standard);
    std::remove(path.c_str());
    CHECK(t.header.max_procs == 320);
    bool has_options = false, has_model = false;
    for (const auto& l : t.header.lines) {
        has_options |= l.find("; GeneratorOptions: " + describe(o)) != std::string::npos;
        has_model |=
            l.find("model zhang") != std::string::npos && l.find("factor 1.3") != std::string::npos;
    }
    CHECK(has_options);
    CHECK(has_model);
    CHECK(t.stats.kept == 2000);
    CHECK(t.jobs == jobs);
}
