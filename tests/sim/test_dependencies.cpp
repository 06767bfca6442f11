// SWF fields 17 and 18 as dependencies (docs/workloads.md, "Dependencies:
// fields 17 and 18"), the feitelson96 model that emits them, the
// simulator's scheduling cycle and the prime/non-prime admission policy of
// [Feitelson97] §3.1 in the simulator.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/generate.h"
#include "sim/groups.h"
#include "sim/simulation.h"
#include "sim/swf.h"
#include "support.h"

using namespace rota::sim;
using rota::test::job;

namespace {

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path();
    return (dir / ("rota_test_deps_" + std::to_string(::getpid()) + "_" + name)).string();
}

// An SWF file of the given records (fields 1-18), removed at the end of scope.
struct SwfFile {
    std::string path;
    explicit SwfFile(const std::string& name, const std::string& records,
                     const std::string& machines = "")
        : path(temp_path(name)) {
        std::ofstream(path) << "; MaxProcs: 8\n" << records;
        if (!machines.empty()) std::ofstream(path + ".machines") << machines;
    }
    ~SwfFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        std::filesystem::remove(path + ".machines", ec);
    }
};

// id submit runtime procs preceding think, the other fields missing.
std::string line(std::int64_t id, std::int64_t submit, std::int64_t run, std::int32_t procs,
                 std::int64_t preceding, std::int64_t think) {
    std::ostringstream s;
    s << id << ' ' << submit << " -1 " << run << ' ' << procs << " -1 -1 " << procs << ' ' << run
      << " -1 1 -1 -1 -1 -1 -1 " << preceding << ' ' << think << '\n';
    return s.str();
}

