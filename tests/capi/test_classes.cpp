// Job classes with lazy preemption ([Feitelson97] §4.2-4.3) through the C ABI:
// each class parameter and global limit on schedules worked by hand, the
// switch between parameter sets by the time of the week, the user
// controls of §4.5, bad configurations, and properties of random runs (no
// job preempted before its do-not-disturb time, for a lower class or when
// not preemptable; the system limit kept; every job's work done once).
// Times are seconds; swap_time is 1 s per processor, half each way.
#include <algorithm>
#include <map>
#include <random>
#include <sstream>

#include "classes_support.h"

using rota::test::Act;
using rota::test::at;
using rota::test::counters;
using rota::test::drain;
using rota::test::engine_from;
using rota::test::EnginePtr;
using rota::test::info;
using rota::test::range;
using rota::test::wakeup_s;

using rota::test::classes;
using rota::test::has;
using rota::test::kBenchmark;
using rota::test::kDebug;
using rota::test::kInteractive;
using rota::test::kProduction;
using rota::test::kStandby;
using rota::test::kUs;
using rota::test::submit;
using rota::test::with_class_keys;

TEST_CASE("[Feitelson97]: a debug job is never preempted, not even for an interactive one",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    submit(e.get(), 1, 8, 100, kDebug);
    auto a = at(e.get(), 0);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].nodes == range(0, 7)));
    // The interactive job is past its wait (0) at once, but no processor set
    // exists without a debug job's: its loading is deferred (§4.3).
    submit(e.get(), 2, 2, 50, kInteractive);
    std::vector<Act> all;
    for (std::int64_t t : {10, 50, 99}) {
        a = at(e.get(), t);
        all.insert(all.end(), a.begin(), a.end());
    }
    CHECK_FALSE(has(all, ROTA_ACTION_SWAP_OUT));
    CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
    CHECK(counters(e.get()).class_reservations == 0);
    // The debug job reaches its estimate at 100 and is killed: then it loads.
    a = at(e.get(), 100);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_KILL && a[0].job == 1));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 2 && a[1].nodes == range(0, 1)));
    CHECK(counters(e.get()).preemptions == 0);
}

TEST_CASE("[Feitelson97]: a standby job is preempted once its short do-not-disturb time is over",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    submit(e.get(), 1, 4, 1000, kStandby);
    auto a = at(e.get(), 0);
    REQUIRE(a.size() == 1);
    CHECK(info(e.get(), 1).dnd_end == 12 * kUs);  // 3 s x 4 processors
    // A production job that needs the whole machine: pass 2 takes processors
    // of a lower class only past its do-not-disturb time.
    submit(e.get(), 2, 8, 100);
    a = at(e.get(), 1);
    CHECK(a.empty());
    CHECK(wakeup_s(e.get()) == 12);
    a = at(e.get(), 11);
    CHECK(a.empty());
    a = at(e.get(), 12);
    REQUIRE(a.size() == 2);
    // Its state goes to disk in 4 x 1 s / 2; the production job waits for it.
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1 && a[0].nodes == range(0, 3) &&
           a[0].delay == 2.0));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 2 && a[1].nodes == range(0, 7) &&
           a[1].delay == 2.0));
    rota_job_info s = info(e.get(), 1);
    CHECK(s.state == ROTA_JOB_QUEUED);
    CHECK(s.on_disk == 1);
    CHECK(s.preemptions == 1);
    CHECK(s.executed == 12 * kUs);
    CHECK(s.wait_since == 12 * kUs);
    // The production job ends at 60; the standby job is loaded back, its
    // state read in 2 s, and it still has 988 s of its 1000 to compute.
    REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);
    a = at(e.get(), 60);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_SWAP_IN && a[0].job == 1 && a[0].nodes == range(0, 3) &&
           a[0].delay == 2.0));
    CHECK(info(e.get(), 1).on_disk == 0);
    // Its walltime counts computing only: killed at 60 + 2 + 988.
    a = at(e.get(), 1049);
    CHECK(a.empty());
    a = at(e.get(), 1050);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_KILL && a[0].job == 1));
    rota_counters c = counters(e.get());
    CHECK(c.preemptions == 1);
    CHECK(c.swap_ins == 1);
}

