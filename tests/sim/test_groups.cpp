// [Ngubiri07] §4.2: group-wise metrics, batch means and the stopping rule.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sim/batch_means.h"
#include "sim/generate.h"
#include "sim/groups.h"
#include "sim/metrics.h"
#include "sim/run_config.h"
#include "sim/stopping.h"

using namespace rota::sim;

namespace {

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_groups_" + std::to_string(::getpid()) + "_" + name)).string();
}

// The outcome of a job that has not run yet.
JobOutcome waiting_outcome(std::int64_t id, std::int64_t submit, std::int32_t procs,
                           std::int64_t requested) {
    JobOutcome o{};
    o.id = id;
    o.submit = submit;
    o.start = o.finish = o.run_time = -1;
    o.procs = procs;
    o.requested_time = requested;
    o.state = FinalState::unfinished;
    return o;
}

double exp_draw(std::mt19937_64& g, double mean) {
    return -mean * std::log1p(-static_cast<double>(g() >> 11) * 0x1.0p-53);
}

double normal_draw(std::mt19937_64& g) {
    const double u1 = 1 - static_cast<double>(g() >> 11) * 0x1.0p-53;
    const double u2 = static_cast<double>(g() >> 11) * 0x1.0p-53;
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

// Seven hand-made jobs (id = index + 1, arriving in that order, runtime 10):
//   size  components  C  S  W     response
//   1     1           1  1  1     10
//   3     3           1  2  2     20
//   6     6           1  3  4     30
//   12    3+3+3+3     4  4  2     rejected
//   38    19+19       2  4  4     50
//   17    5+5+7       3  4  4     unfinished
//   8     4+4         2  4  3     70
struct HandMade {
    std::vector<TraceJob> jobs;
    Components comps;
    std::vector<JobOutcome> out;
};

HandMade hand_made() {
    HandMade h;
    const std::vector<std::vector<std::int32_t>> widths = {{1},      {3},       {6},   {3, 3, 3, 3},
                                                           {19, 19}, {5, 5, 7}, {4, 4}};
    const std::int64_t resp[] = {10, 20, 30, -1, 50, -2, 70};
    for (std::size_t i = 0; i < widths.size(); ++i) {
        std::int32_t s = 0;
        for (auto w : widths[i]) s += w;
        const auto id = static_cast<std::int64_t>(i) + 1;
        const std::int64_t submit = 100 * id;
        h.jobs.push_back({id, submit, 10, 1000, s, -1});
        h.comps.push(widths[i]);
        JobOutcome o = waiting_outcome(id, submit, s, 1000);
        if (resp[i] == -1) o.state = FinalState::rejected;
        if (resp[i] > 0) {
            o.finish = submit + resp[i];
            o.start = o.finish - 10;
            o.run_time = 10;
            o.state = FinalState::finished;
        }
        h.out.push_back(o);
    }
    return h;
}

GroupBounds ngubiri_bounds() {
    GroupBounds b;
    b.size = {1, 3, 7};
    b.widest = {1, 3, 5};
    return b;
}

}  // namespace

TEST_CASE("Student t quantiles", "[batch]") {
    CHECK(student_t_quantile(0.975, 1) == Approx(12.706).margin(0.001));
    CHECK(student_t_quantile(0.975, 19) == Approx(2.093).margin(0.001));
    CHECK(student_t_quantile(0.995, 10) == Approx(3.169).margin(0.001));
    CHECK(student_t_quantile(0.95, 39) == Approx(1.685).margin(0.001));
    CHECK(student_t_quantile(0.975, 1e6) == Approx(1.960).margin(0.001));
    CHECK(student_t_quantile(0.025, 19) == Approx(-2.093).margin(0.001));
    CHECK_THROWS(student_t_quantile(1, 3));
}