std::string load_error(const std::string& records, LoadOptions o = {}) {
    SwfFile f("bad.swf", records);
    try {
        load_trace(f.path, o);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

Dependencies deps(std::vector<std::int32_t> after, std::vector<std::int64_t> think) {
    return Dependencies{std::move(after), std::move(think)};
}

std::map<std::int64_t, JobOutcome> by_id(const SimResult& r) {
    std::map<std::int64_t, JobOutcome> m;
    for (const auto& o : r.jobs) m[o.id] = o;
    return m;
}

}  // namespace

TEST_CASE("fields 17 and 18 make a job follow an earlier one", "[deps][swf]") {
    SwfFile f("deps.swf", line(1, 0, 100, 2, -1, -1) + line(2, 10, 50, 2, 1, 30) +
                              line(3, 20, 40, 4, 2, -1) + line(4, 5, 60, 1, 0, 7));
    Trace t = load_trace(f.path, LoadOptions{});
    REQUIRE(t.jobs.size() == 4);
    CHECK(t.deps_followed);
    REQUIRE_FALSE(t.deps.empty());
    // Indices into the workload; think -1 (missing) is 0; preceding 0 names no job.
    CHECK(t.deps.after == std::vector<std::int32_t>{-1, 0, 1, -1});
    CHECK(t.deps.think == std::vector<std::int64_t>{0, 30, 0, 0});
    CHECK(t.deps.count() == 2);
    CHECK(t.stats.dependent == 2);
    CHECK(t.stats.dependencies_dropped == 0);

    LoadOptions ignore;
    ignore.dependencies = DependencyMode::ignore;
    Trace u = load_trace(f.path, ignore);
    CHECK(u.deps.empty());
    CHECK_FALSE(u.deps_followed);
}

TEST_CASE("a follower is submitted exactly when its predecessor ends plus the think time",
          "[deps][sim]") {
    // 4 processors. Job 1 holds the machine for 200 s, so job 2 waits and
    // runs 200..300; job 3 follows job 2 after 50 s of thinking: submitted
    // at 350 whatever its own submit time (5) says; job 4 follows job 3
    // with no think time: submitted at 350 + 40 = 390.
    std::vector<TraceJob> jobs{job(1, 0, 4, 200), job(2, 0, 2, 100), job(3, 5, 2, 40),
                               job(4, 5, 4, 10)};
    const Dependencies d = deps({-1, -1, 1, 2}, {0, 0, 50, 0});
    auto e = rota::test::preset_engine("fcfs", 4);
    SimOptions opt;
    opt.deps = &d;
    const SimResult r = simulate(e.get(), jobs, opt);
    auto o = by_id(r);
    CHECK(o[2].start == 200);
    CHECK(o[2].finish == 300);
    CHECK(o[3].submit == 350);
    CHECK(o[3].start == 350);
    CHECK(o[3].finish == 390);
    CHECK(o[4].submit == 390);
    CHECK(o[4].start == 390);
    CHECK(o[4].finish == 400);
    CHECK(r.arrived == 4);
    // The ready queue between the first arrival (0) and the last (390): job
    // 2 waits 0..200, nothing else waits: 200 / 390.
    CHECK(r.mean_queue == Approx(200.0 / 390.0));

    SECTION("a caller's arrival order, which lists the followers too, is not used") {
        const std::vector<std::uint32_t> order = arrival_order(jobs);
        opt.arrival_order = &order;
        auto e2 = rota::test::preset_engine("fcfs", 4);
        auto p = by_id(simulate(e2.get(), jobs, opt));
        CHECK(p[3].submit == 350);
        CHECK(p[4].submit == 390);
        CHECK(p[4].finish == 400);
    }
    SECTION("the same in pyss's event order") {
        auto e2 = rota::test::preset_engine("fcfs", 4);
        opt.order = EventOrder::pyss;
        auto p = by_id(simulate(e2.get(), jobs, opt));
        CHECK(p[3].submit == 350);
        CHECK(p[4].submit == 390);
        CHECK(p[4].finish == 400);
    }
    SECTION("under gang scheduling, the end the machine decides") {
        // Two rows of 100 s slices: job 1 runs in row 0, job 2 in row 1;
        // the rows alternate, so job 2 (100 s of work) ends at 200 and job
        // 3 arrives at 250.
        auto g = rota::test::gang_engine("gs", 4, 2, 100.0);
        auto q = by_id(simulate(g.get(), jobs, opt));
        CHECK(q[3].submit == q[2].finish + 50);
        CHECK(q[4].submit == q[3].finish);
    }
}

TEST_CASE("a job rejected ends too: its follower is submitted after the rejection", "[deps][sim]") {
    // Job 1 is wider than the machine: rejected when it arrives at 10; job
    // 2 follows it after 5 s, job 3 follows job 2.
    std::vector<TraceJob> jobs{job(1, 10, 16, 100), job(2, 0, 2, 20), job(3, 0, 2, 20)};
    const Dependencies d = deps({-1, 0, 1}, {0, 5, 0});
    auto e = rota::test::preset_engine("fcfs", 4);
    SimOptions opt;
    opt.deps = &d;
    auto o = by_id(simulate(e.get(), jobs, opt));
    CHECK(o[1].state == FinalState::rejected);
    CHECK(o[2].submit == 15);
    CHECK(o[2].finish == 35);
    CHECK(o[3].submit == 35);
    CHECK(o[3].finish == 55);
}

TEST_CASE("bad references in fields 17 and 18 are clear errors", "[deps][swf]") {
    const std::string j1 = line(1, 0, 100, 2, -1, -1);
    // A later job, an unknown one, itself: the message names the file, the
    // line, field 17 and the way out.
    std::string msg = load_error(line(1, 0, 100, 2, 2, 0) + line(2, 0, 10, 1, -1, -1));
    CHECK_THAT(msg, Catch::Contains("bad.swf:2: field 17 (preceding job): job 2 is not an "
                                    "earlier job of the trace"));
    CHECK_THAT(msg, Catch::Contains("--dependencies ignore"));
    msg = load_error(j1 + line(2, 0, 10, 1, 99, 0));
    CHECK_THAT(msg, Catch::Contains(":3: field 17 (preceding job): job 99 is not an earlier job"));
    msg = load_error(j1 + line(2, 0, 10, 1, 2, 0));
    CHECK_THAT(msg, Catch::Contains("field 17 (preceding job): job 2 cannot follow itself"));
    msg = load_error(j1 + line(2, 0, 10, 1, 1, -5));
    CHECK_THAT(msg, Catch::Contains(":3: field 18 (think time): negative: -5"));
    // With the dependencies ignored, the same trace loads.
    LoadOptions ignore;
    ignore.dependencies = DependencyMode::ignore;
    CHECK(load_error(j1 + line(2, 0, 10, 1, 99, 0), ignore) == "(no error)");

    SECTION("a preceding job the mapping skipped: the follower keeps its own submit time") {
        // Job 1 has no runtime (skipped): job 2's dependency is dropped, counted.
        SwfFile f("dropped.swf", line(1, 0, 0, 2, -1, -1) + line(2, 40, 10, 1, 1, 0));
        Trace t = load_trace(f.path, LoadOptions{});
        REQUIRE(t.jobs.size() == 1);
        CHECK(t.deps.empty());
        CHECK(t.stats.dependencies_dropped == 1);
        CHECK(t.jobs[0].submit == 40);
    }
    SECTION("auto: Alea's extended SWF (with a .machines file) is read without them") {
        SwfFile f("alea_like.swf", line(1, 0, 100, 2, 2, 1) + line(2, 0, 10, 1, 2, 1),
                  "0 cluster 1 8 1 1048576\n");
        Trace t = load_trace(f.path, LoadOptions{});
        CHECK_FALSE(t.deps_followed);
        CHECK(t.deps.empty());
        LoadOptions follow;
        follow.dependencies = DependencyMode::follow;
        CHECK_THROWS_WITH(load_trace(f.path, follow),
                          Catch::Contains("job 2 is not an earlier job of the trace"));
    }
    SECTION("the simulator checks the dependencies it is handed") {
        std::vector<TraceJob> jobs{job(1, 0, 2, 10), job(2, 0, 2, 10)};
        auto e = rota::test::preset_engine("fcfs", 4);
        SimOptions opt;
        const Dependencies forward = deps({1, -1}, {0, 0});
        opt.deps = &forward;
        CHECK_THROWS_WITH(simulate(e.get(), jobs, opt),
                          "job 1 follows job 2, which is not an earlier job of the workload");
        const Dependencies short_ = deps({-1}, {0});
        opt.deps = &short_;
        CHECK_THROWS_WITH(simulate(e.get(), jobs, opt),
                          "the dependencies do not cover every job of the workload");
    }
}

TEST_CASE("a follower of a job that never ends is never submitted", "[deps][sim]") {
    // Stopped at the first event time: job 1 runs, job 2 (its follower) is
    // left unfinished with no submit time of its own.
    std::vector<TraceJob> jobs{job(1, 0, 2, 100), job(2, 0, 2, 10)};
    const Dependencies d = deps({-1, 0}, {0, 0});
    auto e = rota::test::preset_engine("fcfs", 4);
    SimOptions opt;
    opt.deps = &d;
    opt.stop = [](const std::vector<JobOutcome>&) { return true; };
    const SimResult r = simulate(e.get(), jobs, opt);
    CHECK(r.stopped);
    CHECK(r.arrived == 1);
    CHECK(r.jobs[1].state == FinalState::unfinished);
}

TEST_CASE("the feitelson96 model emits repeated runs as dependencies", "[deps][generate]") {
    GenerateOptions o = feitelson96_options(3);
    o.jobs = 20000;
    const GeneratedWorkload w = generate_workload(o);
    REQUIRE(w.jobs.size() == 20000);
    REQUIRE(w.deps.after.size() == 20000);
    std::size_t followers = 0;
    double work = 0;
    std::int64_t first = -1, last = 0;
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
        const TraceJob& j = w.jobs[i];
        work += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
        CHECK(j.estimate == j.runtime);  // exact estimates by default
        const std::int32_t a = w.deps.after[i];
        if (a < 0) {
            if (first < 0) first = j.submit;
            last = j.submit;
            continue;
        }
        ++followers;
        // A re-run of the job before it, submitted as soon as it ends, its
        // own submit time the one an idle machine gives.
        REQUIRE(a == static_cast<std::int32_t>(i) - 1);
        CHECK(w.deps.think[i] == 0);
        const TraceJob& p = w.jobs[static_cast<std::size_t>(a)];
        CHECK(j.procs == p.procs);
        CHECK(j.runtime == p.runtime);
        CHECK(j.submit == p.submit + p.runtime);
    }
    // Runs per job r^-2.5 on 1..32 (mean 1.69): about 41 % are re-runs.
    CHECK(followers > 7400);
    CHECK(followers < 8800);
    // The offered load is every run's work over the span of the new jobs.
    CHECK(work / (128.0 * static_cast<double>(last - first)) == Approx(0.5).epsilon(0.02));
    // Runtime grows with the size (the stage weights): jobs above 32
    // processors run well over twice as long as serial ones on average.
    double s1 = 0, n1 = 0, sl = 0, nl = 0;
    for (const auto& j : w.jobs) {
        if (j.procs == 1) s1 += static_cast<double>(j.runtime), ++n1;
        if (j.procs > 32) sl += static_cast<double>(j.runtime), ++nl;
    }
    CHECK(sl / nl > 2.0 * (s1 / n1));

    SECTION("only the arrival rate changes with the load") {
        GenerateOptions h = o;
        h.load = 1.0;
        const GeneratedWorkload v = generate_workload(h);
        REQUIRE(v.jobs.size() == w.jobs.size());
        CHECK(v.deps.after == w.deps.after);
        for (std::size_t i = 0; i < w.jobs.size(); ++i) {
            CHECK(v.jobs[i].procs == w.jobs[i].procs);
            CHECK(v.jobs[i].runtime == w.jobs[i].runtime);
            if (w.deps.after[i] < 0) CHECK(std::abs(2 * v.jobs[i].submit - w.jobs[i].submit) <= 2);
        }
    }
    SECTION("written as SWF and read back, with fields 17 and 18") {
        const std::string path = temp_path("f96.swf");
        {
            std::ofstream out(path);
            write_swf(out, w.jobs, o, nullptr, {}, nullptr, &w.deps);
        }
        const Trace t = load_trace(path, LoadOptions{});
        std::filesystem::remove(path);
        CHECK(t.jobs == w.jobs);
        CHECK(t.deps.after == w.deps.after);
        CHECK(t.deps.think == w.deps.think);
    }
}