// The usage accounts (what fair-share order policies read) hold a job while
// it is loaded: through a swap out and a swap in they never go below zero.
TEST_CASE("[Feitelson97]: a user's account holds a job while it is loaded", "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    const auto user = [&](std::int32_t u) {
        rota_user_info ui{};
        ui.size = sizeof ui;
        REQUIRE(rota_user_info_get(e.get(), u, &ui) == ROTA_OK);
        return std::pair<std::int32_t, std::int32_t>{ui.procs, ui.running};
    };
    const auto submit_as = [&](std::int64_t id, std::int32_t procs, std::int64_t est,
                               std::int32_t cls, std::int32_t u) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = est * kUs;
        j.procs = procs;
        j.user = u;
        j.job_class = cls;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit_as(1, 4, 1000, kStandby, 7);
    at(e.get(), 0);
    CHECK(user(7) == std::pair<std::int32_t, std::int32_t>{4, 1});
    submit_as(2, 8, 100, kProduction, 9);
    auto a = at(e.get(), 12);  // job 1 swapped out, job 2 loaded
    REQUIRE(has(a, ROTA_ACTION_SWAP_OUT));
    CHECK(user(7) == std::pair<std::int32_t, std::int32_t>{0, 0});
    CHECK(user(9) == std::pair<std::int32_t, std::int32_t>{8, 1});
    REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);
    a = at(e.get(), 60);  // job 1 swapped back in
    REQUIRE(has(a, ROTA_ACTION_SWAP_IN));
    CHECK(user(9) == std::pair<std::int32_t, std::int32_t>{0, 0});
    CHECK(user(7) == std::pair<std::int32_t, std::int32_t>{4, 1});
    at(e.get(), 1050);  // killed at its walltime
    CHECK(user(7) == std::pair<std::int32_t, std::int32_t>{0, 0});
}

TEST_CASE("[Feitelson97]: a production job past its hour reserves a set and preempts small jobs",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    for (int id = 1; id <= 4; ++id) submit(e.get(), id, 2, 100000);
    auto a = at(e.get(), 0);
    REQUIRE(a.size() == 4);
    CHECK(at(e.get(), 1).empty());
    submit(e.get(), 5, 6, 1000);
    // Pass 2 never preempts a job of the same class.
    for (std::int64_t t : {2, 20, 3600}) CHECK(at(e.get(), t).empty());
    CHECK(info(e.get(), 5).reserved == 0);
    // At 3601 it has waited its hour: pass 1 reserves the cheapest set
    // (three jobs of 2 processors, past their 20 s of do-not-disturb), and
    // they are swapped out at once.
    a = at(e.get(), 3601);
    REQUIRE(a.size() == 4);
    for (int k = 0; k < 3; ++k) {
        CHECK(a[static_cast<std::size_t>(k)].type == ROTA_ACTION_SWAP_OUT);
        CHECK(a[static_cast<std::size_t>(k)].job == k + 1);
        CHECK(a[static_cast<std::size_t>(k)].delay == 1.0);
    }
    CHECK((a[3].type == ROTA_ACTION_START && a[3].job == 5 && a[3].nodes == range(0, 5) &&
           a[3].delay == 1.0));
    CHECK(info(e.get(), 4).state == ROTA_JOB_RUNNING);
    CHECK(counters(e.get()).class_reservations == 1);
    CHECK(counters(e.get()).preemptions == 3);
}

TEST_CASE("[Feitelson97]: an interactive job past its wait takes a production reservation over",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8, "", "", "30"));  // production waits 30 s at most
    submit(e.get(), 1, 8, 10000);                         // X: do-not-disturb until 80
    at(e.get(), 0);
    CHECK(at(e.get(), 1).empty());
    submit(e.get(), 2, 4, 1000);  // W
    CHECK(at(e.get(), 30).empty());
    // At 31 W has waited 30 s: a set of X's processors is reserved for it,
    // X keeps running until its do-not-disturb time is over.
    CHECK(at(e.get(), 31).empty());
    CHECK(info(e.get(), 2).reserved == 1);
    CHECK(wakeup_s(e.get()) == 80);
    // An interactive job (wait 0) is a higher class past its wait.
    submit(e.get(), 3, 2, 500, kInteractive);
    CHECK(at(e.get(), 40).empty());
    CHECK(info(e.get(), 3).reserved == 1);
    CHECK(info(e.get(), 2).reserved == 0);
    CHECK(counters(e.get()).class_reservations == 2);
    // At 80 X leaves (4 s to write 8 processors' state); the interactive
    // job loads on its set, W on the rest, best fit.
    auto a = at(e.get(), 80);
    REQUIRE(a.size() == 3);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1 && a[0].delay == 4.0));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 3 && a[1].nodes == range(0, 1) &&
           a[1].delay == 4.0));
    CHECK((a[2].type == ROTA_ACTION_START && a[2].job == 2 && a[2].nodes == range(2, 5) &&
           a[2].delay == 4.0));
}