TEST_CASE("balanced cuts and quartile bounds", "[groups]") {
    // Four equal masses: one value per group.
    CHECK(balanced_cuts({1, 1, 1, 1}, 4) == std::vector<std::size_t>{0, 1, 2});
    // 0.4 0.1 0.1 0.2 0.2: {0.4} {0.1 0.1} {0.2} {0.2} is the closest split.
    CHECK(balanced_cuts({0.4, 0.1, 0.1, 0.2, 0.2}, 4) == std::vector<std::size_t>{0, 2, 3});
    CHECK(balanced_cuts({1, 1}, 4) == std::vector<std::size_t>{0});  // fewer values than groups
    CHECK(balanced_cuts({1, 2, 3}, 1).empty());
    CHECK(quartile_bounds({2, 4, 8, 16, 32}, {0.4, 0.1, 0.1, 0.2, 0.2}) ==
          std::vector<std::int32_t>{2, 8, 16});
}

TEST_CASE("groups of a workload with fewer than three cuts name the empty ones", "[groups]") {
    // One job (or one distinct size): the quartiles give no cut at all.
    std::vector<JobShape> shapes(1);
    shapes[0].size = 4;
    shapes[0].widest = 4;
    const GroupLayout l = make_layout(shapes, derive_bounds(shapes));
    REQUIRE(l.bounds.size.size() < 3);
    CHECK(l.range(2) == "{4}");  // S1: every job
    CHECK(l.range(3) == "-");
    CHECK(l.range(5) == "-");
    CHECK(l.range(6) == "{4}");  // W1
    CHECK(l.range(9) == "-");
    using A = std::array<std::size_t, 4>;
    CHECK(l.of(shapes[0]) == A{0, 1, 2, 6});
}

TEST_CASE("group assignment of hand-made jobs (C, S and W groups)", "[groups]") {
    const HandMade h = hand_made();
    const auto shapes = job_shapes(h.jobs, h.comps);
    const GroupLayout l = make_layout(shapes, ngubiri_bounds());
    REQUIRE(l.max_components == 4);
    REQUIRE(l.series() == 13);  // all, C1-C4, S1-S4, W1-W4
    using A = std::array<std::size_t, 4>;
    // Series: all 0, C1..C4 1..4, S1..S4 5..8, W1..W4 9..12.
    CHECK(l.of(shapes[0]) == A{0, 1, 5, 9});
    CHECK(l.of(shapes[1]) == A{0, 1, 6, 10});
    CHECK(l.of(shapes[2]) == A{0, 1, 7, 12});
    CHECK(l.of(shapes[3]) == A{0, 4, 8, 10});  // 12 nodes, but the widest component is 3
    CHECK(l.of(shapes[4]) == A{0, 2, 8, 12});
    CHECK(l.of(shapes[5]) == A{0, 3, 8, 12});
    CHECK(l.of(shapes[6]) == A{0, 2, 8, 11});
    CHECK(l.name(2) == "C2");
    CHECK(l.name(8) == "S4");
    CHECK(l.range(5) == "{1}");
    CHECK(l.range(8) == "[8, 38]");
    CHECK(l.range(12) == "[6, 19]");
    CHECK(l.range(3) == "3");

    BatchMeansOptions bo;
    bo.batch = 1;
    bo.min_batches = 2;
    bo.max_batches = 4;
    const auto order = arrival_order(h.jobs);
    const GroupReport r = group_report(h.jobs, shapes, h.out, order, l, {}, bo);
    REQUIRE(r.stats.size() == 13);
    CHECK(r.measured_jobs == 7);
    CHECK(r.stats[0].jobs == 7);
    CHECK(r.stats[0].completed == 5);
    CHECK(r.stats[0].art == Approx(36));  // (10 + 20 + 30 + 50 + 70) / 5
    CHECK(r.stats[8].jobs == 4);
    CHECK(r.stats[8].job_share == Approx(4.0 / 7));
    CHECK(r.stats[8].load_share == Approx(75.0 / 85));  // sizes 12 + 38 + 17 + 8 of 85
    CHECK(r.stats[8].art == Approx(60));
    CHECK(r.stats[12].art == Approx(40));  // W4: 30 and 50; the 17-node job never ended
    CHECK(r.stats[2].art == Approx(60));   // C2
    CHECK(std::isnan(r.stats[4].art));     // C4: rejected
    CHECK(r.stats[4].jobs == 1);

    // Arrivals 2..4 only.
    const GroupReport m = group_report(h.jobs, shapes, h.out, order, l, {1, 3}, bo);
    CHECK(m.measured_first == 1);
    CHECK(m.stats[0].jobs == 3);
    CHECK(m.stats[0].art == Approx(25));
    CHECK(m.stats[5].jobs == 0);

    // Without components the widest component is the size.
    const auto plain = job_shapes(h.jobs, Components{});
    CHECK(plain[4].components == 1);
    CHECK(plain[4].widest == 38);

    const auto j = to_json(r);
    CHECK(j["groups"]["S4"]["art"] == Approx(60));
    CHECK(j["groups"]["C4"]["art"].is_null());
    CHECK(j["bounds"]["size"] == std::vector<int>{1, 3, 7});
    std::ostringstream os;
    print_groups(os, "fpfs", r);
    CHECK(os.str().find("S4") != std::string::npos);
    CHECK(os.str().find("[8, 38]") != std::string::npos);
}

