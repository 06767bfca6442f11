// The preempt hook ([Feitelson97] §4.3, pass 1) through the C ABI: the
// candidate sets and victims a policy sees, worked by hand; a policy that
// picks another set than the lowest cost, one that declines, and answers
// the engine refuses (the lowest-cost set applies, the failure counted).
#include <string>
#include <vector>

#include "classes_support.h"

using rota::test::Act;
using rota::test::at;
using rota::test::classes;
using rota::test::counters;
using rota::test::EnginePtr;
using rota::test::hook_stats;
using rota::test::info;
using rota::test::kInteractive;
using rota::test::kProduction;
using rota::test::kStandby;
using rota::test::kUs;
using rota::test::range;
using rota::test::submit;

namespace {

EnginePtr engine_with(const std::string& policy, const std::string& production_wait = "3600") {
    const std::string dir = std::string(ROTA_TEST_DATA) + "/lua";
    return rota::test::engine_from(classes(8, "", policy, production_wait), dir.c_str());
}

std::string scripted(const std::string& answer) {
    return "[policy.preempt]\nscript = \"preempt_scripted.lua\"\nanswer = \"" + answer + "\"\n";
}

// On 8 processors at 0, loaded by class priority then wait, best fit from
// the bottom: J2 production on 4 (do-not-disturb 10 s x 4, over at 40), J3
// production on 2 (20), J1 standby on 2 (user 7; 3 s x 2: 6). An
// interactive J4 on 2, submitted then, is past its wait (0) at the next
// pass, at 10, with nothing free: pass 1's candidate sets are {J1}
// (2 x (1 + 1/4) = 2.5, its do-not-disturb time over) and {J2}, the widest
// (4 x (1 + 3/4) = 7, plus 30 s left: 37).
void fill(rota_engine* e) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = 1;
    j.procs = 2;
    j.estimate = 100000 * kUs;
    j.user = 7;
    j.job_class = kStandby;
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
    submit(e, 2, 4, 100000);
    submit(e, 3, 2, 100000);
    auto a = at(e, 0);
    REQUIRE(a.size() == 3);
    CHECK((a[0].job == 2 && a[0].nodes == range(0, 3)));
    CHECK((a[1].job == 3 && a[1].nodes == range(4, 5)));
    CHECK((a[2].job == 1 && a[2].nodes == range(6, 7)));
    submit(e, 4, 2, 500, kInteractive);
}

}  // namespace

TEST_CASE("preempt: with no policy the lowest-cost set is reserved ([Feitelson97] §4.3)",
          "[capi][classes][preempt]") {
    EnginePtr e = engine_with("");
    fill(e.get());
    auto a = at(e.get(), 10);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1 && a[0].delay == 1.0));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(6, 7) &&
           a[1].delay == 1.0));
    CHECK(counters(e.get()).class_reservations == 1);
    CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 0);
}

TEST_CASE("preempt: a policy sees the sets and victims and may take a costlier set",
          "[capi][classes][preempt]") {
    EnginePtr e = engine_with(scripted("costliest"));
    std::vector<std::string> lines;
    auto sink = [](void* ud, int, const char* l) {
        static_cast<std::vector<std::string>*>(ud)->push_back(l);
    };
    REQUIRE(rota_set_log(e.get(), sink, &lines) == ROTA_OK);
    fill(e.get());
    // J2's set is reserved: J2 keeps running until its do-not-disturb time
    // is over at 40; J1 stays.
    CHECK(at(e.get(), 10).empty());
    const std::vector<std::string> want = {
        "set 1 procs=2 idle=0 victims=1 first=1 cost=2.5 dnd_left=0",
        "set 2 procs=4 idle=0 victims=1 first=2 cost=37 dnd_left=30000000",
        "job 4 procs=2 class=1 priority=4 waited=10000000",
        "victim 1 procs=2 class=5 priority=1 user=7 dnd_left=0 elapsed=10000000 preemptions=0",
        "victim 2 procs=4 class=3 priority=3 user=-1 dnd_left=30000000 elapsed=10000000 "
        "preemptions=0",
    };
    REQUIRE(lines.size() >= want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(lines[i]);
        CHECK(lines[i].find(want[i]) != std::string::npos);
    }
    CHECK(info(e.get(), 4).reserved == 1);
    CHECK(counters(e.get()).class_reservations == 1);
    CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 1);
    CHECK(at(e.get(), 39).empty());
    // At 40 J2 goes to disk (4 x 1 s / 2) and J4 loads on the first two of
    // its processors once they are written out.
    auto a = at(e.get(), 40);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 2 && a[0].nodes == range(0, 3) &&
           a[0].delay == 2.0));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(0, 1) &&
           a[1].delay == 2.0));
    CHECK(info(e.get(), 1).state == ROTA_JOB_RUNNING);
    CHECK(info(e.get(), 2).preemptions == 1);
    CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).failures == 0);
}

