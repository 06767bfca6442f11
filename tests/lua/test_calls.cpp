// The calling convention: what a hook sees and what it may answer.
#include <catch2/catch.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

TEST_CASE("a hook sees the whole batch and the pass context", "[lua][calls]") {
    std::vector<std::string> log;
    LuaConfig cfg = config(Hook::backfill_select, fixture("ctx_echo.lua"));
    cfg.log = [&](std::string_view line) { log.emplace_back(line); };
    LuaPolicy p(cfg);
    log.clear();  // the dry run printed too

    BackfillContext ctx;
    ctx.now = 5'000'000'000;
    ctx.machine_procs = 128;
    ctx.free_procs = 12;
    ctx.queue_length = 7;
    ctx.head_id = 42;
    ctx.head_procs = 64;
    ctx.head_jumps = 3;
    ctx.shadow_time.t = 9'000'000'000;
    ctx.extra_procs = 4;
    const JobBatch big =
        make_batch({{7, 2, 60, 10, 3, 1}, {8, 4, 120, 20, 4, -2}, {9, 1, 5, 30, 5, 0}});
    REQUIRE(picks_of(p, big, ctx).empty());
    ctx.shadow_time.t = kNoTime;
    const JobBatch small = make_batch({{11, 16, 1, 2, 3, 4}});
    REQUIRE(picks_of(p, small, ctx).empty());

    REQUIRE(log.size() == 2);
    CHECK(log[0] ==
          "n=3 len=3 7/2/60/10/3/1 8/4/120/20/4/-2 9/1/5/30/5/0 now=5000000000 "
          "machine_procs=128 free_procs=12 queue_length=7 head_id=42 head_procs=64 head_jumps=3 "
          "shadow_time=9000000000 extra_procs=4");
    // A shorter batch reuses the tables: # agrees with n, no stale tail.
    CHECK(log[1] ==
          "n=1 len=1 11/16/1/2/3/4 now=5000000000 machine_procs=128 free_procs=12 "
          "queue_length=7 head_id=42 head_procs=64 head_jumps=3 shadow_time=nil extra_procs=4");
}

TEST_CASE("backfill_select may answer a list, one index, nil or an empty table", "[lua][calls]") {
    TempDir dir;
    const std::string path = dir.write("answers.lua", R"(
        local answers = {
            [1] = function() return { 3, 1 } end,
            [2] = function() return 2 end,
            [3] = function() return nil end,
            [4] = function() return {} end,
            [5] = function() return 2.0 end,
            [6] = function(c) return c end,
        }
        return { backfill_select = function(c, ctx)
            local a = answers[ctx.now]
            if a then return a(c) end
        end }
    )");
    LuaPolicy p(config(Hook::backfill_select, path));
    const JobBatch b = make_batch({{1, 1}, {2, 1}, {3, 1}});
    CHECK(picks_of(p, b, make_ctx(1)) == Picks{2, 0});
    CHECK(picks_of(p, b, make_ctx(2)) == Picks{1});
    CHECK(picks_of(p, b, make_ctx(3)).empty());
    CHECK(picks_of(p, b, make_ctx(4)).empty());
    CHECK(picks_of(p, b, make_ctx(5)) == Picks{1});
    // The batch itself: every candidate, in the order given.
    CHECK(picks_of(p, b, make_ctx(6)) == Picks{0, 1, 2});
    CHECK(picks_of(p, make_batch({}), make_ctx(6)).empty());
}

TEST_CASE("one file may provide several hooks, hooks may come from several files", "[lua][calls]") {
    LuaConfig cfg = config(Hook::admission, fixture("multi.lua"));
    cfg.hooks.push_back({Hook::order, LuaHookConfig{"order/sjf.lua", {}}});
    cfg.hooks.push_back({Hook::backfill_select, LuaHookConfig{fixture("multi.lua"), {}}});
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 1, 30}, {2, 9, 10}});
    std::vector<Admission> out;
    REQUIRE(checked_admission(p, b, make_ctx(), out).ok);
    CHECK(out[1].kind == AdmissionKind::reject);
    std::vector<double> keys;
    REQUIRE(checked_order(p, b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{30, 10});
    CHECK(picks_of(p, b, make_ctx()) == Picks{1});
    CHECK(p.resolved_path(Hook::order) == shipped("order/sjf.lua"));
}

