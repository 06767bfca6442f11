// The K-resource selections of [Leinberger99] §3 (backfill/balanced.lua and
// backfill/lowest.lua) on hand-made batches, with every score worked out
// in the comments, and the resource view (c.R, ctx.usage, ...) a script gets.
#include <catch2/catch.hpp>
#include <limits>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

namespace {

// A batch on a machine of `procs` processors and one pool of `mem`: each
// row is {procs, memory, estimate}.
struct KJob {
    std::int32_t procs;
    std::int64_t mem;
    Time estimate = 50;
};

JobBatch k_batch(const std::vector<KJob>& jobs, std::int32_t procs = 100, std::int64_t mem = 100) {
    std::vector<JobRow> rows;
    JobId id = 1;
    for (const KJob& j : jobs) rows.push_back({id++, j.procs, j.estimate});
    JobBatch b = make_batch(rows);
    b.inv_capacity = {1.0 / procs, 1.0 / static_cast<double>(mem)};
    for (const KJob& j : jobs) {
        b.R.push_back(j.procs * b.inv_capacity[0]);
        b.R.push_back(static_cast<double>(j.mem) * b.inv_capacity[1]);
    }
    return b;
}

// S = (0.5, 0.2): half the processors and a fifth of the memory in use.
BackfillContext k_ctx(double s_procs = 0.5, double s_mem = 0.2) {
    BackfillContext ctx = make_ctx(0, static_cast<std::int32_t>(100 * (1 - s_procs)), 100);
    ctx.resources = 2;
    ctx.capacity = {100, 100};
    ctx.usage = {s_procs, s_mem};
    return ctx;
}

}  // namespace

// [Leinberger99] §3 on one machine state, S = (0.5, 0.2), 50 processors and 80
// memory free. No two candidates fit together (A+B: 90 memory, A+C: 68
// processors, B+C: 136 memory), so each policy starts exactly one:
//
//   job  R_j         S + R_j       avg   fullness  balance  BB score  BL (lowest = memory)
//   A    (.40, .10)  (.90, .30)    .60   .40       1.5      .600      no match: 2 x .40 = .80
//   B    (.10, .80)  (.60, 1.0)    .80   .20       1.25     .250      match:        .20
//   C    (.28, .56)  (.78, .76)    .77   .23       1.013    .233      match:        .23
//
// First fit starts A (queue order), BL the fullest matching job B, BB the
// best balanced-and-full job C.
TEST_CASE("first fit, BL and BB each pick another job ([Leinberger99] §3)",
          "[lua][policies][kresource]") {
    const JobBatch b = k_batch({{40, 10}, {10, 80}, {28, 56}});
    const BackfillContext ctx = k_ctx();
    LuaPolicy bb(config(Hook::backfill_select, "backfill/balanced.lua"));
    LuaPolicy bl(config(Hook::backfill_select, "backfill/lowest.lua"));
    CHECK(picks_of(bb, b, ctx) == Picks{2});
    CHECK(picks_of(bl, b, ctx) == Picks{1});
}

// P: (.05, .35) -> S + R = (.55, .55): perfectly balanced (1.0) but leaves
// 45 % free: score .45. Q: (.48, .75) -> (.98, .95): balance .98/.965 =
// 1.0155, fullness .035: score .0355. Both together need 53 processors of 50.
// Balance alone prefers P; the fullness modifier makes the larger, less
// balanced Q win because it nearly fills the machine.
TEST_CASE("the fullness modifier lets a larger, less balanced job win",
          "[lua][policies][kresource]") {
    const JobBatch b = k_batch({{5, 35}, {48, 75}});
    LuaPolicy bb(config(Hook::backfill_select, "backfill/balanced.lua"));
    CHECK(picks_of(bb, b, k_ctx()) == Picks{1});
}