TEST_CASE("batch means on an i.i.d. stream: the half-width and its coverage", "[batch]") {
    // Exponential values of mean 10 (sd 10). With batch means on independent
    // values the t interval is exact: it covers the mean 95 % of the time.
    BatchMeansOptions bo;
    bo.batch = 25;
    bo.min_batches = 20;
    bo.max_batches = 40;
    const std::size_t series0 = 0;
    int covered = 0;
    const int reps = 400;
    std::mt19937_64 g(11);
    for (int r = 0; r < reps; ++r) {
        BatchMeans bm(1, bo);
        std::vector<double> v;
        for (int i = 0; i < 2000; ++i) {
            v.push_back(exp_draw(g, 10));
            bm.add(&series0, 1, v.back());
        }
        const auto res = bm.result();
        REQUIRE(res.batches >= 20);
        REQUIRE(res.batches < 40);
        REQUIRE(res.observations == static_cast<std::int64_t>(res.batches) * res.batch_size);
        // The half-width by hand from the batch means.
        const auto k = static_cast<std::size_t>(res.batches);
        const auto b = static_cast<std::size_t>(res.batch_size);
        std::vector<double> means(k, 0);
        double grand = 0;
        for (std::size_t i = 0; i < k * b; ++i) means[i / b] += v[i] / static_cast<double>(b);
        for (double m : means) grand += m / static_cast<double>(k);
        double ss = 0;
        for (double m : means) ss += (m - grand) * (m - grand);
        const double half = student_t_quantile(0.975, static_cast<double>(k - 1)) *
                            std::sqrt(ss / static_cast<double>(k - 1) / static_cast<double>(k));
        REQUIRE(res.series[0].mean == Approx(grand));
        REQUIRE(res.series[0].half_width == Approx(half));
        covered += std::fabs(res.series[0].mean - 10) <= res.series[0].half_width;
    }
    // 95 % +- 3 standard errors of a proportion over 400 runs.
    CHECK(covered >= 0.95 * reps - 3 * std::sqrt(0.95 * 0.05 * reps));
    CHECK(covered <= 0.95 * reps + 3 * std::sqrt(0.95 * 0.05 * reps));
}

TEST_CASE("batch means: growing batches keep a correlated stream's interval honest", "[batch]") {
    // AR(1) with phi = 0.9 around 50: values 19 apart are still correlated
    // at e^-1. Single values would give an interval far too narrow; batches
    // of hundreds of values do not.
    BatchMeansOptions bo;
    bo.batch = 50;
    const std::size_t s0 = 0;
    int covered = 0;
    const int reps = 200;
    std::mt19937_64 g(12);
    for (int r = 0; r < reps; ++r) {
        BatchMeans bm(1, bo);
        double x = 0;
        for (int i = 0; i < 20000; ++i) {
            x = 0.9 * x + normal_draw(g);
            bm.add(&s0, 1, 50 + x);
        }
        const auto res = bm.result();
        covered += std::fabs(res.series[0].mean - 50) <= res.series[0].half_width;
        CHECK(std::fabs(res.lag1) < 0.6);
    }
    CHECK(covered >= 0.88 * reps);
}

