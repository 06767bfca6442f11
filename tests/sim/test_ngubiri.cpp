// [Ngubiri07]'s workload (§2.2, §4.1): D(q) sizes, components, their SWF form.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/generate.h"
#include "sim/groups.h"
#include "sim/swf.h"

using namespace rota::sim;

namespace {

const std::string kData = std::string(ROTA_TEST_DATA) + "/swf/";

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_ngubiri_" + std::to_string(::getpid()) + "_" + name)).string();
}

bool pow2(int i) {
    return (i & (i - 1)) == 0;
}

// Eq. 1 written out again, independently of the generator: p_i = c q^i / Q.
std::map<int, double> eq1(double q, int n1, int n2) {
    std::map<int, double> p;
    double Q = 0;
    for (int i = n1; i <= n2; ++i) Q += p[i] = (pow2(i) ? 3 : 1) * std::pow(q, i);
    for (auto& [i, v] : p) v /= Q;
    return p;
}

// A sample proportion is within `z` standard errors of p.
bool near_proportion(double observed, double p, double n, double z = 4) {
    return std::fabs(observed - p) <= z * std::sqrt(p * (1 - p) / n);
}

GeneratedWorkload workload(std::int64_t jobs, std::uint64_t seed = 1,
                           Partition part = Partition::random, std::int32_t thres = 11) {
    GenerateOptions o = ngubiri_options(seed);
    o.jobs = jobs;
    o.partition = part;
    o.thres = thres;
    return generate_workload(o);
}

}  // namespace

TEST_CASE("D(0.85) on [1, 38] has mean 5.03 ([Ngubiri07] §4.1)", "[ngubiri]") {
    const auto exact = eq1(0.85, 1, 38);
    const auto pmf = ngubiri_size_pmf(0.85, 1, 38);
    REQUIRE(pmf.size() == 38);
    double mean = 0, second = 0;
    for (const auto& [i, p] : exact) {
        CHECK(pmf[static_cast<std::size_t>(i - 1)] == Approx(p).epsilon(1e-12));
        mean += i * p;
        second += i * i * p;
    }
    // 1 = 2^0 counts as a power of two: without it the mean would be 5.81.
    CHECK(mean == Approx(5.03).margin(0.005));
    CHECK(pmf[0] == Approx(3 * pmf[2] / (0.85 * 0.85)));  // p_1 = 3 q / Q, p_3 = q^3 / Q

    const std::int64_t n = 100000;
    const auto w = workload(n);
    REQUIRE(w.jobs.size() == static_cast<std::size_t>(n));
    double sum = 0;
    for (const auto& j : w.jobs) {
        REQUIRE(j.procs >= 1);
        REQUIRE(j.procs <= 38);
        sum += j.procs;
    }
    const double sd = std::sqrt(second - mean * mean);
    CHECK(std::fabs(sum / n - mean) <= 4 * sd / std::sqrt(static_cast<double>(n)));
}

TEST_CASE("size quartiles are [Ngubiri07]'s S groups, with Table 1's shares", "[ngubiri][groups]") {
    const auto exact = eq1(0.85, 1, 38);
    auto share = [&](int lo, int hi) {
        double s = 0;
        for (int i = lo; i <= hi; ++i) s += exact.at(i);
        return s;
    };
    // Table 1 (random, thres 11): 24.88, 25.64, 25.20, 24.28 % of the jobs, a
    // sample; eq. 1 gives 24.17, 26.37, 25.67, 23.79 %.
    const double table1[4] = {0.2488, 0.2564, 0.2520, 0.2428};
    const double ex[4] = {share(1, 1), share(2, 3), share(4, 7), share(8, 38)};
    for (int g = 0; g < 4; ++g) CHECK(std::fabs(ex[g] - table1[g]) < 0.0075);

    const std::int64_t n = 100000;
    const auto w = workload(n, 2);
    const auto shapes = job_shapes(w.jobs, w.components);
    const GroupBounds b = derive_bounds(shapes);
    CHECK(b.size == std::vector<std::int32_t>{1, 3, 7});  // §4.2: {1}, [2, 3], [4, 7], [8, 38]
    // Table 1's W shares need W2 = [2, 3] and W3 = [4, 5] (§4.2's prose says
    // otherwise; docs/workloads.md).
    CHECK(b.widest == std::vector<std::int32_t>{1, 3, 5});
    std::int64_t count[4] = {0, 0, 0, 0};
    for (const auto& s : shapes) ++count[s.size <= 1 ? 0 : s.size <= 3 ? 1 : s.size <= 7 ? 2 : 3];
    for (int g = 0; g < 4; ++g)
        CHECK(near_proportion(static_cast<double>(count[g]) / n, ex[g], static_cast<double>(n)));
}

