// The policies shipped in policies/, on small hand-made batches.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/usage.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

TEST_CASE("first_fit starts every candidate in queue order", "[lua][policies]") {
    LuaPolicy p(config(Hook::backfill_select, "backfill/first_fit.lua"));
    CHECK(p.provides(Hook::backfill_select));
    CHECK_FALSE(p.provides(Hook::order));
    const JobBatch b = make_batch({{10, 4}, {11, 8}, {12, 2}, {13, 1}});
    CHECK(picks_of(p, b, make_ctx()) == Picks{0, 1, 2, 3});
    CHECK(picks_of(p, make_batch({}), make_ctx()).empty());
}

TEST_CASE("best_fit greedily picks the widest candidate that still fits", "[lua][policies]") {
    LuaPolicy p(config(Hook::backfill_select, "backfill/best_fit.lua"));
    SECTION("no reservation") {
        // 8 free: 5 (index 1) first, then 3 fits the remaining 3, then nothing.
        const JobBatch b = make_batch({{1, 3}, {2, 5}, {3, 4}, {4, 2}});
        CHECK(picks_of(p, b, make_ctx(0, 8)) == Picks{1, 0});
    }
    SECTION("ties go to queue order") {
        const JobBatch b = make_batch({{1, 2}, {2, 4}, {3, 4}, {4, 4}});
        CHECK(picks_of(p, b, make_ctx(0, 9)) == Picks{1, 2});
    }
    SECTION("candidates too wide for the free processors are skipped") {
        const JobBatch b = make_batch({{1, 16}, {2, 7}});
        CHECK(picks_of(p, b, make_ctx(0, 6)).empty());
    }
    SECTION("a job still running at the shadow time must fit the extra processors") {
        BackfillContext ctx = make_ctx(1000, 10);
        ctx.shadow_time.t = 2000;
        ctx.extra_procs = 2;
        // index 0: 8 procs but ends after the shadow time and 8 > extra: skipped;
        // index 1: 6 procs, ends before the shadow time: taken;
        // index 2: 2 procs, past the shadow time but fits the 2 extra: taken.
        const JobBatch b = make_batch({{1, 8, 5000}, {2, 6, 500}, {3, 2, 5000}, {4, 3, 5000}});
        CHECK(picks_of(p, b, ctx) == Picks{1, 2});
    }
}

TEST_CASE("fpfs lets the head be jumped at most max_jumps times", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}});
    SECTION("default max_jumps is 10") {
        LuaPolicy p(config(Hook::backfill_select, "backfill/fpfs.lua"));
        BackfillContext ctx = make_ctx();
        ctx.head_jumps = 0;
        CHECK(picks_of(p, b, ctx) == Picks{0, 1, 2, 3, 4});
        ctx.head_jumps = 8;
        CHECK(picks_of(p, b, ctx) == Picks{0, 1});
        ctx.head_jumps = 10;
        CHECK(picks_of(p, b, ctx).empty());
        ctx.head_jumps = 12;
        CHECK(picks_of(p, b, ctx).empty());
    }
    SECTION("max_jumps from the config") {
        LuaPolicy p(
            config(Hook::backfill_select, "backfill/fpfs.lua", {{"max_jumps", std::int64_t{3}}}));
        BackfillContext ctx = make_ctx();
        CHECK(picks_of(p, b, ctx) == Picks{0, 1, 2});
        ctx.head_jumps = 2;
        CHECK(picks_of(p, b, ctx) == Picks{0});
    }
    SECTION("FPFS(0) is FCFS: nothing jumps the head") {
        LuaPolicy p(
            config(Hook::backfill_select, "backfill/fpfs.lua", {{"max_jumps", std::int64_t{0}}}));
        CHECK(picks_of(p, b, make_ctx()).empty());
    }
    SECTION("a negative max_jumps is caught by the dry run at load") {
        REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::backfill_select, "backfill/fpfs.lua",
                                             {{"max_jumps", std::int64_t{-1}}})),
                            Catch::Contains("max_jumps must be a non-negative integer"));
    }
}