TEST_CASE("batch means of a group: a ratio of sums over batches", "[batch]") {
    BatchMeansOptions bo;
    bo.batch = 2;
    bo.min_batches = 2;
    bo.max_batches = 4;
    BatchMeans bm(2, bo);
    const std::size_t both[2] = {0, 1}, all[1] = {0};
    // Batch 1: 10 (group), 20. Batch 2: 30 (group), 40 (group). Batch 3: 50, 60.
    bm.add(both, 2, 10);
    bm.add(all, 1, 20);
    CHECK(bm.batch_closed());
    bm.add(both, 2, 30);
    bm.add(both, 2, 40);
    bm.add(all, 1, 50);
    bm.skip();  // a rejected job: it fills its place, with no value
    CHECK(bm.batches() == 3);
    const auto r = bm.result();
    CHECK(r.series[0].count == 5);
    CHECK(r.series[0].mean == Approx(30));
    CHECK(r.series[1].count == 3);
    CHECK(r.series[1].mean == Approx(80.0 / 3));
    // Group: Y = 10, 70, 0; N = 1, 2, 0; r = 80/3; Nbar = 1.
    const double rr = 80.0 / 3;
    const double ss = (10 - rr) * (10 - rr) + (70 - 2 * rr) * (70 - 2 * rr);
    CHECK(r.series[1].half_width == Approx(student_t_quantile(0.975, 2) * std::sqrt(ss / 6)));
    bm.add(all, 1, 1);
    bm.add(all, 1, 1);  // the 4th batch: merged into 2 batches of 4
    CHECK(bm.batches() == 2);
    CHECK(bm.batch_size() == 4);
}

TEST_CASE("the stopping rule waits for every earlier arrival and stops on a batch",
          "[batch][stopping]") {
    const std::size_t n = 1000;
    std::vector<TraceJob> jobs;
    std::vector<JobOutcome> out;
    for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<std::int64_t>(i) + 1;
        jobs.push_back({id, id * 10, 5, 100, 1 + static_cast<std::int32_t>(i % 4), -1});
        out.push_back(waiting_outcome(id, id * 10, jobs.back().procs, 100));
    }
    const auto shapes = job_shapes(jobs, Components{});
    GroupBounds b;
    b.size = b.widest = {1, 2, 3};
    StopRule rule;
    rule.rel_error = 0.05;
    rule.warmup = 100;
    rule.batches.batch = 10;
    rule.batches.min_batches = 20;
    rule.batches.max_batches = 40;
    StopMonitor m(shapes, make_layout(shapes, b), arrival_order(jobs), rule);
    // Every job responds in 100 or 101 s: the rule holds as soon as there
    // are 20 batches of 10 measured jobs (arrivals 101..300), but arrival
    // 150 is still running.
    for (std::size_t i = 0; i < 400; ++i) {
        if (i == 149) continue;
        out[i].start = out[i].submit;
        out[i].finish = out[i].submit + 100 + static_cast<std::int64_t>(i % 2);
        out[i].state = FinalState::finished;
    }
    CHECK_FALSE(m.update(out));
    out[149].state = FinalState::rejected;  // resolved without a value
    CHECK(m.update(out));
    CHECK(m.measured_jobs() == 200);
    CHECK(m.max_rel_error() < 0.01);
    CHECK(m.last().series[0].count == 199);
}

