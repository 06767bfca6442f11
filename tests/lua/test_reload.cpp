// Hot reload: a new state is built and dry-run aside; only a good one is
// swapped in (ARCHITECTURE §5).
#include <catch2/catch.hpp>

#include "engine/error.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

namespace {

std::string picking(int index) {
    return "return { backfill_select = function(c, ctx, params)\n"
           "  if c.n == 0 then return nil end\n"
           "  return { " +
           std::to_string(index) + " }\nend }\n";
}

}  // namespace

TEST_CASE("reload swaps in changed scripts only when they all work", "[lua][reload]") {
    TempDir dir;
    const std::string path = dir.write("policy.lua", picking(1));
    LuaPolicy p(config(Hook::backfill_select, path));
    const JobBatch b = make_batch({{1, 1}, {2, 1}, {3, 1}});
    REQUIRE(picks_of(p, b, make_ctx()) == Picks{0});

    SECTION("good to good: the behaviour changes") {
        dir.write("policy.lua", picking(3));
        p.reload();
        CHECK(picks_of(p, b, make_ctx()) == Picks{2});
    }
    SECTION("good to syntax error: throws with file and line, old behaviour kept") {
        dir.write("policy.lua", "return { backfill_select = function(c)\n  return {1,\nend }\n");
        try {
            p.reload();
            FAIL("reload accepted a syntax error");
        } catch (const Error& e) {
            CHECK(e.code() == Errc::script);
            CHECK_THAT(e.what(), Catch::StartsWith(path + ":3: "));
        }
        CHECK(picks_of(p, b, make_ctx()) == Picks{0});
    }
    SECTION("good to a script missing the hook: throws, old behaviour kept") {
        dir.write("policy.lua", "return { order = function(jobs) return {} end }\n");
        REQUIRE_THROWS_WITH(
            p.reload(), Catch::Contains(path) && Catch::Contains("no 'backfill_select' function"));
        CHECK(picks_of(p, b, make_ctx()) == Picks{0});
    }
    SECTION("good to a script failing the dry run: throws, old behaviour kept") {
        dir.write("policy.lua", "return { backfill_select = function(c) return {c.n + 1} end }\n");
        REQUIRE_THROWS_WITH(
            p.reload(), Catch::Contains("dry run") && Catch::Contains("1 picks for 0 candidates"));
        CHECK(picks_of(p, b, make_ctx()) == Picks{0});
    }
    SECTION("good to a deleted file: throws, old behaviour kept") {
        std::filesystem::remove(path);
        REQUIRE_THROWS_WITH(p.reload(), Catch::Contains("not found"));
        CHECK(picks_of(p, b, make_ctx()) == Picks{0});
    }
    SECTION("a failed reload does not prevent a later good one") {
        dir.write("policy.lua", "syntax error here");
        REQUIRE_THROWS(p.reload());
        dir.write("policy.lua", picking(2));
        p.reload();
        CHECK(picks_of(p, b, make_ctx()) == Picks{1});
    }
}

TEST_CASE("reload is all or nothing across hooks", "[lua][reload]") {
    TempDir dir;
    const std::string order_path =
        dir.write("order.lua",
                  "return { order = function(j) local k = {} for i = 1, j.n do k[i] = 1 end "
                  "return k end }\n");
    const std::string bf_path = dir.write("bf.lua", picking(1));
    LuaConfig cfg = config(Hook::order, order_path);
    cfg.hooks.push_back({Hook::backfill_select, LuaHookConfig{bf_path, {}}});
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 1}, {2, 1}});

    dir.write("order.lua",
              "return { order = function(j) local k = {} for i = 1, j.n do k[i] = 2 end "
              "return k end }\n");
    dir.write("bf.lua", "return {");  // broken
    REQUIRE_THROWS_WITH(p.reload(), Catch::Contains(bf_path + ":1:"));
    std::vector<double> keys;
    REQUIRE(p.order(b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{1, 1});  // the order change was not swapped in either
}