TEST_CASE("a hook that is not configured fails instead of guessing", "[lua][calls]") {
    LuaPolicy p(config(Hook::order, "order/fcfs.lua"));
    std::vector<std::int64_t> picks;
    const HookOutcome r = p.backfill_select(make_batch({{1, 1}}), make_ctx(), picks);
    CHECK_FALSE(r.ok);
    CHECK(r.error == "backfill_select: no script configured");
}

TEST_CASE("the example of docs/lua-api.md works as documented", "[lua][calls]") {
    TempDir dir;
    dir.write("site/shortest_first.lua", R"(
local function backfill_select(c, ctx, params)
  local idx, estimate = {}, c.estimate
  for i = 1, c.n do idx[i] = i end
  table.sort(idx, function(a, b)
    if estimate[a] ~= estimate[b] then return estimate[a] < estimate[b] end
    return a < b   -- deterministic ties: queue order
  end)
  local picks = {}
  for k = 1, math.min(params.max_starts, #idx) do picks[k] = idx[k] end
  return picks
end

return { defaults = { max_starts = 4 }, backfill_select = backfill_select }
)");
    LuaConfig cfg =
        config(Hook::backfill_select, "site/shortest_first.lua", {{"max_starts", std::int64_t{2}}});
    cfg.search_path = {dir.path().string()};
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 1, 50}, {2, 1, 10}, {3, 1, 10}, {4, 1, 5}});
    CHECK(picks_of(p, b, make_ctx()) == Picks{3, 1});
}

TEST_CASE("migration_option answers one option per candidate move", "[lua][calls]") {
    MigrationBatch m;
    auto add = [&](JobId id, double cost1, double cost2, std::int32_t tasks1, std::int32_t tasks2) {
        m.id.push_back(id);
        m.procs.push_back(4);
        m.from_row.push_back(1);
        m.to_row.push_back(0);
        m.cost1.push_back(cost1);
        m.cost2.push_back(cost2);
        m.tasks1.push_back(tasks1);
        m.tasks2.push_back(tasks2);
    };
    add(1, 10.0, 20.0, 4, 2);  // option 1 is cheaper
    add(2, 30.0, 5.0, 4, 2);   // option 2 is cheaper
    add(3, 30.0, 5.0, 9, 9);   // neither fits a budget of 5
    MigrationContext ctx;
    static_cast<CommonContext&>(ctx) = make_ctx();
    ctx.migration_budget = 5;
    std::vector<std::int64_t> out;
    LuaPolicy p(config(Hook::migration_option, "migration/min_cost.lua"));
    REQUIRE(checked_migration(p, m, ctx, out).ok);
    CHECK(out == std::vector<std::int64_t>{1, 2, 0});
    // The engine's own rule, used when no script is configured, agrees.
    std::vector<std::int64_t> native;
    min_cost_options(m, ctx, native);
    CHECK(native == out);

    TempDir dir;
    const std::string bad = dir.write("bad.lua", R"(
        return { migration_option = function(m, ctx)
            if ctx.now == 1 then return { 3 } end
            if ctx.now == 2 then return { 1, 1, 1, 1 } end
            local out = {}
            for i = 1, m.n do out[i] = 1 end
            return out
        end }
    )");
    LuaPolicy q(config(Hook::migration_option, bad));
    ctx.now = 1;
    const HookOutcome r = checked_migration(q, m, ctx, out);
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.error, Catch::Contains("option 1 is 3, not 0, 1 or 2"));
    ctx.now = 2;  // an answer for a longer batch is refused, not cut short
    const HookOutcome longer = checked_migration(q, m, ctx, out);
    CHECK_FALSE(longer.ok);
    CHECK_THAT(longer.error,
               Catch::EndsWith("a key 4 in a table of options for 3 (expected keys 1..3)"));
    ctx.now = 0;
    REQUIRE(checked_migration(q, m, ctx, out).ok);
    CHECK(out == std::vector<std::int64_t>{1, 1, 1});
}