TEST_CASE("the scheduling cycle makes a pass at every multiple while jobs wait", "[sim][cycle]") {
    // An admission policy that holds every job before t = 1000 s: without
    // a cycle the job waits for the next event (the arrival at 5000); with
    // a 600 s cycle it starts at the first pass after 1000 s, 1200.
    const std::string policy = temp_path("hold_until_1000.lua");
    std::ofstream(policy) << "return { admission = function(jobs, ctx, params)\n"
                             "  local d = {}\n"
                             "  for i = 1, jobs.n do\n"
                             "    if ctx.now < 1000 * rota.second then d[i] = 'hold' end\n"
                             "  end\n"
                             "  return d\n"
                             "end }\n";
    const std::string extra = "[policy.admission]\nscript = \"" + policy + "\"\n";
    std::vector<TraceJob> jobs{job(1, 0, 2, 10), job(2, 5000, 2, 10)};
    SimOptions opt;
    auto a = rota::test::preset_engine("fcfs", 4, 10, extra);
    CHECK(rota::test::starts(simulate(a.get(), jobs, opt))[1] == 5000);
    opt.cycle = 600;
    auto b = rota::test::preset_engine("fcfs", 4, 10, extra);
    const SimResult r = simulate(b.get(), jobs, opt);
    CHECK(rota::test::starts(r)[1] == 1200);
    CHECK(rota::test::starts(r)[2] == 5000);
    std::filesystem::remove(policy);

    // A policy that holds a job for ever does not keep the run going: once
    // nothing but the cycle is left, 100,000 idle cycles end it.
    const std::string never = temp_path("hold_for_ever.lua");
    std::ofstream(never) << "return { admission = function(jobs, ctx, params)\n"
                            "  local d = {}\n"
                            "  for i = 1, jobs.n do d[i] = 'hold' end\n"
                            "  return d\n"
                            "end }\n";
    auto c = rota::test::preset_engine("fcfs", 4, 10,
                                       "[policy.admission]\nscript = \"" + never + "\"\n");
    opt.cycle = 60;
    const SimResult h = simulate(c.get(), {job(1, 0, 2, 10)}, opt);
    CHECK(h.jobs[0].state == FinalState::unfinished);
    CHECK(h.event_times == 100001);  // the arrival and the idle cycles
    std::filesystem::remove(never);
}

