// [Leinberger99] §2.1 with K resources, worked out by hand: a reservation holds
// a pool, not only processors, so a backfill candidate that fits now in
// every resource is still refused when it would hold a pool the head needs
// at its reserved start. Times are seconds; every job is submitted at 0,
// in id order. A job whose runtime equals its estimate is killed by the
// engine at its walltime; the others are ended with rota_job_end.
#include <map>
#include <string>
#include <vector>

#include "support.h"

namespace {

constexpr rota_time kS = 1'000'000;

struct J {
    int64_t id;
    int32_t procs;
    std::vector<int64_t> pools;
    int64_t estimate_s, runtime_s;
};

using Starts = std::map<int64_t, int64_t>;

std::string config(const std::string& scheduler, const std::string& pools) {
    return "[machine]\nprocs = 10\n" + pools + "[scheduler]\n" + scheduler;
}

// Runs the jobs to the end and gives each job's start (seconds). `at_zero`
// sees the engine after the first pass.
template <class F>
Starts run(const std::string& cfg, const std::vector<J>& jobs, F&& at_zero) {
    auto e = rota::test::engine_from(cfg);
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    REQUIRE(rota_machine_info_get(e.get(), &mi) == ROTA_OK);
    Starts starts;
    std::multimap<rota_time, int64_t> ends;
    std::map<int64_t, const J*> by_id;
    for (const auto& j : jobs) {
        rota_job rj{};
        rj.size = sizeof(rj);
        rj.id = j.id;
        rj.procs = j.procs;
        rj.estimate = j.estimate_s * kS;
        rj.user = -1;
        rj.npools = mi.npools;
        rj.pools = mi.npools > 0 ? j.pools.data() : nullptr;
        REQUIRE(rota_submit(e.get(), &rj) == ROTA_OK);
        by_id[j.id] = &j;
    }
    auto drain = [&] {
        rota_action a{};
        a.size = sizeof(a);
        while (rota_next_action(e.get(), &a) == ROTA_OK) {
            REQUIRE(a.type != ROTA_ACTION_REJECT);
            if (a.type != ROTA_ACTION_START) continue;
            REQUIRE(a.time % kS == 0);
            starts[a.job] = a.time / kS;
            const J& j = *by_id.at(a.job);
            if (j.runtime_s < j.estimate_s) ends.emplace(a.time + j.runtime_s * kS, a.job);
        }
    };
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    drain();
    at_zero(e.get());
    for (int guard = 0; guard < 100; ++guard) {
        rota_time t = -1, w = 0;
        if (!ends.empty()) t = ends.begin()->first;
        if (rota_next_wakeup(e.get(), &w) == ROTA_OK && (t < 0 || w < t)) t = w;
        if (t < 0) return starts;
        REQUIRE(rota_advance(e.get(), t) == ROTA_OK);
        drain();  // walltime KILLs
        for (; !ends.empty() && ends.begin()->first == t; ends.erase(ends.begin()))
            REQUIRE(rota_job_end(e.get(), ends.begin()->second) == ROTA_OK);
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        drain();
    }
    FAIL("the schedule does not end");
    return starts;
}

Starts run(const std::string& cfg, const std::vector<J>& jobs) {
    return run(cfg, jobs, [](rota_engine*) {});
}

struct Step {
    int64_t at_s, free;
    bool operator==(const Step& o) const { return at_s == o.at_s && free == o.free; }
};

std::vector<Step> pool_profile(rota_engine* e, int32_t pool) {
    std::size_t n = 0;
    rota_pool_profile(e, pool, nullptr, nullptr, 0, &n);
    std::vector<rota_time> times(n);
    std::vector<int64_t> free(n);
    REQUIRE(rota_pool_profile(e, pool, times.data(), free.data(), n, &n) == ROTA_OK);
    std::vector<Step> steps;
    for (std::size_t i = 0; i < n; ++i) steps.push_back({times[i] / kS, free[i]});
    return steps;
}

std::vector<rota_reservation> reservations(rota_engine* e) {
    std::size_t n = 0;
    rota_reservations(e, nullptr, 0, &n);
    std::vector<rota_reservation> rs(n);
    if (n > 0) {
        rs[0].size = sizeof(rota_reservation);
        REQUIRE(rota_reservations(e, rs.data(), n, &n) == ROTA_OK);
    }
    return rs;
}

const std::string kEasy = "preset = \"easy\"\n";
const std::string kConservative = "preset = \"conservative\"\n";
const std::string kFcfs = "preset = \"fcfs\"\n";

}  // namespace