TEST_CASE("[Feitelson97]: a deferred job is considered again when the scheduler next runs",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    submit(e.get(), 1, 2, 10000, kInteractive);  // A: do-not-disturb until 20
    submit(e.get(), 2, 6, 10000);                // P: production, until 60
    REQUIRE(at(e.get(), 0).size() == 2);
    // B is past its wait (0) at once, but the jobs loaded at this very
    // instant are not victims of the pass that loads them: no set exists,
    // B's loading is deferred (§4.3) until the scheduler runs again, here at
    // A's do-not-disturb end; a call in between finds nothing new to do.
    submit(e.get(), 3, 4, 1000, kInteractive);
    CHECK(at(e.get(), 0).empty());
    CHECK(info(e.get(), 3).reserved == 0);
    CHECK(wakeup_s(e.get()) == 20);
    CHECK(at(e.get(), 1).empty());
    CHECK(info(e.get(), 3).reserved == 0);
    // At 20 the only set of 4 is P's processors (A has 2, none idle): it is
    // reserved, and taken lazily when P's do-not-disturb time ends at 60,
    // 3 s to write its 6 processors' state out.
    CHECK(at(e.get(), 20).empty());
    CHECK(info(e.get(), 3).reserved == 1);
    CHECK(counters(e.get()).class_reservations == 1);
    CHECK(wakeup_s(e.get()) == 60);
    auto a = at(e.get(), 60);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 2 && a[0].delay == 3.0));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 3 && a[1].nodes == range(2, 5) &&
           a[1].delay == 3.0));
}

TEST_CASE("[Feitelson97]: the reserved job loads elsewhere when enough processors free earlier",
          "[capi][classes]") {
    EnginePtr e = engine_from(classes(8, "", "", "30"));
    submit(e.get(), 1, 4, 10000);  // do-not-disturb until 40
    submit(e.get(), 2, 4, 100);    // ends at 100 at the latest
    at(e.get(), 0);
    submit(e.get(), 3, 4, 1000);
    at(e.get(), 1);
    CHECK(at(e.get(), 31).empty());  // reserved: job 1's processors, until 40
    CHECK(info(e.get(), 3).reserved == 1);
    REQUIRE(rota_job_end(e.get(), 2) == ROTA_OK);  // job 2's processors free at 35
    auto a = at(e.get(), 35);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 3 && a[0].nodes == range(4, 7)));
    CHECK(info(e.get(), 1).state == ROTA_JOB_RUNNING);  // never preempted
    CHECK(counters(e.get()).preemptions == 0);
}

TEST_CASE("[Feitelson97]: the global limits and the class processor limit", "[capi][classes]") {
    SECTION("large jobs: at most large_procs processors loaded") {
        EnginePtr e = engine_from(classes(8, "large_job = 4\nlarge_procs = 4\n"));
        submit(e.get(), 1, 4, 100);
        submit(e.get(), 2, 4, 100);
        submit(e.get(), 3, 2, 100);
        auto a = at(e.get(), 0);
        REQUIRE(a.size() == 2);
        CHECK((a[0].job == 1 && a[1].job == 3));
        CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
        REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
        a = at(e.get(), 10);
        REQUIRE(a.size() == 1);
        CHECK(a[0].job == 2);
    }
    SECTION("a class's processor limit") {
        EnginePtr e = engine_from(with_class_keys(classes(8), "debug", "procs = 2\n"));
        submit(e.get(), 1, 2, 100, kDebug);
        submit(e.get(), 2, 2, 100, kDebug);
        auto a = at(e.get(), 0);
        REQUIRE(a.size() == 1);
        CHECK(a[0].job == 1);
        rota_class_info ci{};
        ci.size = sizeof(ci);
        REQUIRE(rota_class_info_get(e.get(), kDebug, &ci) == ROTA_OK);
        CHECK(std::string(ci.name) == "debug");
        CHECK(ci.procs == 2);
        CHECK(ci.loaded == 2);
        CHECK(ci.preemptable == 0);
    }
    SECTION("the job processor limit rejects a job no parameter set can load") {
        EnginePtr e = engine_from(classes(8, "job_procs = 6\n"));
        submit(e.get(), 1, 8, 100);
        auto a = at(e.get(), 0);
        REQUIRE(a.size() == 1);
        CHECK(a[0].type == ROTA_ACTION_REJECT);
        rota_action r{};
        // The reason names the limit.
        EnginePtr e2 = engine_from(classes(8, "job_procs = 6\n"));
        submit(e2.get(), 1, 8, 100);
        REQUIRE(rota_advance(e2.get(), 0) == ROTA_OK);
        REQUIRE(rota_schedule(e2.get()) == ROTA_OK);
        r.size = sizeof(r);
        REQUIRE(rota_next_action(e2.get(), &r) == ROTA_OK);
        CHECK(std::string(r.reason).find("job processor limit is 6") != std::string::npos);
    }
    SECTION("the system limit: no fresh job past it, so no preemption for one") {
        for (int limit : {12, 16}) {
            EnginePtr e = engine_from(classes(8, "system_procs = " + std::to_string(limit) + "\n"));
            submit(e.get(), 1, 4, 1000, kStandby);
            submit(e.get(), 2, 4, 1000, kStandby);
            at(e.get(), 0);
            submit(e.get(), 3, 8, 100);
            at(e.get(), 1);
            auto a = at(e.get(), 12);  // both standby jobs are past their 12 s
            if (limit == 12) {         // 8 loaded + 8 would be 16 > 12
                CHECK(a.empty());
                CHECK(info(e.get(), 3).state == ROTA_JOB_QUEUED);
            } else {
                REQUIRE(a.size() == 3);
                CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[1].type == ROTA_ACTION_SWAP_OUT));
                CHECK((a[2].type == ROTA_ACTION_START && a[2].job == 3));
            }
        }
    }
}