TEST_CASE("BB repeats its choice on the usage its picks leave", "[lua][policies][kresource]") {
    // S = (0, 0). Step 1: A (.5,.1) .5/.3 x .7 = 1.167; B (.1,.5) the same;
    // C (.3,.3) 1 x .7 = .7: C. Step 2 from (.3,.3): A (.8,.4) .8/.6 x .4 =
    // .533; B (.4,.8) the same: A (queue order). Step 3 from (.8,.4): B needs
    // .9 processors: (.9, .9) 1 x .1 = .1: B. All three fit: 90 of 100 each.
    const JobBatch b = k_batch({{50, 10}, {10, 50}, {30, 30}});
    LuaPolicy bb(config(Hook::backfill_select, "backfill/balanced.lua"));
    CHECK(picks_of(bb, b, k_ctx(0, 0)) == Picks{2, 0, 1});
}

TEST_CASE("BL follows the least used resource as its picks change it",
          "[lua][policies][kresource]") {
    // S = (.2, .5): processors are the lowest. A (.1, .3) largest memory:
    // mismatch, 2 x (1 - .55) = .9; B (.3, .1) largest processors: match,
    // 1 - .55 = .45: B. Then S = (.5, .6): processors still lowest; A is the
    // only one left: (.6, .9), mismatch 2 x .25 = .5, but it fits: A.
    const JobBatch b = k_batch({{10, 30}, {30, 10}});
    LuaPolicy bl(config(Hook::backfill_select, "backfill/lowest.lua"));
    CHECK(picks_of(bl, b, k_ctx(0.2, 0.5)) == Picks{1, 0});
    SECTION("mismatch = 1 ignores the window: the fullest job first") {
        // A would leave (.3,.8) avg .55; B (.5,.6) avg .55: a tie, queue order.
        LuaPolicy flat(config(Hook::backfill_select, "backfill/lowest.lua", {{"mismatch", 1.0}}));
        CHECK(picks_of(flat, b, k_ctx(0.2, 0.5)) == Picks{0, 1});
    }
}

TEST_CASE("BL's window w looks at the w least used resources", "[lua][policies][kresource]") {
    // Three resources, S = (.1, .2, .6). w = 2: the window is {1, 2}.
    // A = (.3, .2, .1): its two largest are 1, 2: match, 1 - (.4+.4+.7)/3 = .5.
    // B = (.3, .1, .35): its two largest are 3, 1: mismatch, 2 x (1 - (.4+.3+.95)/3) = .9.
    // With w = 1 the window is {1}: both match (largest on 1 for A; B's
    // largest is 3: mismatch 2 x .45 = .9 again): A either way; so compare
    // C = (.05, .3, .05): w = 2 largest are 2, 1: match, 1 - (.15+.5+.65)/3 = .567.
    JobBatch b = make_batch({{1, 30}, {2, 30}});
    b.inv_capacity = {0.01, 0.01, 0.01};
    b.R = {0.3, 0.2, 0.1, 0.3, 0.1, 0.35};
    BackfillContext ctx = make_ctx(0, 90, 100);
    ctx.resources = 3;
    ctx.capacity = {100, 100, 100};
    ctx.usage = {0.1, 0.2, 0.6};
    LuaPolicy w2(
        config(Hook::backfill_select, "backfill/lowest.lua", {{"window", std::int64_t{2}}}));
    // A first (.5 < .9); then S = (.4, .4, .7): window {1, 2} (tie to the
    // lower resource); B fits (.7, .5, 1.05)? No: 1.05 > 1. Only A.
    CHECK(picks_of(w2, b, ctx) == Picks{0});
    // B alone: it fits from S and is picked although it does not match.
    JobBatch only_b = make_batch({{2, 30}});
    only_b.inv_capacity = b.inv_capacity;
    only_b.R = {0.3, 0.1, 0.35};
    CHECK(picks_of(w2, only_b, ctx) == Picks{0});
}

