// [Weissman03]'s harvest and distribution rules (Weissman et al., §2.2) as the
// shipped scripts compute them with rota.waterfill, on hand-made batches
// with every amount worked out in the comments, and the helper's misuse.
#include <catch2/catch.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Amounts = std::vector<std::int64_t>;

namespace {

// One row of a malleable batch; a queued job holds no processors.
struct MJob {
    std::int32_t procs, min, ideal;
    Time age = 0, time_left = 0;
    std::int32_t harvests = 0;
    bool queued = false;
};

MalleableBatch m_batch(const std::vector<MJob>& jobs) {
    MalleableBatch b;
    std::int64_t id = 1;
    for (const MJob& j : jobs) {
        b.id.push_back(id++);
        b.procs.push_back(j.queued ? 0 : j.procs);
        b.min.push_back(j.min);
        b.ideal.push_back(j.ideal);
        b.queued.push_back(j.queued ? 1 : 0);
        b.age.push_back(j.age);
        b.time_left.push_back(j.time_left);
        b.harvests.push_back(j.harvests);
        b.cost.push_back(0);
        b.progress.push_back(0);
        b.user.push_back(-1);
        b.account.push_back({});
        b.partition.push_back({});
        b.qos.push_back({});
    }
    return b;
}

MalleableContext needing(std::int32_t n) {
    MalleableContext ctx;
    ctx.needed = n;
    return ctx;
}

// The harvest's answer; empty when the script answers nil (the job waits).
Amounts harvest(const std::string& script, const MalleableBatch& v, std::int32_t needed,
                Params params = {}) {
    LuaPolicy p(config(Hook::harvest, script, std::move(params)));
    Amounts out;
    const HookOutcome r = p.harvest(v, needing(needed), out);
    REQUIRE(r.ok);
    return out;
}

Amounts distribute(const std::string& script, const MalleableBatch& b, std::int32_t needed,
                   Params params = {}) {
    LuaPolicy p(config(Hook::distribution, script, std::move(params)));
    Amounts out;
    const HookOutcome r = p.distribution(b, needing(needed), out);
    REQUIRE(r.ok);
    return out;
}

constexpr Time s = 1'000'000;

// A harvest script of the test's own, with its print lines kept.
struct ScriptedHarvest {
    TempDir dir;
    std::vector<std::string> log;
    LuaPolicy policy;
    explicit ScriptedHarvest(const std::string& body, Hook h = Hook::harvest)
        : policy([&] {
              LuaConfig cfg = config(h, dir.write("s.lua", body));
              cfg.log = [this](std::string_view line) { log.emplace_back(line); };
              return cfg;
          }()) {}
};

}  // namespace

// Victims A (4 procs, min 1), B (2, min 1), C (6, min 4) can give 3, 1
// and 2. even_harvest takes one from each in turn: 5 = round 1 (A, B, C)
// + round 2 (A, C; B is at its min): {2, 1, 2}. 6 is everything they can
// give: {3, 1, 2}. 7 is more: nil, the job waits.
TEST_CASE("even_harvest takes one processor from each victim in turn",
          "[lua][waterfill][malleable]") {
    const MalleableBatch v = m_batch({{4, 1, 4}, {2, 1, 2}, {6, 4, 6}});
    CHECK(harvest(shipped("harvest/even.lua"), v, 5) == Amounts{2, 1, 2});
    CHECK(harvest(shipped("harvest/even.lua"), v, 6) == Amounts{3, 1, 2});
    CHECK(harvest(shipped("harvest/even.lua"), v, 7).empty());
}