TEST_CASE("thres = 11 splits about 10 % of the jobs, random counts equally likely", "[ngubiri]") {
    const auto exact = eq1(0.85, 1, 38);
    double large = 0;
    for (const auto& [i, p] : exact) large += i > 11 ? p : 0;
    CHECK(1 - large == Approx(0.896).margin(0.0005));  // §4.2: C1 is 89.6 %

    const std::int64_t n = 100000;
    const auto w = workload(n, 3);
    std::int64_t split = 0, by_count[5] = {0, 0, 0, 0, 0};
    for (std::size_t j = 0; j < w.jobs.size(); ++j) {
        const std::int32_t c = w.components.count(j);
        REQUIRE(c >= 1);
        REQUIRE(c <= 4);
        CHECK((c > 1) == (w.jobs[j].procs > 11));
        split += c > 1;
        ++by_count[c];
    }
    CHECK(near_proportion(static_cast<double>(split) / n, large, static_cast<double>(n)));
    for (int c = 2; c <= 4; ++c)
        CHECK(near_proportion(static_cast<double>(by_count[c]) / split, 1.0 / 3,
                              static_cast<double>(split)));
}

TEST_CASE("phased bounds give each component count a third of the large jobs", "[ngubiri]") {
    const auto pmf = ngubiri_size_pmf(0.85, 1, 38);
    const auto b = phased_bounds(pmf, 1, 11, 4);
    // Large sizes 12..38: 12-14 hold 33.4 %, 15-17 34.1 %, 18-38 32.6 %.
    REQUIRE(b == std::vector<std::int32_t>{14, 17});
    double large = 0, range[3] = {0, 0, 0};
    for (int s = 12; s <= 38; ++s) {
        const double p = pmf[static_cast<std::size_t>(s - 1)];
        large += p;
        range[s <= 14 ? 0 : s <= 17 ? 1 : 2] += p;
    }
    for (double r : range) CHECK(std::fabs(r / large - 1.0 / 3) < 0.01);
    // Moving any bound by one size makes the split worse.
    auto spread = [&](int b1, int b2) {
        double r[3] = {0, 0, 0};
        for (int s = 12; s <= 38; ++s) r[s <= b1 ? 0 : s <= b2 ? 1 : 2] += pmf[s - 1] / large;
        double d = 0;
        for (double x : r) d += (x - 1.0 / 3) * (x - 1.0 / 3);
        return d;
    };
    for (int d1 = -1; d1 <= 1; ++d1)
        for (int d2 = -1; d2 <= 1; ++d2)
            if (d1 != 0 || d2 != 0) CHECK(spread(14 + d1, 17 + d2) > spread(14, 17));

    const std::int64_t n = 100000;
    const auto w = workload(n, 4, Partition::phased);
    std::int64_t split = 0, by_count[5] = {0, 0, 0, 0, 0};
    for (std::size_t j = 0; j < w.jobs.size(); ++j) {
        const std::int32_t s = w.jobs[j].procs, c = w.components.count(j);
        const std::int32_t want = s <= 11 ? 1 : s <= 14 ? 2 : s <= 17 ? 3 : 4;
        REQUIRE(c == want);
        split += c > 1;
        ++by_count[c];
    }
    for (int c = 2; c <= 4; ++c)
        CHECK(near_proportion(static_cast<double>(by_count[c]) / split, range[c - 2] / large,
                              static_cast<double>(split)));
    // k = 2: every large job has 2 components, no bound is needed.
    CHECK(phased_bounds(pmf, 1, 11, 2).empty());
    CHECK(phased_bounds(pmf, 1, 38, 4).empty());  // no large job
}