TEST_CASE("[Feitelson97]: parameter sets switch with the time of the week", "[capi][classes]") {
    // Engine time 0 is Monday 17:00. By day production jobs hold at most 4
    // processors, from 18:00 to 08:00 all 8 (and wait 2 hours at most).
    EnginePtr e = engine_from(
        with_class_keys(classes(8, "week_start = \"mon 17:00\"\n",
                                "[[classes.period]]\nname = \"night\"\nfrom = \"18:00\"\nto = "
                                "\"08:00\"\n"
                                "[[classes.period.class]]\nname = \"production\"\nprocs = 8\n",
                                "7200"),
                        "production", "procs = 4\n"));
    CHECK(std::string(rota_class_period(e.get())).empty());
    submit(e.get(), 1, 8, 100);
    CHECK(at(e.get(), 0).empty());  // not rejected: the night allows it
    CHECK(wakeup_s(e.get()) == 3600);
    CHECK(at(e.get(), 3599).empty());
    auto a = at(e.get(), 3600);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_START && a[0].job == 1));
    CHECK(std::string(rota_class_period(e.get())) == "night");
    // 08:00 on Tuesday ends the night; Tuesday 18:00 starts the next.
    REQUIRE(rota_advance(e.get(), 15 * 3600 * kUs) == ROTA_OK);
    CHECK(std::string(rota_class_period(e.get())).empty());
    REQUIRE(rota_advance(e.get(), 25 * 3600 * kUs) == ROTA_OK);
    CHECK(std::string(rota_class_period(e.get())) == "night");
}

TEST_CASE("[Feitelson97]: batches carry each job's class and its priority in force",
          "[capi][classes]") {
    // Engine time 0 is Monday 17:00; from 18:00 interactive jobs have
    // production's priority, 3 (the preset's night).
    const std::string policy =
        "[policy.admission]\nscript = \"class_columns_echo.lua\"\n"
        "[[classes.period]]\nname = \"night\"\nfrom = \"18:00\"\nto = \"08:00\"\n"
        "[[classes.period.class]]\nname = \"interactive\"\npriority = 3\n";
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    std::vector<std::string> lines;
    auto sink = [](void* ud, int, const char* l) {
        static_cast<std::vector<std::string>*>(ud)->push_back(l);
    };
    auto has_line = [&](const std::string& want) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const std::string& l) { return l.find(want) != std::string::npos; });
    };
    EnginePtr e =
        rota::test::engine_from(classes(8, "week_start = \"mon 17:00\"\n", policy), dir.c_str());
    REQUIRE(rota_set_log(e.get(), sink, &lines) == ROTA_OK);
    submit(e.get(), 1, 1, 100, kInteractive);
    submit(e.get(), 2, 1, 100);  // the default class, production
    submit(e.get(), 3, 1, 100, kStandby);
    at(e.get(), 0);
    CHECK(has_line("job 1 class 1 priority 4"));
    CHECK(has_line("job 2 class 3 priority 3"));
    CHECK(has_line("job 3 class 5 priority 1"));
    submit(e.get(), 4, 1, 100, kInteractive);
    at(e.get(), 3600);
    CHECK(has_line("job 4 class 1 priority 3"));
    // Without [classes] both read 0.
    EnginePtr plain = rota::test::engine_from(
        "[machine]\nprocs = 8\n[policy.admission]\nscript = \"class_columns_echo.lua\"\n",
        dir.c_str());
    lines.clear();
    REQUIRE(rota_set_log(plain.get(), sink, &lines) == ROTA_OK);
    submit(plain.get(), 5, 1, 100);
    at(plain.get(), 0);
    CHECK(has_line("job 5 class 0 priority 0"));
}