// Harvests suffered (2, 0, 0): the average is 2/3, so B and C are the
// candidates and A, the most harvested, is spared. In turn over B (5,
// min 1: 4 to give) and C (6, min 2: 4): B, C, B, C, B for 5 = {0, 3, 2}.
// 9 is more than B and C can give: nil, although A could give 3. With
// harvests (1, 1, 1) nobody is below the average: all are candidates and
// fair is even: A, B, C, A, B = {2, 2, 1}.
TEST_CASE("fair_harvest spares the victims harvested more than the average",
          "[lua][waterfill][malleable]") {
    const std::string fair = shipped("harvest/fair.lua");
    const MalleableBatch v = m_batch({{4, 1, 4, 0, 0, 2}, {5, 1, 5}, {6, 2, 6}});
    CHECK(harvest(fair, v, 5) == Amounts{0, 3, 2});
    CHECK(harvest(fair, v, 9).empty());
    const MalleableBatch same =
        m_batch({{4, 1, 4, 0, 0, 1}, {5, 1, 5, 0, 0, 1}, {6, 2, 6, 0, 0, 1}});
    CHECK(harvest(fair, same, 5) == Amounts{2, 2, 1});
}

// Ages A 100 s, B 300 s, C 200 s; A (4, min 1), B (2, min 1), C (6, min 2).
// T = -1: the average age, 200 s, and a victim exactly at it counts: B
// then C, longest first. 3 = B, C, C (B is at its min after one): {0, 1,
// 2}. T = 200 s is strict: only B, which gives 1, so 3 fails and 1 is {0,
// 1, 0}. time_left in the same values makes short_harvest the same.
TEST_CASE("long_harvest and short_harvest take from the victims above T, largest first",
          "[lua][waterfill][malleable]") {
    const MalleableBatch by_age =
        m_batch({{4, 1, 4, 100 * s}, {2, 1, 2, 300 * s}, {6, 2, 6, 200 * s}});
    const MalleableBatch by_left =
        m_batch({{4, 1, 4, 0, 100 * s}, {2, 1, 2, 0, 300 * s}, {6, 2, 6, 0, 200 * s}});
    const std::string long_h = shipped("harvest/long.lua"), short_h = shipped("harvest/short.lua");
    CHECK(harvest(long_h, by_age, 3) == Amounts{0, 1, 2});
    CHECK(harvest(short_h, by_left, 3) == Amounts{0, 1, 2});
    CHECK(harvest(long_h, by_age, 3, {{"T", std::int64_t{200}}}).empty());
    CHECK(harvest(long_h, by_age, 1, {{"T", std::int64_t{200}}}) == Amounts{0, 1, 0});
    CHECK(harvest(short_h, by_left, 1, {{"T", 200.0}}) == Amounts{0, 1, 0});
    // The order is by age, not by position: A is the youngest and is
    // visited last when every victim counts (T = 50 s): 6 = B, C, A, C, A, C.
    CHECK(harvest(long_h, by_age, 6, {{"T", std::int64_t{50}}}) == Amounts{2, 1, 3});
}

// §2.2's example: A holds 2 of an ideal 4, B 8 of 9; C holds 4 of 4, min
// 2. The shares kept after giving one: A 1/4, B 7/9 = .778, C 3/4. 3
// processors: B (.778; B would then keep 6/9 = .667), C (.75; then 2/4),
// B (.667): {0, 2, 1}. In full, the share each keeps when picked: B .778,
// C .75, B .667, B .556, C .5 (C is then at its min), B .444, B .333, A
// .25 (A at its min), B .222: 9 = {1, 6, 2}. 10 takes B's last (1/9 ->
// B at its min 1); 11 is more than they can give (1 + 7 + 2).
TEST_CASE("low_impact_harvest takes from the job keeping the largest share of its ideal",
          "[lua][waterfill][malleable]") {
    const std::string low = shipped("harvest/low_impact.lua");
    const MalleableBatch v = m_batch({{2, 1, 4}, {8, 1, 9}, {4, 2, 4}});
    CHECK(harvest(low, v, 3) == Amounts{0, 2, 1});
    CHECK(harvest(low, v, 9) == Amounts{1, 6, 2});
    CHECK(harvest(low, v, 10) == Amounts{1, 7, 2});
    CHECK(harvest(low, v, 11).empty());
}