TEST_CASE("component widths: floor(s/n) for the first n - 1, the rest for the last", "[ngubiri]") {
    CHECK(split_widths(17, 3) == std::vector<std::int32_t>{5, 5, 7});
    CHECK(split_widths(38, 4) == std::vector<std::int32_t>{9, 9, 9, 11});
    CHECK(split_widths(12, 4) == std::vector<std::int32_t>{3, 3, 3, 3});
    CHECK(split_widths(38, 2) == std::vector<std::int32_t>{19, 19});
    CHECK(split_widths(5, 1) == std::vector<std::int32_t>{5});
    CHECK_THROWS(split_widths(3, 4));
    const auto w = workload(20000, 5);
    for (std::size_t j = 0; j < w.jobs.size(); ++j) {
        const std::int32_t s = w.jobs[j].procs, n = w.components.count(j);
        const std::int32_t* c = w.components.of(j);
        std::int32_t sum = 0;
        for (std::int32_t k = 0; k < n; ++k) {
            if (k + 1 < n) REQUIRE(c[k] == s / n);
            sum += c[k];
        }
        REQUIRE(sum == s);
        REQUIRE(c[n - 1] == s - (n - 1) * (s / n));
        REQUIRE(w.components.widest(j) == c[n - 1]);
    }
}

TEST_CASE("ngubiri: exponential times in model units of time_unit seconds, load 0.786",
          "[ngubiri]") {
    const std::int64_t n = 100000;
    const auto w = workload(n, 6);
    double run = 0, work = 0;
    for (const auto& j : w.jobs) {
        run += static_cast<double>(j.runtime);
        work += static_cast<double>(j.runtime) * j.procs;
        REQUIRE(j.estimate == 1000000);  // a walltime of 100 mean runtimes
        REQUIRE(j.runtime < j.estimate);
    }
    // Mean 10 units of 1,000 s; an exponential's sd is its mean.
    CHECK(std::fabs(run / n - 10000) <= 4 * 10000 / std::sqrt(static_cast<double>(n)));
    const double gap = static_cast<double>(w.jobs.back().submit - w.jobs.front().submit) / (n - 1);
    CHECK(std::fabs(gap - 640) <= 4 * 640 / std::sqrt(static_cast<double>(n)));
    CHECK(w.jobs.front().submit == 0);
    // §4.1: load 0.786 = 5.03 x 10 / (0.64 x 100).
    CHECK(offered_load(w.jobs, 100) == Approx(0.786).margin(0.015));
}

TEST_CASE("ngubiri: a seed gives the same jobs for every partition and thres", "[ngubiri]") {
    const auto a = workload(5000, 7), b = workload(5000, 7);
    CHECK(a.jobs == b.jobs);
    CHECK(a.components.widths == b.components.widths);
    const auto p = workload(5000, 7, Partition::phased),
               t = workload(5000, 7, Partition::random, 16);
    CHECK(p.jobs == a.jobs);
    CHECK(t.jobs == a.jobs);
    CHECK(p.components.widths != a.components.widths);
    const auto c = workload(5000, 8);
    CHECK(c.jobs != a.jobs);
}

TEST_CASE("ngubiri options are checked", "[ngubiri]") {
    auto bad = [](auto change) {
        GenerateOptions o = ngubiri_options();
        o.jobs = 10;
        change(o);
        return o;
    };
    CHECK_THROWS_WITH(generate(bad([](auto& o) { o.q = 0; })), Catch::Contains("q must"));
    CHECK_THROWS_WITH(generate(bad([](auto& o) { o.size_max = 0; })),
                      Catch::Contains("size_max must be >= size_min"));
    CHECK_THROWS_WITH(generate(bad([](auto& o) { o.thres = 2; })),
                      Catch::Contains("thres must be at least max_components - 1"));
    CHECK_THROWS_WITH(generate(bad([](auto& o) { o.mean_interarrival = 0; })),
                      Catch::Contains("mean_interarrival"));
    CHECK_THROWS_WITH(generate(bad([](auto& o) {
                          o.clusters = {20, 0};
                      })),
                      Catch::Contains("at least one node"));
    GenerateOptions s;
    s.clusters = {4};
    CHECK_THROWS_WITH(generate(s), Catch::Contains("only to model ngubiri"));
    CHECK(parse_model("ngubiri") == WorkloadModel::ngubiri);
    CHECK(parse_partition("phased") == Partition::phased);
    CHECK_THROWS(parse_partition("even"));
}

