// Small schedules worked out by hand from the papers' examples. Times are
// seconds; every job's runtime equals its estimate unless stated.
#include "support.h"

using namespace rota;
using rota::test::job;
using rota::test::run;
using Starts = std::map<std::int64_t, std::int64_t>;

// [Zhang00] §3, Figure 4: five jobs in arrival order; without backfilling
// job 5 waits behind jobs 3 and 4, with it job 5 fills the hole left by
// job 1 between T1 = 100 and T2 = 200 without delaying job 3.
TEST_CASE("scenario: [Zhang00] Figure 4, FCFS against FCFS with backfilling") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 4, 100), job(2, 0, 4, 200), job(3, 0, 8, 100),
        job(4, 0, 6, 100), job(5, 0, 4, 100),
    };
    CHECK(run("fcfs", 8, jobs) == Starts{{1, 0}, {2, 0}, {3, 200}, {4, 300}, {5, 400}});
    CHECK(run("easy", 8, jobs) == Starts{{1, 0}, {2, 0}, {3, 200}, {4, 300}, {5, 100}});
    CHECK(run("conservative", 8, jobs) == Starts{{1, 0}, {2, 0}, {3, 200}, {4, 300}, {5, 100}});
}

// EASY ([Leinberger99] §2.1): job 3 fits in the idle processors now but would
// still run at the head's shadow time, when the head needs them all: it is
// refused. Job 4 ends before the shadow time and is backfilled.
TEST_CASE("scenario: EASY refuses a backfill that would delay the head") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 100),   // running until 100
        job(2, 0, 10, 100),  // head: reserved at 100
        job(3, 0, 4, 200),   // would hold 4 processors past 100
        job(4, 0, 4, 50),    // ends at 50: backfilled
    };
    CHECK(run("easy", 10, jobs) == Starts{{1, 0}, {2, 100}, {3, 200}, {4, 0}});
}

// Conservative backfilling protects every waiting job, EASY only the
// head: job 4 uses only the head's spare processors, so EASY backfills it,
// but it would hold them when job 3 (the whole machine) is due at 200.
TEST_CASE("scenario: conservative refuses a backfill that would delay a later job") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 100),   // running until 100
        job(2, 0, 8, 100),   // head, reserved [100, 200); 2 spare processors
        job(3, 0, 10, 100),  // second in line, [200, 300) under conservative
        job(4, 0, 2, 300),   // fits now in the spare 2 until 300
    };
    CHECK(run("easy", 10, jobs) == Starts{{1, 0}, {2, 100}, {3, 300}, {4, 0}});
    CHECK(run("conservative", 10, jobs) == Starts{{1, 0}, {2, 100}, {3, 200}, {4, 300}});
}

// FPFS ([Ngubiri07] §3): small jobs may jump the blocked head, at most
// maxJumps times in all; FPFS(0) is FCFS.
TEST_CASE("scenario: FPFS with maxJumps 0, 1 and 3") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 9, 100),  // running until 100
        job(2, 0, 10, 50),  // head: needs the whole machine, runs 100..150
        job(3, 0, 1, 5),   job(4, 10, 1, 5), job(5, 20, 1, 5), job(6, 30, 1, 5), job(7, 40, 1, 5),
    };
    const Starts fcfs = run("fcfs", 10, jobs);
    CHECK(fcfs == Starts{{1, 0}, {2, 100}, {3, 150}, {4, 150}, {5, 150}, {6, 150}, {7, 150}});
    CHECK(run("fpfs", 10, jobs, 0) == fcfs);
    CHECK(run("fpfs", 10, jobs, 1) ==
          Starts{{1, 0}, {2, 100}, {3, 0}, {4, 150}, {5, 150}, {6, 150}, {7, 150}});
    CHECK(run("fpfs", 10, jobs, 3) ==
          Starts{{1, 0}, {2, 100}, {3, 0}, {4, 10}, {5, 20}, {6, 150}, {7, 150}});
}

// [Ngubiri07] §3: FPFS "searches deeper into the queue for the first job that
// fits". 10 processors, all jobs at 0, FPFS(2). Job 1 starts; job 2 (the
// whole machine) is the head; 6 processors are free. Job 3 jumps it (2
// left); job 4 no longer fits, so the search goes on to job 5 (2
// processors), the second jump. Job 4 then waits: the head may not be
// jumped again. At 500 job 5 ends and the head starts; job 4 follows at 600.
TEST_CASE("scenario: FPFS searches past a pick that no longer fits ([Ngubiri07] §3)") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 4, 100), job(2, 0, 10, 100), job(3, 0, 4, 50),
        job(4, 0, 4, 500), job(5, 0, 2, 500),
    };
    CHECK(run("fpfs", 10, jobs, 2) == Starts{{1, 0}, {2, 500}, {3, 0}, {4, 600}, {5, 0}});
    // With more jumps allowed, job 4 backfills at 50, when job 3 has ended.
    CHECK(run("fpfs", 10, jobs, 3) == Starts{{1, 0}, {2, 550}, {3, 0}, {4, 50}, {5, 0}});
}

