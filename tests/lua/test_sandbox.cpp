// What a script can and cannot reach (ARCHITECTURE §5, docs/lua-api.md).
#include <catch2/catch.hpp>
#include <lua.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

namespace {

// Precompiled bytecode, made outside any sandbox.
std::string bytecode_of(const char* source) {
    lua_State* L = luaL_newstate();
    REQUIRE(luaL_loadstring(L, source) == LUA_OK);
    std::string out;
    lua_dump(
        L,
        [](lua_State*, const void* p, size_t n, void* ud) {
            static_cast<std::string*>(ud)->append(static_cast<const char*>(p), n);
            return 0;
        },
        &out, 0);
    lua_close(L);
    return out;
}

}  // namespace

TEST_CASE("forbidden libraries and functions fail the call; the next call works",
          "[lua][sandbox]") {
    std::vector<std::string> log;
    LuaConfig cfg = config(Hook::backfill_select, fixture("sandbox.lua"),
                           {{"bytecode", bytecode_of("return {1}")}});
    cfg.log = [&](std::string_view line) { log.emplace_back(line); };
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 1}, {2, 1}});

    auto attempt = [&](Time mode) {
        std::vector<std::int64_t> picks;
        const HookOutcome bad = p.backfill_select(b, make_ctx(mode), picks);
        CHECK_FALSE(bad.ok);
        CHECK(picks_of(p, b, make_ctx(0)) == Picks{0});
        return bad.error;
    };
    CHECK_THAT(attempt(1), Catch::Contains("global 'io'"));
    CHECK_THAT(attempt(2), Catch::Contains("global 'os'"));
    CHECK_THAT(attempt(3), Catch::Contains("global 'debug'"));
    CHECK_THAT(attempt(4), Catch::Contains("global 'require'"));
    CHECK_THAT(attempt(5), Catch::Contains("attempt to load a binary chunk (mode is 't')"));
    CHECK_THAT(attempt(6), Catch::Contains("field 'dump'"));
    CHECK_THAT(attempt(7), Catch::Contains("field 'dump'"));
    CHECK_THAT(attempt(8), Catch::Contains("global 'dofile'"));
    CHECK_THAT(attempt(9), Catch::Contains("global 'loadfile'"));
    CHECK_THAT(attempt(10), Catch::Contains("global 'collectgarbage'"));
    CHECK_THAT(attempt(11), Catch::Contains("__gc metamethods are not allowed"));
    CHECK_THAT(attempt(12), Catch::Contains("assignment to undeclared global 'leaked_global'"));
    CHECK_THAT(attempt(13), Catch::Contains("the rota table is read-only"));
    CHECK_THAT(attempt(14), Catch::Contains("attempt to index a boolean value"));
    CHECK_THAT(attempt(15), Catch::Contains("global 'package'"));
    CHECK_THAT(attempt(16), Catch::Contains("may only load a string chunk"));

    // print() went to the log sink (once per well-behaved call), not stdout.
    REQUIRE_FALSE(log.empty());
    CHECK(log.front() == "sandbox ok\t0");  // the dry run
    CHECK(log.back() == "sandbox ok\t2");
}

TEST_CASE("a precompiled bytecode file is refused at load", "[lua][sandbox]") {
    TempDir dir;
    const std::string path = dir.write("compiled.lua", bytecode_of("return {}"));
    REQUIRE_THROWS_WITH(
        LuaPolicy(config(Hook::backfill_select, path)),
        Catch::StartsWith(path + ": ") && Catch::Contains("attempt to load a binary chunk"));
}

TEST_CASE("scripts do not share globals or libraries", "[lua][sandbox]") {
    TempDir dir;
    const std::string a = dir.write("a.lua", R"(
        string.upper = nil                    -- only this script's copy
        return { order = function(jobs)
            local k = {}
            for i = 1, jobs.n do k[i] = 1 end
            return k
        end }
    )");
    const std::string b = dir.write("b.lua", R"(
        return { backfill_select = function(c)
            return c.n > 0 and string.upper("x") == "X" and ("y"):upper() == "Y" and 1 or nil
        end }
    )");
    LuaConfig cfg = config(Hook::order, a);
    cfg.hooks.push_back({Hook::backfill_select, LuaHookConfig{b, {}}});
    LuaPolicy p(cfg);
    CHECK(picks_of(p, make_batch({{1, 1}}), make_ctx()) == Picks{0});
}

TEST_CASE("rawset cannot write past the read-only rota table or a locked environment",
          "[lua][sandbox]") {
    TempDir dir;
    const std::string path = dir.write("rawset.lua", R"(
defined_at_load = 1
rawset(_ENV, "also_at_load", 2)  -- the chunk may still define globals
local attempts = {
  [1] = function() rawset(rota, "version", "hacked") end,
  [2] = function() rawset(rota, "new_field", 1) end,
  [3] = function() rawset(_ENV, "leaked_global", 1) end,
  [4] = function() local env = _ENV; rawset(env, 42, true) end,
}
return { backfill_select = function(c, ctx)
  local attempt = attempts[ctx.now]
  if attempt then attempt() return nil end
  -- What stays allowed: a global the chunk defined, and rawset elsewhere.
  rawset(_ENV, "defined_at_load", defined_at_load + 1)
  local t = rawset({}, "k", 1)
  assert(t.k == 1 and also_at_load == 2 and rota.version ~= "hacked")
  if c.n > 0 then return { 1 } end
end }
)");
    LuaPolicy p(config(Hook::backfill_select, path));
    const JobBatch b = make_batch({{1, 1}, {2, 1}});
    auto attempt = [&](Time mode) {
        std::vector<std::int64_t> picks;
        const HookOutcome bad = p.backfill_select(b, make_ctx(mode), picks);
        CHECK_FALSE(bad.ok);
        CHECK(picks_of(p, b, make_ctx(0)) == Picks{0});
        return bad.error;
    };
    CHECK_THAT(attempt(1), Catch::Contains("rawset: the rota table is read-only"));
    CHECK_THAT(attempt(2), Catch::Contains("rawset: the rota table is read-only"));
    CHECK_THAT(attempt(3),
               Catch::Contains("rawset: assignment to undeclared global 'leaked_global'"));
    CHECK_THAT(attempt(4), Catch::Contains("rawset: assignment to undeclared global '42'"));
}