// 10 processors, 100 of memory.
//
//   job  procs  memory  estimate  runtime
//    1     2      90      100       100    (killed at its walltime)
//    2     2      95      100       100
//    3     1      10      500       500
//    4     1      10       50        30    (ended by rota_job_end)
//    5     4       0     1000      1000
//
// EASY, t = 0. Job 1 starts: 8 processors and 10 of memory left. Job 2
// needs 95 of memory: it is the head. Memory comes back at 100 (job 1's
// walltime), so its reservation is [100, 200); the memory the plan leaves
// is 10 on [0, 100), 5 on [100, 200), 100 after.
// Job 3 fits now (1 <= 8 processors, 10 <= 10 memory), and processors
// would let it run past 100 (8 - 2 for job 2 leaves 6). But its window
// [0, 500) would hold 10 of memory on [100, 200), where 5 is left: it
// would delay job 2, so it is refused (were memory ignored at the shadow
// time, first fit would start it, and job 4 would find no memory).
// Job 4's window [0, 50) ends before 100: backfilled at 0, taking the last
// 10 of memory. Job 5 uses no memory and 4 of the 7 processors left, 4 of
// the 6 left once job 2 runs: backfilled at 0.
// Memory the plan leaves after the pass: 0 on [0, 50) (jobs 1 and 4), 10
// on [50, 100), 5 on [100, 200) (job 2), 100 after.
// t = 30: job 4 ends; job 3 still collides with job 2 on [100, 200).
// t = 100: job 1 is killed; job 2 starts (5 of memory left); job 3 needs
// 10: it waits for job 2's end at 200 and starts then.
// Conservative gives the same starts: job 3 is reserved at 200 (the first
// time 10 of memory is free for 500 s), jobs 4 and 5 fit before it.
// FCFS lets nothing pass job 2, then job 3: jobs 3, 4 and 5 all start at
// 200 (1 + 1 + 4 processors, 10 + 10 of memory).
// Without the memory pool nothing waits: 2 + 2 + 1 + 1 + 4 = 10 processors.
TEST_CASE("kresource scenario: a reservation of memory refuses a backfill that processors allow",
          "[kresource]") {
    const std::vector<J> jobs{
        {1, 2, {90}, 100, 100}, {2, 2, {95}, 100, 100},  {3, 1, {10}, 500, 500},
        {4, 1, {10}, 50, 30},   {5, 4, {0}, 1000, 1000},
    };
    const std::string memory = "[[machine.pools]]\nname = \"memory\"\ncapacity = 100\n";
    const Starts want{{1, 0}, {2, 100}, {3, 200}, {4, 0}, {5, 0}};

    CHECK(
        run(config(kEasy, memory), jobs, [](rota_engine* e) {
            const auto rs = reservations(e);
            REQUIRE(rs.size() == 1);
            CHECK(rs[0].job == 2);
            CHECK(rs[0].start == 100 * kS);
            CHECK(rs[0].end == 200 * kS);
            CHECK(pool_profile(e, 0) == std::vector<Step>{{0, 0}, {50, 10}, {100, 5}, {200, 100}});
            rota_counters c{};
            c.size = sizeof(c);
            REQUIRE(rota_counters_get(e, &c) == ROTA_OK);
            CHECK(c.started == 3);
            CHECK(c.backfilled == 2);
        }) == want);

    CHECK(run(config(kConservative, memory), jobs, [](rota_engine* e) {
              const auto rs = reservations(e);
              REQUIRE(rs.size() == 2);
              CHECK(rs[0].job == 2);
              CHECK(rs[0].start == 100 * kS);
              CHECK(rs[1].job == 3);
              CHECK(rs[1].start == 200 * kS);
              CHECK(rs[1].end == 700 * kS);
              // Job 3's 10 over [200, 700) as well.
              CHECK(pool_profile(e, 0) ==
                    std::vector<Step>{{0, 0}, {50, 10}, {100, 5}, {200, 90}, {700, 100}});
          }) == want);

    CHECK(run(config(kFcfs, memory), jobs) ==
          Starts{{1, 0}, {2, 100}, {3, 200}, {4, 200}, {5, 200}});

    CHECK(run(config(kEasy, ""), jobs) == Starts{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}});
}