// Two jobs of one class that are past their maximum wait at once and have
// no do-not-disturb time would take each other's processors before either
// computed, forever: a loaded job executes as long as its load took, and
// one second at least, before it is swapped out again.
TEST_CASE("[Feitelson97]: jobs of a class with no do-not-disturb time still make progress",
          "[capi][classes]") {
    const std::string no_dnd = "max_wait = 0\ndnd = 0\n";
    for (const char* swap : {"swap_time = 1\n", "swap_time = 0\n"}) {
        std::string toml = classes(4, "", "", "0");
        const std::size_t p =
            toml.find("max_wait = 0\ndnd = 10\n[[classes.class]]\nname = \"bench");
        REQUIRE(p != std::string::npos);
        toml.replace(p, no_dnd.size() + 1, no_dnd);
        toml.replace(toml.find("swap_time = 1\n"), 14, swap);
        INFO(swap << toml);
        EnginePtr e = engine_from(toml);
        submit(e.get(), 1, 4, 100);
        submit(e.get(), 2, 4, 100);
        // Per job: when its last load began and when it began to compute.
        std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> loaded;
        int ended = 0, loads = 0;
        rota_time now = 0;
        for (int step = 0; step < 1000 && ended < 2; ++step) {
            REQUIRE(rota_advance(e.get(), now) == ROTA_OK);
            REQUIRE(rota_schedule(e.get()) == ROTA_OK);
            rota_action a{};
            a.size = sizeof(a);
            while (rota_next_action(e.get(), &a) == ROTA_OK) {
                if (a.type == ROTA_ACTION_START || a.type == ROTA_ACTION_SWAP_IN) {
                    loaded[a.job] = {a.time, a.time + a.delay};
                    ++loads;
                } else if (a.type == ROTA_ACTION_SWAP_OUT) {
                    const auto [from, exec] = loaded.at(a.job);
                    CHECK(a.time - exec >= std::max<std::int64_t>(kUs, exec - from));
                } else if (a.type == ROTA_ACTION_KILL) {
                    ++ended;
                }
                a = rota_action{};
                a.size = sizeof(a);
            }
            if (ended == 2) break;
            REQUIRE(rota_next_wakeup(e.get(), &now) == ROTA_OK);
        }
        CHECK(ended == 2);
        CHECK(loads > 2);  // they did take turns
    }
}

TEST_CASE("[Feitelson97] §4.5: suspend, resume and change the class of a job", "[capi][classes]") {
    EnginePtr e = engine_from(classes(8));
    submit(e.get(), 1, 4, 1000);
    submit(e.get(), 2, 2, 1000);
    at(e.get(), 0);
    REQUIRE(rota_advance(e.get(), 10 * kUs) == ROTA_OK);
    REQUIRE(rota_job_suspend(e.get(), 1) == ROTA_OK);
    auto a = drain(e.get());
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1 && a[0].delay == 2.0));
    CHECK(info(e.get(), 1).state == ROTA_JOB_SUSPENDED);
    CHECK(info(e.get(), 1).preemptions == 0);  // a user's suspension is no preemption
    // Free processors do not load a suspended job.
    CHECK(at(e.get(), 15).empty());
    CHECK(rota_job_resume(e.get(), 2) == ROTA_ESTATE);  // running, not suspended
    REQUIRE(rota_job_resume(e.get(), 1) == ROTA_OK);
    a = at(e.get(), 20);
    REQUIRE(a.size() == 1);
    CHECK((a[0].type == ROTA_ACTION_SWAP_IN && a[0].job == 1));
    CHECK(info(e.get(), 1).executed == 10 * kUs);  // it computed from 0 to 10
    // A waiting job may be suspended too, and a class changed.
    submit(e.get(), 3, 8, 100);
    at(e.get(), 21);
    REQUIRE(rota_job_suspend(e.get(), 3) == ROTA_OK);
    CHECK(info(e.get(), 3).state == ROTA_JOB_SUSPENDED);
    REQUIRE(rota_job_set_class(e.get(), 2, kBenchmark) == ROTA_OK);
    CHECK(info(e.get(), 2).job_class == kBenchmark);
    rota_class_info ci{};
    ci.size = sizeof(ci);
    REQUIRE(rota_class_info_get(e.get(), kBenchmark, &ci) == ROTA_OK);
    CHECK(ci.loaded == 2);
    CHECK(rota_job_set_class(e.get(), 2, 9) == ROTA_EINVAL);
    // Classes count from 1: the first and the last are there, 0 and 6 are not.
    REQUIRE(rota_class_info_get(e.get(), kInteractive, &ci) == ROTA_OK);
    CHECK(std::string(ci.name) == "interactive");
    REQUIRE(rota_class_info_get(e.get(), kStandby, &ci) == ROTA_OK);
    CHECK(std::string(ci.name) == "standby");
    CHECK(rota_class_info_get(e.get(), 0, &ci) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())) == "class 0 is outside 1..5");
    CHECK(rota_class_info_get(e.get(), kStandby + 1, &ci) == ROTA_EINVAL);
    REQUIRE(rota_job_set_class(e.get(), 2, kStandby) == ROTA_OK);
    CHECK(info(e.get(), 2).job_class == kStandby);
    CHECK(rota_job_set_class(e.get(), 2, 0) == ROTA_EINVAL);
    CHECK(info(e.get(), 2).job_class == kStandby);
    REQUIRE(rota_job_set_class(e.get(), 2, kBenchmark) == ROTA_OK);
    CHECK(rota_job_suspend(e.get(), 99) == ROTA_ENOTFOUND);
    int32_t idx = -1;
    REQUIRE(rota_class_find(e.get(), "standby", &idx) == ROTA_OK);
    CHECK(idx == kStandby);
    CHECK(rota_class_find(e.get(), "nosuch", &idx) == ROTA_ENOTFOUND);
    // Cancelling a suspended job forgets it.
    REQUIRE(rota_cancel(e.get(), 3) == ROTA_OK);
    rota_job_info gone{};
    gone.size = sizeof(gone);
    CHECK(rota_job_info_get(e.get(), 3, &gone) == ROTA_ENOTFOUND);
}