TEST_CASE("a job running past the shadow time must fit what the head leaves",
          "[lua][policies][kresource]") {
    // S = (.5, .2); the head's reservation at t = 1000 leaves (.3, .05) then.
    // A (.1, .1, estimate 5000): past the shadow, .1 memory > .05: skipped.
    // B (.2, .1, estimate 500): ends before the shadow: fits.
    // C (.2, .05, estimate 5000): past the shadow, fits the extra.
    const JobBatch b = k_batch({{10, 10, 5000}, {20, 10, 500}, {20, 5, 5000}});
    BackfillContext ctx = k_ctx();
    ctx.shadow_time.t = 1000;
    ctx.extra = {0.3, 0.05};
    for (const char* script : {"backfill/balanced.lua", "backfill/lowest.lua"}) {
        LuaPolicy p(config(Hook::backfill_select, script));
        Picks picks = picks_of(p, b, ctx);
        std::sort(picks.begin(), picks.end());
        CHECK(picks == Picks{1, 2});
    }
}

TEST_CASE("lowest.lua refuses a bad window or mismatch when it is loaded",
          "[lua][policies][kresource]") {
    // The load's dry run passes an empty batch: the check comes before it returns.
    const auto load = [](Params params) {
        LuaPolicy p(config(Hook::backfill_select, "backfill/lowest.lua", std::move(params)));
    };
    CHECK_THROWS_WITH(load({{"window", -1.5}}),
                      Catch::Contains("dry run") &&
                          Catch::Contains("window must be a non-negative integer, not -1.5"));
    CHECK_THROWS_WITH(load({{"window", std::int64_t{-1}}}),
                      Catch::Contains("window must be a non-negative integer, not -1"));
    CHECK_THROWS_WITH(load({{"mismatch", 0.5}}),
                      Catch::Contains("mismatch must be a finite number >= 1, not 0.5"));
    CHECK_THROWS_WITH(load({{"mismatch", std::numeric_limits<double>::infinity()}}),
                      Catch::Contains("mismatch must be a finite number >= 1, not inf"));
    CHECK_NOTHROW(load({{"window", std::int64_t{0}}, {"mismatch", 1.0}}));
}

TEST_CASE("a script sees R as one array per resource and the K-resource context",
          "[lua][calls][kresource]") {
    std::vector<std::string> log;
    LuaConfig cfg = config(Hook::backfill_select, fixture("resources_echo.lua"));
    cfg.log = [&](std::string_view line) { log.emplace_back(line); };
    LuaPolicy p(cfg);
    log.clear();
    BackfillContext ctx = k_ctx(0.5, 0.25);
    ctx.head_demand = {0.75, 0.5};
    ctx.extra = {0.25, 0.125};
    REQUIRE(picks_of(p, k_batch({{10, 50}, {25, 75}}), ctx).empty());
    // A shorter batch: the arrays of R are cut to its length.
    ctx.head_demand.clear();
    ctx.extra.clear();
    REQUIRE(picks_of(p, k_batch({{50, 25}}), ctx).empty());
    REQUIRE(log.size() == 2);
    CHECK(log[0] ==
          "K=2 cap={100,100} S={0.5,0.25} head={0.75,0.5} extra={0.25,0.125} nR=2 R1={0.1,0.25} "
          "R2={0.5,0.75}");
    CHECK(log[1] == "K=2 cap={100,100} S={0.5,0.25} head=nil extra=nil nR=2 R1={0.5} R2={0.25}");
}

namespace {

// A script of the test's own for hook backfill_select, its log kept.
struct Scripted {
    TempDir dir;
    std::vector<std::string> log;
    LuaPolicy policy;
    explicit Scripted(const std::string& body)
        : policy([&] {
              LuaConfig cfg = config(Hook::backfill_select, dir.write("s.lua", body));
              cfg.log = [this](std::string_view line) { log.emplace_back(line); };
              return cfg;
          }()) {}
};

}  // namespace