// Running R1 (2 of 6), R2 (3 of 4), R3 (1 of 4, harvested twice), then
// queued Q1 (min 2, ideal 4) and Q2 (min 3, ideal 8).
//
// favor_queued, 6 free: Q1 starts on min(6, 4) = 4; Q2's min 3 > 2 left:
// it waits. The 2 left grow R1 and R2 (rooms 4, 1, 3; in turn): {1, 1, 0,
// 4, 0}. Inverting low_impact, the 2 go by share held: R3 (1/4 -> 2/4),
// R1 (2/6 = .333 -> .5): {1, 0, 1, 4, 0}. Without growing: {0, 0, 0, 4, 0}.
//
// favor_running, 6 free: in turn, R1 R2 R3, R1 R3, R1: {3, 1, 2, 0, 0},
// none left for Q1. Inverting low_impact with 4: R3 (.25 -> .5), R1 (.333
// -> .5), R1 (.5, tie with R3, the first: -> .667), R3 (.5 -> .75): {2, 0,
// 2, 0, 0}. With 10: then R1 (.667 -> .833), R2 (.75, tie with R3, the
// first: full), R3 (.75 -> full), R1 (-> full): every running job at its
// ideal after 8, and the 2 left start Q1 on its min: {4, 1, 3, 2, 0}.
// Inverting fair: R3, the most harvested, first to its ideal (3), then R1
// and R2 in turn (R1, R2, R1): {2, 1, 3, 0, 0}.
TEST_CASE("favor_queued and favor_running serve queued and running jobs in their order",
          "[lua][waterfill][malleable]") {
    const MalleableBatch b = m_batch({{2, 1, 6},
                                      {3, 1, 4},
                                      {1, 1, 4, 0, 0, 2},
                                      {0, 2, 4, 0, 0, 0, true},
                                      {0, 3, 8, 0, 0, 0, true}});
    const std::string fq = shipped("distribution/favor_queued.lua");
    const std::string fr = shipped("distribution/favor_running.lua");
    CHECK(distribute(fq, b, 6) == Amounts{1, 1, 0, 4, 0});
    CHECK(distribute(fq, b, 6, {{"harvest", std::string("low_impact")}}) == Amounts{1, 0, 1, 4, 0});
    CHECK(distribute(fq, b, 6, {{"grow_running", false}}) == Amounts{0, 0, 0, 4, 0});
    CHECK(distribute(fr, b, 6) == Amounts{3, 1, 2, 0, 0});
    CHECK(distribute(fr, b, 4, {{"harvest", std::string("low_impact")}}) == Amounts{2, 0, 2, 0, 0});
    CHECK(distribute(fr, b, 10, {{"harvest", std::string("low_impact")}}) ==
          Amounts{4, 1, 3, 2, 0});
    CHECK(distribute(fr, b, 6, {{"harvest", std::string("fair")}}) == Amounts{2, 1, 3, 0, 0});
    // 14 free: every running job reaches its ideal (4 + 1 + 3 = 8), Q1
    // starts on 4 and Q2's min 3 > 2 left.
    CHECK(distribute(fr, b, 14) == Amounts{4, 1, 3, 4, 0});
}

// The plan's own methods: what is left after each step, one job's amount
// and the amounts as a table, on the batch above with 6 free: admitting Q1
// on 4 leaves 2, which by share go to R3 (.25) and R1 (.333), leaving 0.
TEST_CASE("a rota.waterfill plan combines rules and reports what is left",
          "[lua][waterfill][malleable]") {
    ScriptedHarvest s(R"(
      return { distribution = function(b, ctx)
        if b.n == 0 then return nil end  -- the dry run at load
        local w = rota.waterfill(b, ctx)
        local a = w:admit()
        local l = w:give("low_impact")
        print(string.format("%d %d %d %d", a, l, w:left(), w:amount(4)))
        return w:amounts()
      end }
    )",
                      Hook::distribution);
    const MalleableBatch b = m_batch({{2, 1, 6},
                                      {3, 1, 4},
                                      {1, 1, 4, 0, 0, 2},
                                      {0, 2, 4, 0, 0, 0, true},
                                      {0, 3, 8, 0, 0, 0, true}});
    Amounts out;
    REQUIRE(s.policy.distribution(b, needing(6), out).ok);
    CHECK(out == Amounts{1, 0, 1, 4, 0});
    REQUIRE(s.log.size() >= 1);
    CHECK(s.log.back() == "2 0 0 4");
}