TEST_CASE("[Feitelson97]: classes need [classes], and bad class settings are refused",
          "[capi][classes]") {
    EnginePtr plain = engine_from("[machine]\nprocs = 8\n");
    rota_job j{};
    j.size = sizeof(j);
    j.id = 1;
    j.estimate = kUs;
    j.procs = 1;
    j.job_class = 1;
    CHECK(rota_submit(plain.get(), &j) == ROTA_EINVAL);
    j.job_class = 0;
    REQUIRE(rota_submit(plain.get(), &j) == ROTA_OK);
    CHECK(rota_job_suspend(plain.get(), 1) == ROTA_ESTATE);
    CHECK(rota_job_resume(plain.get(), 1) == ROTA_ESTATE);
    CHECK(rota_job_set_class(plain.get(), 1, 1) == ROTA_ESTATE);
    CHECK(std::string(rota_errmsg(plain.get())).find("there is no [classes]") != std::string::npos);
    EnginePtr e = engine_from(classes(8));
    j.job_class = 6;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("job_class 6") != std::string::npos);
    j.job_class = -1;
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);

    const std::vector<std::pair<std::string, std::string>> bad = {
        {"[machine]\nprocs = 8\n[classes]\n", "at least one"},
        {classes(8, "defualt = 1\n"), "classes.defualt"},
        {"[machine]\nprocs = 8\n[classes]\ndefault = \"x\"\n[[classes.class]]\nname = \"a\"\n",
         "classes.default"},
        {with_class_keys(classes(8), "benchmark", "max_wait = -5\n"), "max_wait"},
        {classes(8, "", "[[classes.period]]\ndays = [\"monday\"]\n"), "days"},
        {classes(8, "", "[[classes.period]]\nfrom = \"25:00\"\n"), "from"},
        // Digits only: sscanf alone read these as 00:30, 08:00 and 08:05.
        {classes(8, "", "[[classes.period]]\nfrom = \"-0:30\"\n"),
         "must be a time of day \"HH:MM\", got \"-0:30\""},
        {classes(8, "", "[[classes.period]]\nfrom = \"+8:00\"\n"), "got \"+8:00\""},
        {classes(8, "", "[[classes.period]]\nto = \"8:5\"\n"), "got \"8:5\""},
        {classes(8, "", "[[classes.period]]\n[[classes.period.class]]\nname = \"nosuch\"\n"),
         "nosuch"},
        {classes(8, "week_start = \"someday\"\n"), "week_start"},
        {classes(8, "preset = \"cray\"\n"), "llnl-t3d"},
        {classes(8) + "[gang]\nmpl = 2\nslice = 10\n", "gang"},
        {classes(8) + "[scheduler]\nreservation_depth = 2\n", "reservation_depth"},
    };
    for (const auto& [toml, what] : bad) {
        rota_engine* x = nullptr;
        const int rc = rota_engine_new(toml.c_str(), nullptr, &x);
        EnginePtr guard(x);
        INFO(toml);
        CHECK(rc == ROTA_ECONFIG);
        CHECK(std::string(rota_errmsg(x)).find(what) != std::string::npos);
    }
}