TEST_CASE("jobs CSV with components and their clusters", "[metrics][groups]") {
    const HandMade h = hand_made();
    Components cl;
    cl.offset = h.comps.offset;
    cl.widths.assign(h.comps.widths.size(), -1);
    cl.widths[0] = 2;                 // job 1 on cluster 2
    cl.widths[cl.offset[4]] = 0;      // job 5: 19 on cluster 0,
    cl.widths[cl.offset[4] + 1] = 3;  // 19 on cluster 3
    std::ostringstream ss;
    write_jobs_csv(ss, h.out, &h.comps, &cl);
    std::istringstream in(ss.str());
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) lines.push_back(line);
    REQUIRE(lines.size() == 8);
    CHECK(lines[0] ==
          "job_id,submit_time,start_time,finish_time,procs,requested_time,run_time,wait_time,"
          "final_state,components,clusters");
    CHECK(lines[1] == "1,100,100,110,1,1000,10,0,finished,1,2");
    CHECK(lines[4] == "4,400,-1,-1,12,1000,-1,-1,rejected,3+3+3+3,-1");
    CHECK(lines[5] == "5,500,540,550,38,1000,10,40,finished,19+19,0+3");
    std::ostringstream plain;
    write_jobs_csv(plain, h.out, &h.comps);  // one machine: no clusters
    CHECK(plain.str().find("19+19,-1") != std::string::npos);
}

TEST_CASE("clusters in the configuration reach the engine's table", "[config][clusters]") {
    const std::string p = temp_path("clusters.toml");
    std::ofstream(p) << "[simulator]\nstop_rel_error = 0.05\nwarmup = 1000\nsize_groups = [1, 3, "
                        "7]\nstop_on = \"stream\"\n[[machine.clusters]]\nnodes = 20\nname = \"a\"\n"
                        "[[machine.clusters]]\nnodes = 16\n";
    RunConfig rc = load_run_config(p);
    REQUIRE(rc.clusters.size() == 2);
    CHECK(rc.clusters[0] == ClusterSpec{"a", 20});
    CHECK(rc.stop_rel_error == 0.05);
    CHECK(rc.warmup == 1000);
    CHECK(rc.size_groups == std::vector<std::int32_t>{1, 3, 7});
    CHECK(rc.stop_on == "stream");
    const std::string t = engine_toml(rc, "fpfs", 36);
    CHECK(t.find("procs = 36") != std::string::npos);
    CHECK(t.find("[[machine.clusters]]") != std::string::npos);
    CHECK(t.find("name = 'a'") != std::string::npos);
    CHECK_THROWS_WITH(engine_toml(rc, "fpfs", 40), Catch::Contains("36 nodes in all"));

    std::ofstream(p) << "[[machine.clusters]]\nnodes = 0\n";
    CHECK_THROWS_WITH(load_run_config(p), Catch::Contains("machine.clusters[0].nodes"));
    std::ofstream(p) << "[[machine.clusters]]\nnodes = 4\nsize = 2\n";
    CHECK_THROWS_WITH(load_run_config(p),
                      Catch::Contains("unknown key 'machine.clusters[0].size'"));
    std::ofstream(p) << "[simulator]\nsize_groups = [3, 1, 7]\n";
    CHECK_THROWS_WITH(load_run_config(p), Catch::Contains("three increasing"));
    std::ofstream(p) << "[simulator]\nstop_on = \"jobs\"\n";
    CHECK_THROWS_WITH(load_run_config(p),
                      Catch::Contains("key 'simulator.stop_on' (--stop-on) must be"));
    std::ofstream(p) << "[simulator.workload]\nmodel = \"ngubiri\"\npartition = \"phased\"\n"
                        "thres = 14\njobs = 500\n";
    rc = load_run_config(p);
    CHECK(rc.workload.model == WorkloadModel::ngubiri);
    CHECK(rc.workload.partition == Partition::phased);
    CHECK(rc.workload.thres == 14);
    CHECK(rc.workload.jobs == 500);
    CHECK(rc.workload.clusters == std::vector<std::int32_t>(5, 20));
    std::ofstream(p) << "[simulator.workload]\nthres = 14\n";
    CHECK_THROWS_WITH(load_run_config(p), Catch::Contains("applies only to model \"ngubiri\""));
    std::filesystem::remove(p);
}