TEST_CASE("ngubiri SWF declares clusters, time unit and components, and reads back",
          "[ngubiri][swf]") {
    GenerateOptions o = ngubiri_options(9);
    o.jobs = 3000;
    o.partition = Partition::phased;
    const auto w = generate_workload(o);
    const std::string p = temp_path("ng.swf");
    {
        std::ofstream out(p);
        write_swf(out, w.jobs, o, &w.pools, {}, &w.components);
    }
    const Trace t = load_trace(p, LoadOptions{});
    CHECK(t.header.max_procs == 100);
    CHECK(t.header.components);
    CHECK(t.header.clusters == std::vector<ClusterSpec>(5, ClusterSpec{"", 20}));
    CHECK(t.header.time_unit == 1000);
    CHECK(t.jobs == w.jobs);
    CHECK(t.components.offset == w.components.offset);
    CHECK(t.components.widths == w.components.widths);
    std::filesystem::remove(p);
}

TEST_CASE("SWF components: widths after the pool demands, -1 for one component", "[swf]") {
    const Trace t = load_trace(kData + "components.swf", LoadOptions{});
    CHECK(t.header.clusters.size() == 3);
    REQUIRE(t.jobs.size() == 4);
    CHECK(t.pools.demand == std::vector<std::int64_t>{1, 0, 2, 0});
    CHECK(t.components.count(0) == 1);
    CHECK(t.components.of(0)[0] == 4);  // -1: one component of all its processors
    CHECK(t.components.count(1) == 3);
    CHECK(t.components.widest(1) == 7);
    CHECK(t.components.count(2) == 2);  // field 5 missing: field 8 gives 12
    CHECK(t.jobs[2].procs == 12);
}

TEST_CASE("SWF components: a malformed field names file, line and field", "[swf]") {
    auto with = [](const std::string& name, const std::string& header, const std::string& body) {
        const std::string p = temp_path(name);
        std::ofstream(p) << header << body;
        return p;
    };
    const std::string h = "; MaxProcs: 40\n; Components: widths\n";
    const std::string rec = "1 0 -1 10 17 -1 -1 17 20 -1 -1 -1 -1 -1 -1 -1 -1 -1";
    CHECK_THROWS_WITH(load_trace(with("sum.swf", h, rec + " 5+5+6\n"), LoadOptions{}),
                      Catch::Contains("sum.swf:3: field 19 (components): the widths 5+5+6 add "
                                      "up to 16, the job has 17 processors (field 5)"));
    CHECK_THROWS_WITH(load_trace(with("zero.swf", h, rec + " 17+0\n"), LoadOptions{}),
                      Catch::Contains("zero.swf:3: field 19 (components): component 2 must be "
                                      "at least 1 node wide, not 0"));
    CHECK_THROWS_WITH(load_trace(with("junk.swf", h, rec + " 5+x+7\n"), LoadOptions{}),
                      Catch::Contains(":3: field 19 (components): component 2 is not a number"));
    CHECK_THROWS_WITH(load_trace(with("empty.swf", h, rec + " 5++12\n"), LoadOptions{}),
                      Catch::Contains("component 2 is empty"));
    CHECK_THROWS_WITH(load_trace(with("neg.swf", h, rec + " -17\n"), LoadOptions{}),
                      Catch::Contains("component 1 must be at least 1 node wide"));
    CHECK_THROWS_WITH(load_trace(with("missing.swf", h, rec + "\n"), LoadOptions{}),
                      Catch::Contains("field 19 (components): missing"));
    // After pools, the components are the next field.
    CHECK_THROWS_WITH(
        load_trace(with("pools.swf", "; Pools: gpu=4\n" + h, rec + " 1 9+9\n"), LoadOptions{}),
        Catch::Contains(":4: field 20 (components): the widths 9+9 add up to 18"));
    CHECK_THROWS_WITH(
        load_trace(with("word.swf", "; Components: yes\n", rec + "\n"), LoadOptions{}),
        Catch::Contains(":1: Components: expected 'widths'"));
    CHECK_THROWS_WITH(
        load_trace(with("cl.swf", "; Clusters: 20 0\n", rec + "\n"), LoadOptions{}),
        Catch::Contains(":1: Clusters: clusters: nodes must be between 1 and 1000000, not 0"));
    // Without the header line a 19th field is ignored, as before.
    const Trace t =
        load_trace(with("plain.swf", "; MaxProcs: 40\n", rec + " 5+x\n"), LoadOptions{});
    CHECK(t.components.empty());
    for (const char* n :
         {"sum", "zero", "junk", "empty", "neg", "missing", "pools", "word", "cl", "plain"})
        std::filesystem::remove(temp_path(std::string(n) + ".swf"));
}