namespace {

// A small driver: jobs with actual run times, ended when their computed
// time reaches them, with every action checked as it comes. `policy` goes
// after the class tables (a [policy.preempt] table, say); scripts are
// found among the shipped policies and tests/data/lua. Returns every
// action, one line each, and the preempt hook's statistics in `stats`.
std::vector<std::string> random_run(std::uint64_t seed, const std::string& policy = "",
                                    rota_hook_stats* stats = nullptr) {
    const int procs = 64;
    std::mt19937_64 rng(seed);
    const std::int64_t system = 96;
    const std::string fixtures = std::string(ROTA_TEST_DATA) + "/lua";
    EnginePtr e =
        engine_from(classes(procs, "system_procs = " + std::to_string(system) + "\n", policy),
                    fixtures.c_str());
    std::vector<std::string> transcript;
    struct J {
        std::int64_t submit, run, estimate;
        std::int32_t procs, cls;
        std::int64_t load = -1, exec_from = -1, done = 0;
        bool loaded = false, on_disk = false, ended = false;
        std::vector<std::int32_t> nodes;
    };
    std::vector<J> jobs;
    std::int64_t t = 0;
    std::uniform_int_distribution<int> cls(1, 5), width(0, 6);
    std::exponential_distribution<double> gap(1.0 / 40), len(1.0 / 600);
    for (int i = 0; i < 300; ++i) {
        t += static_cast<std::int64_t>(gap(rng));
        J j;
        j.submit = t;
        j.run = 1 + static_cast<std::int64_t>(len(rng));
        j.estimate = j.run + static_cast<std::int64_t>(len(rng));
        j.procs = 1 << width(rng);
        j.cls = cls(rng);
        jobs.push_back(j);
    }
    std::map<int, int> prio = {{1, 4}, {2, 4}, {3, 3}, {4, 2}, {5, 1}};
    std::map<int, std::int64_t> dnd = {{1, 10}, {2, 0}, {3, 10}, {4, 0}, {5, 3}};
    std::vector<std::int32_t> owner(procs, -1);
    std::size_t next = 0;
    std::int64_t now = 0, ends = 0;
    int guard = 0;
    auto finished = [&](const J& j) { return j.loaded && now >= j.exec_from + (j.run - j.done); };
    while ((next < jobs.size() || ends < static_cast<std::int64_t>(jobs.size())) &&
           ++guard < 100000) {
        std::int64_t tn = INT64_MAX;
        if (next < jobs.size()) tn = jobs[next].submit;
        for (const J& j : jobs)
            if (j.loaded) tn = std::min(tn, j.exec_from + (j.run - j.done));
        rota_time w;
        // A clock in whole seconds wakes at the second the engine's time
        // falls in or after, never before it.
        if (rota_next_wakeup(e.get(), &w) == ROTA_OK) tn = std::min(tn, (w + kUs - 1) / kUs);
        if (tn == INT64_MAX) break;
        now = std::max(now, tn);
        REQUIRE(rota_advance(e.get(), now * kUs) == ROTA_OK);
        std::vector<Act> acts = drain(e.get());
        for (std::size_t i = 0; i < jobs.size(); ++i)
            if (finished(jobs[i]) && !std::any_of(acts.begin(), acts.end(), [&](const Act& a) {
                    return a.type == ROTA_ACTION_KILL && a.job == static_cast<std::int64_t>(i);
                })) {
                REQUIRE(rota_job_end(e.get(), static_cast<std::int64_t>(i)) == ROTA_OK);
                jobs[i].done = jobs[i].run;
                jobs[i].loaded = false;
                jobs[i].ended = true;
                ++ends;
                for (auto n : jobs[i].nodes) owner[static_cast<std::size_t>(n)] = -1;
            }
        for (const Act& a : acts) {  // walltime kills
            REQUIRE(a.type == ROTA_ACTION_KILL);
            J& j = jobs[static_cast<std::size_t>(a.job)];
            // Killed exactly when it computed its estimate.
            CHECK(j.done + (now - j.exec_from) == j.estimate);
            j.loaded = false;
            j.ended = true;
            ++ends;
            for (auto n : j.nodes) owner[static_cast<std::size_t>(n)] = -1;
        }
        while (next < jobs.size() && jobs[next].submit == now) {
            const J& j = jobs[next];
            rota_job rj{};
            rj.size = sizeof(rj);
            rj.id = static_cast<std::int64_t>(next);
            rj.estimate = j.estimate * kUs;
            rj.procs = j.procs;
            rj.job_class = j.cls;
            REQUIRE(rota_submit(e.get(), &rj) == ROTA_OK);
            ++next;
        }
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        acts = drain(e.get());
        for (const Act& a : acts) {
            std::ostringstream line;
            line << now << " " << a.type << " " << a.job << " " << a.delay;
            for (auto n : a.nodes) line << " " << n;
            transcript.push_back(line.str());
        }
        std::vector<std::pair<std::int64_t, std::vector<std::int32_t>>> freed;  // victims
        std::vector<std::int64_t> loaded_now;
        for (const Act& a : acts) {
            J& j = jobs[static_cast<std::size_t>(a.job)];
            switch (a.type) {
                case ROTA_ACTION_SWAP_OUT: {
                    CHECK(j.loaded);
                    // Never before its do-not-disturb time, never a debug or
                    // benchmark job.
                    CHECK((j.cls != kDebug && j.cls != kBenchmark));
                    CHECK(now >= j.load + dnd[j.cls] * j.procs);
                    if (now > j.exec_from) j.done += now - j.exec_from;
                    j.loaded = false;
                    j.on_disk = true;
                    for (auto n : j.nodes) owner[static_cast<std::size_t>(n)] = -1;
                    freed.push_back({a.job, j.nodes});
                    break;
                }
                case ROTA_ACTION_START:
                case ROTA_ACTION_SWAP_IN: {
                    CHECK(!j.loaded);
                    CHECK((a.type == ROTA_ACTION_SWAP_IN) == j.on_disk);
                    CHECK(static_cast<std::int32_t>(a.nodes.size()) == j.procs);
                    for (auto n : a.nodes) {
                        CHECK(owner[static_cast<std::size_t>(n)] == -1);  // never two on a node
                        owner[static_cast<std::size_t>(n)] = static_cast<std::int32_t>(a.job);
                    }
                    loaded_now.push_back(a.job);
                    j.nodes = a.nodes;
                    j.loaded = true;
                    j.on_disk = false;
                    j.load = now;
                    j.exec_from = now + static_cast<std::int64_t>(a.delay);
                    break;
                }
                case ROTA_ACTION_REJECT:
                    FAIL("job " << a.job << " rejected");
                    break;
                default:
                    FAIL("unexpected action " << a.type);
            }
        }
        // Never preempted for a lower class: each victim made room for a job
        // of its class or higher, loaded on its nodes now or holding pass
        // 1's reservation (loaded when its whole set is free).
        for (const auto& [v, vn] : freed) {
            bool justified = false;
            for (std::size_t b = 0; b < jobs.size() && !justified; ++b) {
                if (prio[jobs[b].cls] < prio[jobs[static_cast<std::size_t>(v)].cls]) continue;
                const bool now_on_it =
                    std::find(loaded_now.begin(), loaded_now.end(), static_cast<std::int64_t>(b)) !=
                        loaded_now.end() &&
                    std::any_of(vn.begin(), vn.end(), [&](std::int32_t n) {
                        return owner[static_cast<std::size_t>(n)] == static_cast<std::int32_t>(b);
                    });
                rota_job_info bi{};
                bi.size = sizeof(bi);
                const bool reserved =
                    !jobs[b].ended && !jobs[b].loaded &&
                    rota_job_info_get(e.get(), static_cast<std::int64_t>(b), &bi) == ROTA_OK &&
                    bi.reserved == 1;
                justified = now_on_it || reserved;
            }
            CHECK(justified);
        }
        // The system limit: processors loaded or on disk.
        std::int64_t held = 0;
        for (const J& j : jobs) held += (j.loaded || j.on_disk) ? j.procs : 0;
        CHECK(held <= system);
    }
    // Every job ended once, its work (or its estimate) done exactly.
    CHECK(ends == static_cast<std::int64_t>(jobs.size()));
    for (const J& j : jobs) {
        CHECK(j.ended);
        CHECK_FALSE(j.loaded);
    }
    CHECK(counters(e.get()).preemptions > 0);  // the run did exercise preemption
    if (stats) *stats = rota::test::hook_stats(e.get(), ROTA_HOOK_PREEMPT);
    return transcript;
}

}  // namespace