// FPFS picks that compete for the same room ([Ngubiri07] §3): 10 processors,
// job 1 (6) runs until 100 and job 2 (10) is the head. Jobs 3 (4), 4 (4)
// and 5 (3) all fit the 4 free processors alone; job 3 takes them, and
// jobs 4 and 5 no longer fit. At 50 job 3 ends: with jumps left, job 4
// jumps the head again (the search takes the first that fits, job 4, not
// job 5). Job 5 waits for the head, which starts at 100 and ends at 200.
// With one jump job 4 must wait too, and both follow the head at 200.
TEST_CASE("scenario: FPFS picks compete for the same processors") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 100), job(2, 0, 10, 100), job(3, 0, 4, 50), job(4, 0, 4, 50), job(5, 0, 3, 50),
    };
    CHECK(run("fpfs", 10, jobs, 2) == Starts{{1, 0}, {2, 100}, {3, 0}, {4, 50}, {5, 200}});
    CHECK(run("fpfs", 10, jobs, 3) == Starts{{1, 0}, {2, 100}, {3, 0}, {4, 50}, {5, 200}});
    CHECK(run("fpfs", 10, jobs, 1) == Starts{{1, 0}, {2, 100}, {3, 0}, {4, 200}, {5, 200}});
}

// Picks that compete for the same room: first fit starts them in queue
// order while they fit, skipping those that no longer do, and the head's
// reservation holds. 10 processors; job 2 (8) is the head, reserved at 100.
// At 0 all four others are candidates (each fits alone). Job 3 takes 3 of
// the 4 free; job 4 (2) no longer fits; job 5 (1 for 300 s) fits the last
// one and the head's 2 spare from 100; job 6 finds nothing left. At 50 job
// 3 ends: 3 free until 100, enough for job 4 and then job 6.
TEST_CASE("scenario: backfill picks compete for the same processors") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 100), job(2, 0, 8, 100), job(3, 0, 3, 50),
        job(4, 0, 2, 50),  job(5, 0, 1, 300), job(6, 0, 1, 40),
    };
    const Starts want{{1, 0}, {2, 100}, {3, 0}, {4, 50}, {5, 0}, {6, 50}};
    CHECK(run("easy", 10, jobs) == want);
    CHECK(run("conservative", 10, jobs) == want);
}

// A streaming chunk holds what could start (engine/walk.cpp,
// collect_candidates). 100 processors: job 1 (50) runs until 1000 and job 2
// (98) is the head, reserved at 1000, which leaves 2 processors to any job
// running past it. Jobs 3 to 32 (1 processor for 5000 s) each fit alone, 30
// candidates for 50 free processors; counted against those 50, they made one
// chunk, though only two of them could start. The chunk now ends at eight
// (the script refuses more), jobs 3 and 4 start, and the rest follow the
// head at 1100: the schedule of first fit handed everything at once.
TEST_CASE("scenario: a streaming chunk stops at what can run past the head's reservation") {
    std::vector<sim::TraceJob> jobs{job(1, 0, 50, 1000), job(2, 0, 98, 100)};
    for (std::int64_t id = 3; id <= 32; ++id) jobs.push_back(job(id, 0, 1, 5000));
    Starts want{{1, 0}, {2, 1000}, {3, 0}, {4, 0}};
    for (std::int64_t id = 5; id <= 32; ++id) want[id] = 1100;
    CHECK(run("easy", 100, jobs) == want);

    auto e = rota::test::preset_engine("easy", 100, 10,
                                       "[policy.backfill_select]\nscript = \"" +
                                           std::string(ROTA_TEST_DATA) +
                                           "/lua/first_fit_small_chunks.lua\"\n");
    CHECK(rota::test::starts(sim::simulate(e.get(), jobs, {})) == want);
    const rota_hook_stats st = rota::test::hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
    CHECK(st.failures == 0);
    CHECK(st.calls >= 1);
}