// rota.kselect's scores on the machine state of the first test case, S =
// (.5, .2): BB's balance x fullness and BL's (match ? 1 : 2) x fullness as
// worked out there (C: (.78, .76), avg .77, balance .78 / .77 = 1.012987,
// BB .23 x 1.012987 = .232987; BL: memory is the lowest resource, C's
// largest share is memory: a match, .23).
TEST_CASE("rota.kselect scores every candidate by [Leinberger99] §3's formulas",
          "[lua][kselect][kresource]") {
    Scripted s(R"(
      return { backfill_select = function(c, ctx)
        if c.n == 0 then return nil end  -- the dry run at load
        local sel = rota.kselect(c, ctx)
        for j = 1, c.n do
          print(string.format("%d %.6f %.6f %s", j, sel:score(j, "balanced"),
                              sel:score(j, "lowest"), tostring(sel:fits(j))))
        end
        local j, v = sel:best("balanced")
        local k, w = sel:best("lowest")
        print(string.format("best %d %.6f %d %.6f", j, v, k, w))
        return nil
      end }
    )");
    REQUIRE(picks_of(s.policy, k_batch({{40, 10}, {10, 80}, {28, 56}}), k_ctx()).empty());
    REQUIRE(s.log.size() == 4);
    CHECK(s.log[0] == "1 0.600000 0.800000 true");
    CHECK(s.log[1] == "2 0.250000 0.200000 true");
    CHECK(s.log[2] == "3 0.232987 0.230000 true");
    CHECK(s.log[3] == "best 3 0.232987 2 0.200000");
}

// The helper's answer is the pick: a script that starts only the best
// balanced candidate starts C, where first fit would start A.
TEST_CASE("a pick decided by rota.kselect's best", "[lua][kselect][kresource]") {
    Scripted s(R"(
      return { backfill_select = function(c, ctx)
        if c.n == 0 then return nil end
        return { (rota.kselect(c, ctx):best("balanced")) }
      end }
    )");
    CHECK(picks_of(s.policy, k_batch({{40, 10}, {10, 80}, {28, 56}}), k_ctx()) == Picks{2});
}

// take() adds R_j to the usage, and to what the head leaves at the shadow
// time when the job runs past it. The state of the shadow test case: S =
// (.5, .2), E = (.3, .05); A (.1, .1) runs past the shadow and needs .1 >
// .05 memory: it does not fit; B (.2, .1) ends before it; C (.2, .05) runs
// past it and fits E exactly. After take(C): S = (.7, .25), E = (.1, 0);
// then B: S = (.9, .35), E unchanged (B ends before the shadow). Nothing
// else fits: best is nil.
TEST_CASE("rota.kselect's take moves the usage and the shadow's extra",
          "[lua][kselect][kresource]") {
    Scripted s(R"(
      return { backfill_select = function(c, ctx)
        if c.n == 0 then return nil end  -- the dry run at load
        local sel = rota.kselect(c, ctx)
        local function show(tag)
          print(string.format("%s S=(%.2f,%.2f) E=(%.2f,%.2f) fits=%s,%s,%s", tag,
            sel:usage(1), sel:usage(2), sel:extra(1), sel:extra(2),
            tostring(sel:fits(1)), tostring(sel:fits(2)), tostring(sel:fits(3))))
        end
        show("start")
        sel:take(3)
        show("C")
        sel:take(2)
        show("B")
        print(tostring(sel:best("balanced")), tostring(sel:score(2, "balanced")))
        return nil
      end }
    )");
    BackfillContext ctx = k_ctx();
    ctx.shadow_time.t = 1000;
    ctx.extra = {0.3, 0.05};
    const JobBatch b = k_batch({{10, 10, 5000}, {20, 10, 500}, {20, 5, 5000}});
    REQUIRE(picks_of(s.policy, b, ctx).empty());
    REQUIRE(s.log.size() == 4);
    CHECK(s.log[0] == "start S=(0.50,0.20) E=(0.30,0.05) fits=false,true,true");
    CHECK(s.log[1] == "C S=(0.70,0.25) E=(0.10,0.00) fits=false,true,false");
    CHECK(s.log[2] == "B S=(0.90,0.35) E=(0.10,0.00) fits=false,false,false");
    CHECK(s.log[3] == "nil\tnil");
}

