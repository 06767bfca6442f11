// The per-user figures of the context (ctx.user_usage[user], ...) and the
// `ages` flag of an order script (docs/lua-api.md).
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "engine/usage.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Keys = std::vector<double>;

namespace {

// A context whose per-user figures read `book` at `at`.
BackfillContext with_book(const UsageBook& book, Time at) {
    BackfillContext ctx = make_ctx(at);
    ctx.users = book.users();
    ctx.total_usage = book.total(at);
    ctx.user_usage = {&book, at};
    ctx.user_procs = {&book, at};
    ctx.user_running = {&book, at};
    return ctx;
}

Keys keys_of(LuaPolicy& p, const JobBatch& b, const CommonContext& ctx) {
    Keys keys;
    const HookOutcome r = checked_order(p, b, ctx, keys);
    INFO(r.error);
    REQUIRE(r.ok);
    return keys;
}

}  // namespace

TEST_CASE("per-user figures are looked up as read and fresh at every call", "[lua][usage]") {
    TempDir dir;
    // Key = the user's usage + 1000 x its processors + 1e6 x its running jobs.
    const std::string path = dir.write(
        "order.lua",
        "return { order = function(jobs, ctx)\n"
        "  local k = {}\n"
        "  for i = 1, jobs.n do\n"
        "    local u = jobs.user[i]\n"
        "    if ctx.now == 0 then k[i] = 0 else\n"
        "    k[i] = ctx.user_usage[u] + 1000 * ctx.user_procs[u] + 1e6 * ctx.user_running[u] end\n"
        "  end\n"
        "  return k\n"
        "end }\n");
    LuaPolicy p(config(Hook::order, path));
    UsageBook book;
    book.started(1, 2, 0, 0);             // user 1: 2 processors from 0
    book.started(2, 4, 0, 0);             // user 2: 4 from 0 ...
    book.stopped(2, 4, 10 * kSecond);     // ... to 10: 40 processor-seconds
    book.started(1, 1, 0, 20 * kSecond);  // user 1, adopted: 1 more from 0
    const JobBatch b = make_batch({{1, 1, 100, 0, 1}, {2, 1, 100, 0, 2}, {3, 1, 100, 0, 7}});
    CHECK(keys_of(p, b, with_book(book, 100 * kSecond)) == Keys{2e6 + 3000 + 300, 40, 0});
    // A call that does not read the tables, then one that does: no stale value.
    CHECK(keys_of(p, b, make_ctx(0)) == Keys{0, 0, 0});
    CHECK(keys_of(p, b, with_book(book, 200 * kSecond)) == Keys{2e6 + 3000 + 600, 40, 0});
    book.stopped(1, 2, 200 * kSecond);
    book.stopped(1, 1, 200 * kSecond);
    CHECK(keys_of(p, b, with_book(book, 300 * kSecond)) == Keys{600, 40, 0});
}

TEST_CASE("per-user tables: zero without records, nil for other keys, read-only, pairs",
          "[lua][usage]") {
    TempDir dir;
    const std::string path = dir.write(
        "order.lua",
        "return { order = function(jobs, ctx)\n"
        "  if jobs.n == 0 then return {} end\n"
        "  local u = ctx.user_usage\n"
        "  assert(u[5] == 0 and ctx.user_procs[5] == 0 and math.type(ctx.user_procs[5]) == "
        "'integer')\n"
        "  assert(u['5'] == nil and u[1.5] == nil and u.x == nil)\n"
        "  assert(not pcall(function() u[5] = 1 end))\n"
        "  local n, sum = 0, 0\n"
        "  for user, v in pairs(u) do n = n + 1; sum = sum + v end\n"
        "  return { n, sum, ctx.users, ctx.total_usage }\n"
        "end }\n");
    LuaPolicy p(config(Hook::order, path));
    const JobBatch b = make_batch({{1, 1}, {2, 1}, {3, 1}, {4, 1}});
    CHECK(keys_of(p, b, make_ctx(0)) == Keys{0, 0, 0, 0});  // no engine: nobody, nothing
    UsageBook book;
    book.started(3, 1, 0, 0);
    book.started(-1, 2, 0, 0);
    CHECK(keys_of(p, b, with_book(book, 10 * kSecond)) == Keys{2, 30, 2, 30});  // users 3 and -1
}

TEST_CASE("ages marks the order keys as changing with time", "[lua][usage]") {
    TempDir dir;
    const std::string aging =
        dir.write("aging.lua", "return { ages = true, order = function() return {} end }\n");
    const std::string fixed =
        dir.write("fixed.lua", "return { order = function() return {} end }\n");
    CHECK(LuaPolicy(config(Hook::order, aging)).ages(Hook::order));
    CHECK_FALSE(LuaPolicy(config(Hook::order, fixed)).ages(Hook::order));
    // Only the order hook's keys age.
    const std::string both = dir.write("both.lua",
                                       "return { ages = true, order = function() return {} end,\n"
                                       "  backfill_select = function() return nil end }\n");
    CHECK_FALSE(LuaPolicy(config(Hook::backfill_select, both)).ages(Hook::backfill_select));
    const std::string bad =
        dir.write("bad.lua", "return { ages = 'yes', order = function() return {} end }\n");
    REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::order, bad)),
                        Catch::Contains("'ages' must be a boolean, not string"));
}