// Compression (docs/design.md, "Compression"): job 1 ends at 50 instead of
// 100. Job 3, first in line, needs the whole machine and cannot move
// before job 2 ends at 300; job 4, reserved at [100, 300), moves up to 50
// and starts: rota_counters.reservations_moved counts that one move. EASY
// gives job 4 no reservation and backfills it at 50: the same schedule,
// with no move.
TEST_CASE("scenario: compression moves a later reservation up, and the move is counted") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 50, 100),  // ends early, at 50
        job(2, 0, 4, 300),      // holds 4 processors until 300
        job(3, 0, 10, 100),     // reserved at [300, 400)
        job(4, 0, 6, 200),      // reserved at [100, 300) under conservative
    };
    const Starts want{{1, 0}, {2, 0}, {3, 300}, {4, 50}};
    for (const char* policy : {"conservative", "easy"}) {
        INFO(policy);
        auto e = rota::test::preset_engine(policy, 10);
        const sim::SimResult r = sim::simulate(e.get(), jobs, {});
        CHECK(rota::test::starts(r) == want);
        CHECK(r.counters.reservations_moved == (std::string(policy) == "easy" ? 0u : 1u));
    }
}

// Both ways a reservation moves within its row: job 3 into the run of free
// processors that ends at its old start, its new window overlapping the
// old one; then job 4 into the window job 3 left, which ends before job 4's
// old start.
TEST_CASE("scenario: compression moves reservations into overlapping and disjoint windows") {
    std::vector<sim::TraceJob> jobs{
        job(1, 0, 6, 20, 100),  // ends early, at 20
        job(2, 0, 4, 400),      // holds 4 processors until 400
        job(3, 0, 6, 100),      // reserved at [100, 200), moves to [20, 120)
        job(4, 0, 6, 30),       // reserved at [200, 230), moves to [120, 150)
        job(5, 0, 10, 50),      // reserved at [400, 450), stays
    };
    const Starts want{{1, 0}, {2, 0}, {3, 20}, {4, 120}, {5, 400}};
    // EASY reserves for its head only: job 3's reservation moves, and job 4
    // has none until job 3 starts.
    for (const auto& [policy, moved] : {std::pair{"conservative", 2u}, std::pair{"easy", 1u}}) {
        INFO(policy);
        auto e = rota::test::preset_engine(policy, 10);
        const sim::SimResult r = sim::simulate(e.get(), jobs, {});
        CHECK(rota::test::starts(r) == want);
        CHECK(r.counters.reservations_moved == moved);
    }
}

// [Leinberger99] §2.2, Figure 1: 16 CPUs and 32 GB of memory, six jobs of equal
// runtime t. FCFS needs four epochs, FCFS/FF (first-fit backfilling)
// three: jobs 4 and 5 join jobs 0 and 1 in the first.
TEST_CASE("scenario: [Leinberger99] Figure 1, FCFS and FCFS/FF with CPU and memory") {
    const std::int64_t cpu_mem[6][2] = {{8, 4}, {4, 2}, {7, 16}, {11, 20}, {1, 12}, {1, 10}};
    auto epochs = [&](const char* backfill) {
        std::string cfg = std::string(
                              "[machine]\nprocs = 16\n[[machine.pools]]\nname = \"memory\"\n"
                              "capacity = 32\n[scheduler]\nbackfill = ") +
                          backfill + "\nreservation_depth = 1\n";
        auto e = rota::test::engine_from(cfg);
        const rota_time t = 100 * 1'000'000;
        for (int i = 0; i < 6; ++i) {
            rota_job j{};
            j.size = sizeof(rota_job);
            j.id = i;
            j.procs = static_cast<int32_t>(cpu_mem[i][0]);
            j.estimate = t;
            j.npools = 1;
            j.pools = &cpu_mem[i][1];
            REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
        }
        std::map<int, std::vector<int>> by_epoch;
        for (int epoch = 0; epoch < 6; ++epoch) {
            REQUIRE(rota_advance(e.get(), epoch * t) == ROTA_OK);  // the last epoch's jobs end
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            rota_action a{};
            a.size = sizeof(rota_action);
            while (rota_next_action(e.get(), &a) == ROTA_OK)
                if (a.type == ROTA_ACTION_START) by_epoch[epoch].push_back(static_cast<int>(a.job));
        }
        return by_epoch;
    };
    using E = std::map<int, std::vector<int>>;
    CHECK(epochs("false") == E{{0, {0, 1}}, {1, {2}}, {2, {3, 4}}, {3, {5}}});
    CHECK(epochs("true") == E{{0, {0, 1, 4, 5}}, {1, {2}}, {2, {3}}});
}