TEST_CASE("[Feitelson97] properties on random runs of the Table 1 classes", "[capi][classes]") {
    random_run(GENERATE(1, 2, 3, 4));
}

// Whatever set a preempt policy chooses, or however it fails, the engine
// keeps §4.3's rules: the same properties hold.
TEST_CASE("[Feitelson97] properties hold under any preempt policy", "[capi][classes][preempt]") {
    const char* script = GENERATE("preempt/least_preempted.lua", "bad_preempt.lua");
    INFO(script);
    rota_hook_stats st{};
    random_run(GENERATE(1, 2),
               std::string("[policy.preempt]\nscript = \"") + script + "\"\nmax_preemptions = 1\n",
               &st);
    CHECK(st.calls > 0);
    if (std::string(script) == "bad_preempt.lua") {
        CHECK(st.failures > 0);  // three calls in four are refused
        CHECK(st.failures < st.calls);
    } else {
        CHECK(st.failures == 0);
    }
}

TEST_CASE("preempt/lowest_cost.lua schedules as the engine's own rule does",
          "[capi][classes][preempt]") {
    const std::uint64_t seed = GENERATE(1, 2, 3);
    const auto native = random_run(seed);
    const auto lua = random_run(seed, "[policy.preempt]\nscript = \"preempt/lowest_cost.lua\"\n");
    CHECK(lua == native);
}