// The same with two pools, the head held by the second one, and a
// backfill whose window ends exactly at the head's reserved start.
// 10 processors, 100 of memory, 4 licences.
//
//   job  procs  memory  licences  estimate  runtime
//    1     1       0        3        100       100
//    2     1       0        4        100       100
//    3     1      50        1        200       200
//    4     1      50        1        100       100
//
// EASY, t = 0. Job 1 starts (1 licence left). Job 2 needs all 4: the
// head, reserved [100, 200) when job 1's licences come back. Job 3 fits
// now in every resource (1 licence, 50 of 100 memory) and memory and
// processors would let it run past 100, but it would hold a licence on
// [100, 200), where job 2 holds all 4: refused. Job 4's window [0, 100)
// ends at the reserved start (windows are half-open): backfilled at 0.
// t = 100: jobs 1 and 4 are killed at their walltime, job 2 starts with
// every licence; job 3 starts at 200, when job 2 is killed.
// FCFS: job 3 and job 4 wait for job 2 and start together at 200 (2
// licences, 100 of memory).
TEST_CASE("kresource scenario: a reservation in the second pool, a backfill ending at its start",
          "[kresource]") {
    const std::vector<J> jobs{
        {1, 1, {0, 3}, 100, 100},
        {2, 1, {0, 4}, 100, 100},
        {3, 1, {50, 1}, 200, 200},
        {4, 1, {50, 1}, 100, 100},
    };
    const std::string pools =
        "[[machine.pools]]\nname = \"memory\"\ncapacity = 100\n"
        "[[machine.pools]]\nname = \"licences\"\ncapacity = 4\n";
    const Starts want{{1, 0}, {2, 100}, {3, 200}, {4, 0}};
    // What the plan leaves after the pass at 0. Licences: jobs 1 and 4
    // hold all 4 until 100, job 2 all 4 from 100 to 200. Memory: job 4
    // holds 50 until 100. Conservative also reserves job 3 on [200, 400):
    // 1 licence and 50 of memory.
    CHECK(run(config(kEasy, pools), jobs, [](rota_engine* e) {
              const auto rs = reservations(e);
              REQUIRE(rs.size() == 1);
              CHECK(rs[0].job == 2);
              CHECK(rs[0].start == 100 * kS);
              CHECK(pool_profile(e, 0) == std::vector<Step>{{0, 50}, {100, 100}});
              CHECK(pool_profile(e, 1) == std::vector<Step>{{0, 0}, {200, 4}});
          }) == want);
    CHECK(run(config(kConservative, pools), jobs, [](rota_engine* e) {
              const auto rs = reservations(e);
              REQUIRE(rs.size() == 2);
              CHECK(rs[0].job == 2);
              CHECK(rs[0].start == 100 * kS);
              CHECK(rs[1].job == 3);
              CHECK(rs[1].start == 200 * kS);
              CHECK(pool_profile(e, 0) ==
                    std::vector<Step>{{0, 50}, {100, 100}, {200, 50}, {400, 100}});
              CHECK(pool_profile(e, 1) == std::vector<Step>{{0, 0}, {200, 3}, {400, 4}});
          }) == want);
    CHECK(run(config(kFcfs, pools), jobs) == Starts{{1, 0}, {2, 100}, {3, 200}, {4, 200}});
}