namespace {

void submit_named(rota_engine* e, std::int64_t id, std::int32_t procs, std::int32_t cls,
                  std::int32_t user, const char* account, const char* partition, const char* qos) {
    rota_job j{};
    j.size = sizeof(j);
    j.id = id;
    j.procs = procs;
    j.estimate = 100000 * kUs;
    j.user = user;
    j.job_class = cls;
    j.account = account;
    j.partition = partition;
    j.qos = qos;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

// fill()'s machine with names: J1 (standby, user 7) charged to "y", J2
// (production) to "x" in partition "batch" with QOS "normal", J3 to none;
// J4 (interactive, user 5) to "urgent" in "debug" with QOS "high".
void fill_named(rota_engine* e) {
    submit_named(e, 1, 2, kStandby, 7, "y", nullptr, "");
    submit_named(e, 2, 4, kProduction, -1, "x", "batch", "normal");
    submit_named(e, 3, 2, kProduction, -1, nullptr, nullptr, nullptr);
    REQUIRE(at(e, 0).size() == 3);
    submit_named(e, 4, 2, kInteractive, 5, "urgent", "debug", "high");
}

std::string by_account(const std::string& account) {
    return "[policy.preempt]\nscript = \"preempt_by_account.lua\"\naccount = \"" + account + "\"\n";
}

}  // namespace

TEST_CASE("preempt: a policy sees the job's and each victim's user, account, partition and QOS",
          "[capi][classes][preempt][names]") {
    SECTION("it takes the set whose victim is charged to x: J2's, the costlier") {
        EnginePtr e = engine_with(by_account("x"));
        std::vector<std::string> lines;
        auto sink = [](void* ud, int, const char* l) {
            static_cast<std::vector<std::string>*>(ud)->push_back(l);
        };
        REQUIRE(rota_set_log(e.get(), sink, &lines) == ROTA_OK);
        fill_named(e.get());
        CHECK(at(e.get(), 10).empty());  // J2's set is reserved; J1 keeps running
        const std::vector<std::string> want = {
            "job 4 user=5 account=urgent partition=debug qos=high",
            "victim 1 user=7 account=y partition= qos=",  // "" for none
            "victim 2 user=-1 account=x partition=batch qos=normal",
        };
        REQUIRE(lines.size() >= want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            INFO(lines[i]);
            CHECK(lines[i].find(want[i]) != std::string::npos);
        }
        CHECK(info(e.get(), 4).reserved == 1);
        const rota_hook_stats st = hook_stats(e.get(), ROTA_HOOK_PREEMPT);
        CHECK(st.calls == 1);
        CHECK(st.failures == 0);
        auto a = at(e.get(), 40);
        REQUIRE(a.size() == 2);
        CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 2 && a[0].nodes == range(0, 3)));
        CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(0, 1)));
        CHECK(info(e.get(), 1).state == ROTA_JOB_RUNNING);
    }
    SECTION("y: J1's set, the one the fallback would take too") {
        EnginePtr e = engine_with(by_account("y"));
        REQUIRE(rota_set_log(e.get(), nullptr, nullptr) == ROTA_OK);
        fill_named(e.get());
        auto a = at(e.get(), 10);
        REQUIRE(a.size() == 2);
        CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1));
        CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(6, 7)));
        CHECK(counters(e.get()).class_reservations == 1);
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).failures == 0);
    }
    SECTION("no victim charged to z: no reservation") {
        EnginePtr e = engine_with(by_account("z"));
        REQUIRE(rota_set_log(e.get(), nullptr, nullptr) == ROTA_OK);
        fill_named(e.get());
        at(e.get(), 10);  // pass 2 may still load J4 on J1's processors
        CHECK(counters(e.get()).class_reservations == 0);
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 1);
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).failures == 0);
    }
}

TEST_CASE("preempt: a policy that declines leaves the job to pass 2 or to wait",
          "[capi][classes][preempt]") {
    SECTION("an interactive job still takes a standby job's processors in pass 2") {
        EnginePtr e = engine_with(scripted("none"));
        fill(e.get());
        auto a = at(e.get(), 10);
        REQUIRE(a.size() == 2);
        CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1));
        CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(6, 7)));
        CHECK(counters(e.get()).class_reservations == 0);  // no reservation was made
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 1);
    }
    SECTION("a production job past its hour never preempts its own class in pass 2") {
        EnginePtr e = engine_with(scripted("none"));
        for (int id = 1; id <= 4; ++id) submit(e.get(), id, 2, 100000);
        REQUIRE(at(e.get(), 0).size() == 4);
        submit(e.get(), 5, 6, 1000);
        for (std::int64_t t : {1, 3600, 3601, 3700}) CHECK(at(e.get(), t).empty());
        CHECK(info(e.get(), 5).reserved == 0);
        CHECK(info(e.get(), 5).state == ROTA_JOB_QUEUED);
        CHECK(counters(e.get()).preemptions == 0);
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 1);
        // Asked again when something changes: J1 ends, 2 processors of the
        // 6 it needs are free.
        REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
        CHECK(at(e.get(), 3800).empty());
        CHECK(hook_stats(e.get(), ROTA_HOOK_PREEMPT).calls == 2);
    }
}

TEST_CASE("preempt: a refused answer counts as a failure and the lowest-cost set applies",
          "[capi][classes][preempt]") {
    const std::string answer = GENERATE("out_of_range", "string", "table", "error");
    INFO(answer);
    EnginePtr e = engine_with(scripted(answer));
    REQUIRE(rota_set_log(e.get(), nullptr, nullptr) == ROTA_OK);
    fill(e.get());
    auto a = at(e.get(), 10);
    REQUIRE(a.size() == 2);
    CHECK((a[0].type == ROTA_ACTION_SWAP_OUT && a[0].job == 1));
    CHECK((a[1].type == ROTA_ACTION_START && a[1].job == 4 && a[1].nodes == range(6, 7)));
    const rota_hook_stats st = hook_stats(e.get(), ROTA_HOOK_PREEMPT);
    CHECK(st.calls == 1);
    CHECK(st.failures == 1);
}

TEST_CASE("preempt: the hook needs [classes]", "[capi][classes][preempt]") {
    rota_engine* x = nullptr;
    const int rc = rota_engine_new(
        "[machine]\nprocs = 8\n[policy.preempt]\nscript = \"preempt/lowest_cost.lua\"\n", nullptr,
        &x);
    EnginePtr guard(x);
    CHECK(rc == ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(x)).find("no [classes]") != std::string::npos);
    CHECK(std::string(rota_hook_name(ROTA_HOOK_PREEMPT)) == "preempt");
}