TEST_CASE("rota.waterfill refuses what is not its call's, and misuse", "[lua][waterfill]") {
    ScriptedHarvest s(R"(
      local kept
      return { harvest = function(v, ctx)
        if v.n == 0 then return nil end  -- the dry run at load
        local mode = ctx.needed
        if mode == 1 then return rota.waterfill({}, ctx) end
        if mode == 2 then return rota.waterfill(v, {}) end
        if mode == 3 then return rota.waterfill(ctx, v) end
        -- Before rota.waterfill: there is one plan per state, which it resets.
        if mode == 9 then return kept:left() end
        if mode == 12 then return kept end
        local w = rota.waterfill(v, ctx)
        if mode == 4 then w:take("sideways") end
        if mode == 5 then w:take("even"); w:give("even") end
        if mode == 6 then w:amount(0) end
        if mode == 7 then w:take("long", "soon") end
        if mode == 8 then kept = w; return nil end
        if mode == 10 then w.take = nil end
        if mode == 11 then w:give("even"); return w end
        if mode == 13 then w:take("long", 0/0) end
        return nil
      end }
    )");
    const MalleableBatch v = m_batch({{4, 1, 4}, {20, 1, 20}});
    auto error_of = [&](std::int32_t mode) {
        Amounts out;
        const HookOutcome r = s.policy.harvest(v, needing(mode), out);
        CHECK_FALSE(r.ok);
        return r.error;
    };
    CHECK_THAT(error_of(1), Catch::Contains("the batch of this harvest or distribution call"));
    CHECK_THAT(error_of(2), Catch::Contains("the context of this harvest or distribution call"));
    CHECK_THAT(error_of(3), Catch::Contains("the batch of this harvest or distribution call"));
    CHECK_THAT(error_of(4), Catch::Contains("invalid option 'sideways'"));
    CHECK_THAT(error_of(5), Catch::Contains("a plan either takes (harvest) or gives"));
    CHECK_THAT(error_of(6), Catch::Contains("not a job of the batch"));
    CHECK_THAT(error_of(7), Catch::Contains("number expected"));
    Amounts out;
    REQUIRE(s.policy.harvest(v, needing(8), out).ok);
    CHECK_THAT(error_of(9), Catch::Contains("this plan belongs to an earlier call"));
    CHECK_THAT(error_of(10), Catch::Contains("index a"));
    // A plan that gives is no harvest's answer (it was applied in reverse).
    CHECK_THAT(error_of(11), Catch::Contains("a harvest takes them"));
    REQUIRE(s.policy.harvest(v, needing(8), out).ok);
    CHECK_THAT(error_of(12), Catch::Contains("the plan belongs to an earlier call"));
    CHECK_THAT(error_of(13), Catch::Contains("T is NaN"));
}

// A plan returned as the answer stands for its amounts: the engine reads
// them from it, with no table built (the even_harvest case above).
TEST_CASE("a harvest may answer with its plan", "[lua][waterfill][malleable]") {
    ScriptedHarvest s(R"(
      return { harvest = function(v, ctx)
        local w = rota.waterfill(v, ctx)
        w:take("even")
        return w
      end }
    )");
    const MalleableBatch v = m_batch({{4, 1, 4}, {2, 1, 2}, {6, 4, 6}});
    Amounts out;
    REQUIRE(s.policy.harvest(v, needing(5), out).ok);
    CHECK(out == Amounts{2, 1, 2});
}
