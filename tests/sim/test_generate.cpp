#include <unistd.h>

#include <catch2/catch.hpp>
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

TEST_CASE("generate is deterministic for a seed", "[generate]") {
    GenerateOptions o;
    o.jobs = 5000;
    auto a = generate(o);
    auto b = generate(o);
    REQUIRE(a.size() == 5000);
    CHECK(a == b);
    o.seed = 2;
    auto c = generate(o);
    REQUIRE(c.size() == 5000);
    CHECK(a != c);
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i].runtime == c[i].runtime;
    CHECK(same < a.size() / 10);
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
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
    o = {};
    o.load = 0;
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
    o = {};
    o.phi = 1.5;
    CHECK_THROWS_AS(generate(o), std::invalid_argument);
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