// The window of "lowest", as in the w = 2 test case: S = (.1, .2, .6), the
// window {1, 2}; A (.3, .2, .1) matches: 1 - (.4 + .4 + .7) / 3 = .5; B
// (.3, .1, .35) does not (its two largest are 3 and 1): 2 x (1 - (.4 + .3
// + .95) / 3) = .9, or .45 with mismatch 1. With w = 1 the window is {1}:
// A matches, B (largest on 3) does not, .9 again: A is best. w = 0 or
// w >= K: every job matches, B scores .45.
TEST_CASE("rota.kselect's lowest score follows the window", "[lua][kselect][kresource]") {
    Scripted s(R"(
      return { backfill_select = function(c, ctx)
        if c.n == 0 then return nil end  -- the dry run at load
        local sel = rota.kselect(c, ctx)
        print(string.format("%.4f %.4f %.4f %.4f %d %.4f %.4f", sel:score(1, "lowest", 2),
          sel:score(2, "lowest", 2), sel:score(2, "lowest", 2, 1), sel:score(2, "lowest", 1),
          (sel:best("lowest", 1)), sel:score(2, "lowest", 0), sel:score(2, "lowest", 7)))
        return nil
      end }
    )");
    JobBatch b = make_batch({{1, 30}, {2, 30}});
    b.inv_capacity = {0.01, 0.01, 0.01};
    b.R = {0.3, 0.2, 0.1, 0.3, 0.1, 0.35};
    BackfillContext ctx = make_ctx(0, 90, 100);
    ctx.resources = 3;
    ctx.capacity = {100, 100, 100};
    ctx.usage = {0.1, 0.2, 0.6};
    REQUIRE(picks_of(s.policy, b, ctx).empty());
    REQUIRE(s.log.size() == 1);
    CHECK(s.log[0] == "0.5000 0.9000 0.4500 0.9000 1 0.4500 0.4500");
}

TEST_CASE("rota.kselect refuses what is not this call's batch and context",
          "[lua][kselect][kresource]") {
    SECTION("a table of the script's own") {
        Scripted s(
            "return { backfill_select = function(c, ctx) if c.n > 0 then rota.kselect({n = 0}, "
            "ctx) end end }");
        CHECK_THROWS_WITH(picks_of(s.policy, k_batch({{10, 10}}), k_ctx()),
                          Catch::Contains("the candidate batch of this call expected"));
    }
    SECTION("the context in the batch's place") {
        Scripted s(
            "return { backfill_select = function(c, ctx) if c.n > 0 then rota.kselect(c, c) end "
            "end }");
        CHECK_THROWS_WITH(picks_of(s.policy, k_batch({{10, 10}}), k_ctx()),
                          Catch::Contains("the backfill_select context of this call expected"));
    }
    SECTION("a selection kept from an earlier call") {
        Scripted s(R"(
          local kept = {}
          return { backfill_select = function(c, ctx)
            if c.n == 0 then return nil end
            if kept.sel == nil then kept.sel = rota.kselect(c, ctx) return nil end
            return { (kept.sel:best("balanced")) }
          end }
        )");
        REQUIRE(picks_of(s.policy, k_batch({{10, 10}}), k_ctx()).empty());
        CHECK_THROWS_WITH(picks_of(s.policy, k_batch({{10, 10}}), k_ctx()),
                          Catch::Contains("belongs to an earlier call"));
    }
    SECTION("an unknown score, a candidate out of range, a taken one") {
        for (const char* call : {R"(sel:best("fastest"))", "sel:score(2, 'balanced')",
                                 "sel:take(1) sel:take(1)", "sel:usage(3)"}) {
            Scripted s(std::string("return { backfill_select = function(c, ctx) if c.n == 0 then "
                                   "return nil end local sel = rota.kselect(c, ctx) ") +
                       call + " end }");
            CHECK_THROWS(picks_of(s.policy, k_batch({{10, 10}}), k_ctx()));
        }
    }
}