TEST_CASE("fcfs orders by submit time, sjf by estimate", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 4, 300, 50}, {2, 4, 100, 20}, {3, 4, 200, 20}});
    std::vector<double> keys;
    LuaPolicy fcfs(config(Hook::order, "order/fcfs.lua"));
    REQUIRE(fcfs.order(b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{50, 20, 20});
    LuaPolicy sjf(config(Hook::order, "order/sjf.lua"));
    REQUIRE(sjf.order(b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{300, 100, 200});
}

// Scores by hand (weights per unit of each factor, max_age 100 s): job 1
// priority 1, waited 50 s; job 2 priority 0, waited 150 s (capped at 100);
// job 3 priority 0, waited 20 s, 8 of 16 processors. Users 1 and 2 have
// used 300 and 100 processor-seconds of 400, with 2 users: fair share
// 1000 x 2^(-0.75 x 2) and 1000 x 2^(-0.25 x 2); user 3 used none: 1000.
TEST_CASE("multifactor scores priority, age, fair share and size", "[lua][policies]") {
    UsageBook book;
    book.started(1, 3, 0, 0);
    book.started(2, 1, 0, 0);
    BackfillContext ctx = make_ctx(200 * kSecond, 0, 16);
    ctx.users = book.users();
    ctx.total_usage = book.total(100 * kSecond);
    ctx.user_usage = {&book, 100 * kSecond};
    REQUIRE(ctx.total_usage == 400);
    JobBatch b = make_batch({{1, 2, 100, 150 * kSecond, 1, 1},
                             {2, 4, 100, 50 * kSecond, 2, 0},
                             {3, 8, 100, 180 * kSecond, 3, 0}});
    LuaPolicy p(config(Hook::order, "order/multifactor.lua",
                       {{"max_age", std::int64_t{100}},
                        {"weight_priority", std::int64_t{10000}},
                        {"weight_size", std::int64_t{160}}}));
    CHECK(p.ages(Hook::order));
    std::vector<double> keys;
    REQUIRE(checked_order(p, b, ctx, keys).ok);
    const double fs1 = 1000 * std::pow(2.0, -1.5), fs2 = 1000 * std::pow(2.0, -0.5);
    REQUIRE(keys.size() == 3);
    CHECK(keys[0] == Approx(-(10000 + 500 + fs1 + 20)));
    CHECK(keys[1] == Approx(-(1000 + fs2 + 40)));
    CHECK(keys[2] == Approx(-(200 + 1000 + 80)));
    // Seed 003's first pass: a job past max_wait goes first.
    LuaPolicy overdue(
        config(Hook::order, "order/multifactor.lua", {{"max_wait", std::int64_t{120}}}));
    REQUIRE(checked_order(overdue, b, ctx, keys).ok);
    CHECK(keys[1] < keys[0]);
    CHECK(keys[0] < keys[2]);
}

TEST_CASE("accept_all accepts everything", "[lua][policies]") {
    LuaPolicy p(config(Hook::admission, "admission/accept_all.lua"));
    std::vector<Admission> out;
    REQUIRE(p.admission(make_batch({{1, 1}, {2, 1000}}), make_ctx(), out).ok);
    REQUIRE(out.size() == 2);
    CHECK(out[0].kind == AdmissionKind::accept);
    CHECK(out[1].kind == AdmissionKind::accept);
}

TEST_CASE("max_procs rejects jobs wider than the limit, with a reason", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 256}, {2, 300}, {3, 8}});
    std::vector<Admission> out;
    SECTION("default: the machine size") {
        LuaPolicy p(config(Hook::admission, "admission/max_procs.lua"));
        REQUIRE(p.admission(b, make_ctx(0, 256, 256), out).ok);
        REQUIRE(out.size() == 3);
        CHECK(out[0].kind == AdmissionKind::accept);
        CHECK(out[1].kind == AdmissionKind::reject);
        CHECK(out[1].reason == "requests 300 processors; the limit is 256");
        CHECK(out[2].kind == AdmissionKind::accept);
    }
    SECTION("limit from the config") {
        LuaPolicy p(
            config(Hook::admission, "admission/max_procs.lua", {{"max_procs", std::int64_t{64}}}));
        REQUIRE(p.admission(b, make_ctx(0, 256, 256), out).ok);
        CHECK(out[0].kind == AdmissionKind::reject);
        CHECK(out[0].reason == "requests 256 processors; the limit is 64");
        CHECK(out[1].reason == "requests 300 processors; the limit is 64");
        CHECK(out[2].kind == AdmissionKind::accept);
        CHECK(out[2].reason.empty());
    }
}

TEST_CASE("every shipped policy names its paper section", "[lua][policies]") {
    for (const char* name : {"backfill/first_fit.lua", "backfill/best_fit.lua", "backfill/fpfs.lua",
                             "order/fcfs.lua", "order/sjf.lua", "order/multifactor.lua",
                             "admission/accept_all.lua", "admission/max_procs.lua"}) {
        std::ifstream in(shipped(name));
        REQUIRE(in);
        std::string header, line;
        while (std::getline(in, line) && line.rfind("--", 0) == 0) header += line + "\n";
        INFO(name);
        CHECK_THAT(header, Catch::Contains("§"));
        CHECK_THAT(header, Catch::Contains("Params:"));
    }
}