TEST_CASE("prime/non-prime time under FCFS, worked by hand", "[sim][prime]") {
    // 128 processors, exact estimates, the paper's parameters: prime time
    // 0-12 h and 24-36 h.
    //  A 100 x 600 s at 0: short, accepted, runs 0-600.
    //  B 64 x 1 h at 0: large and long: held until non-prime time, 43200.
    //  C 8 x 1 h at 10: small, but 28 processors free (< 32): held; at
    //    600 (A ends) 128 are free: accepted, runs 600-4200.
    //  D 8 x 300 s at 20: short, accepted, runs 20-320 (at 320 C is asked
    //    again: 28 free, still held).
    //  E 16 x 5 h at 700: small but over 4 h: held until 43200.
    //  F 128 x 2 h at 86410: prime time again, large: held until 129600.
    //  G 128 x 2 h at 50000: non-prime, accepted; waits for B and E
    //    (43200 + 3600 = 46800 and 43200 + 18000 = 61200): runs 61200-68400.
    const std::string extra = "[policy.admission]\nscript = \"admission/prime_time.lua\"\n";
    std::vector<TraceJob> jobs{job(1, 0, 100, 600),     job(2, 0, 64, 3600),
                               job(3, 10, 8, 3600),     job(4, 20, 8, 300),
                               job(5, 700, 16, 18000),  job(6, 86410, 128, 7200),
                               job(7, 50000, 128, 7200)};
    auto e = rota::test::preset_engine("fcfs", 128, 10, extra);
    SimOptions opt;
    // The script holds jobs until the end of prime time ({hold = time}), so
    // the engine wakes up at each shift change by itself; a pass every 12 h
    // (--cycle) changes nothing.
    opt.cycle = GENERATE(0, 43200);
    INFO("cycle " << opt.cycle);
    const auto s = rota::test::starts(simulate(e.get(), jobs, opt));
    CHECK(s.at(1) == 0);
    CHECK(s.at(2) == 43200);
    CHECK(s.at(3) == 600);
    CHECK(s.at(4) == 20);
    CHECK(s.at(5) == 43200);
    CHECK(s.at(6) == 129600);
    CHECK(s.at(7) == 61200);
}

TEST_CASE("the simulation follows the arrival order its caller gives", "[sim]") {
    // Submits out of trace order on 4 processors under FCFS: job 2 (t 0)
    // runs 0..100 on all four; job 3 (t 5) is first in the queue and runs
    // 100..150; job 1 (t 10) runs 150..170. The caller's order is the one
    // arrival_order() computes, so the schedule is the same with it.
    const std::vector<TraceJob> jobs{job(1, 10, 4, 20), job(2, 0, 4, 100), job(3, 5, 4, 50)};
    const std::vector<std::uint32_t> order = arrival_order(jobs);
    REQUIRE(order == std::vector<std::uint32_t>{1, 2, 0});
    for (const bool given : {false, true}) {
        auto e = rota::test::preset_engine("fcfs", 4);
        SimOptions opt;
        if (given) opt.arrival_order = &order;
        auto o = by_id(simulate(e.get(), jobs, opt));
        INFO("order given: " << given);
        CHECK(o[2].start == 0);
        CHECK(o[3].start == 100);
        CHECK(o[1].start == 150);
    }
}