TEST_CASE("clusters parse as 5x20, lists and their mixes", "[clusters]") {
    CHECK(parse_clusters("5x20") == std::vector<ClusterSpec>(5, ClusterSpec{"", 20}));
    const auto c = parse_clusters("2x20,16");
    REQUIRE(c.size() == 3);
    CHECK(c[2].nodes == 16);
    CHECK(total_nodes(c) == 56);
    CHECK(describe_clusters(c) == "20,20,16");
    CHECK(describe_clusters(parse_clusters("20 20 20")) == "3x20");
    CHECK(format_clusters(c) == "20 20 16");
    CHECK_THROWS_WITH(parse_clusters("5x"), Catch::Contains("nodes '' is not a number"));
    CHECK_THROWS_WITH(parse_clusters("20,abc"), Catch::Contains("'abc' is not a number"));
    CHECK_THROWS_WITH(parse_clusters(""), Catch::Contains("none given"));
    CHECK_THROWS_WITH(parse_clusters("8,,8"), Catch::Contains("an empty item in '8,,8'"));
    CHECK_THROWS_WITH(parse_clusters(",8"), Catch::Contains("an empty item"));
    CHECK_THROWS_WITH(parse_clusters("8, "), Catch::Contains("an empty item"));
    CHECK(parse_clusters("20, 16").size() == 2);
    // A machine's limits, said in the clusters' terms with the value given
    // (not later as the machine's size, nor as a 32-bit field's range).
    CHECK_THROWS_WITH(parse_clusters("2x2000000"),
                      "clusters: nodes must be between 1 and 1000000, not 2000000");
    CHECK_THROWS_WITH(parse_clusters("5x4294967296"),
                      "clusters: nodes must be between 1 and 1000000, not 4294967296");
    CHECK_THROWS_WITH(parse_clusters("5000x2"),
                      "clusters: a cluster count must be between 1 and 256, not 5000");
    CHECK_THROWS_WITH(parse_clusters("2x600000"),
                      "clusters: 1200000 nodes in all; a machine has at most 1000000");
    CHECK(parse_clusters("256x3906").size() == 256);
    CHECK_THROWS_WITH(parse_clusters("0x20"), Catch::Contains("must be between 1 and 256, not 0"));
    // The engine's 256 clusters, however they are listed (4096 were let
    // through, and the engine then named its configuration key).
    CHECK_THROWS_WITH(parse_clusters("257x2"),
                      "clusters: a cluster count must be between 1 and 256, not 257");
    CHECK_THROWS_WITH(parse_clusters("200x2,56x2,2"),
                      "clusters: more than 256 clusters; a machine has at most 256 (the engine's "
                      "limit)");
    std::string many;
    for (int i = 0; i < 300; ++i) many += i ? " 4" : "4";
    CHECK_THROWS_WITH(parse_clusters(many), Catch::Contains("more than 256 clusters"));
}
