// Loading scripts: path resolution and load errors that name the place.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "engine/error.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

TEST_CASE("relative paths: search path first, shipped policies last", "[lua][loading]") {
    TempDir site, other;
    SECTION("a shipped policy by its relative name") {
        LuaPolicy p(config(Hook::backfill_select, "backfill/first_fit.lua"));
        CHECK(p.resolved_path(Hook::backfill_select) == shipped("backfill/first_fit.lua"));
        CHECK(p.resolved_path(Hook::order).empty());
    }
    SECTION("a site file shadows the shipped one; dirs are tried in order") {
        const std::string mine =
            site.write("backfill/first_fit.lua", "return { backfill_select = function() end }\n");
        LuaConfig cfg = config(Hook::backfill_select, "backfill/first_fit.lua");
        cfg.search_path = {other.path().string(), site.path().string()};
        LuaPolicy p(cfg);
        CHECK(p.resolved_path(Hook::backfill_select) == mine);
        CHECK(picks_of(p, make_batch({{1, 1}}), make_ctx()).empty());
    }
    SECTION("an absolute path is taken as is") {
        LuaPolicy p(config(Hook::order, shipped("order/sjf.lua")));
        CHECK(p.resolved_path(Hook::order) == shipped("order/sjf.lua"));
    }
}

TEST_CASE("a missing file names the path and the directories tried", "[lua][loading]") {
    TempDir site;
    LuaConfig cfg = config(Hook::backfill_select, "backfill/nope.lua");
    cfg.search_path = {site.path().string()};
    try {
        LuaPolicy p(cfg);
        FAIL("loaded a missing file");
    } catch (const Error& e) {
        CHECK(e.code() == Errc::script);
        CHECK_THAT(e.what(), Catch::Contains("'backfill/nope.lua' not found") &&
                                 Catch::Contains(site.path().string()) &&
                                 Catch::Contains(ROTA_POLICY_DIR));
    }
    REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::order, "/no/such/dir/x.lua")),
                        Catch::Contains("'/no/such/dir/x.lua' not found"));
    // A directory where the file should be says so, found or not by search.
    std::filesystem::create_directories(site.path() / "backfill" / "dir.lua");
    REQUIRE_THROWS_WITH(
        LuaPolicy(config(Hook::order, (site.path() / "backfill" / "dir.lua").string())),
        Catch::EndsWith("dir.lua' is a directory, not a file"));
    LuaConfig in_dir = config(Hook::backfill_select, "backfill/dir.lua");
    in_dir.search_path = {site.path().string()};
    REQUIRE_THROWS_WITH(LuaPolicy(in_dir), Catch::Contains("'backfill/dir.lua' is a directory"));
    // A pipe or a device is not opened (a FIFO would hang the load, /dev/zero
    // fill memory): each says what it is.
    const auto fifo = site.path() / "backfill" / "fifo.lua";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::order, fifo.string())),
                        Catch::EndsWith("fifo.lua' is a pipe, not a file"));
    LuaConfig in_fifo = config(Hook::backfill_select, "backfill/fifo.lua");
    in_fifo.search_path = {site.path().string()};
    REQUIRE_THROWS_WITH(LuaPolicy(in_fifo), Catch::Contains("'backfill/fifo.lua' is a pipe ("));
    REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::order, "/dev/zero")),
                        Catch::EndsWith("'/dev/zero' is a device, not a file"));
}

TEST_CASE("load errors carry file and line", "[lua][loading]") {
    auto load_error = [](Hook h, const std::string& file) -> std::string {
        try {
            LuaPolicy p(config(h, fixture(file)));
        } catch (const Error& e) {
            CHECK(e.code() == Errc::script);
            return e.what();
        }
        FAIL("loaded " << file);
        return {};
    };
    CHECK_THAT(load_error(Hook::backfill_select, "syntax_error.lua"),
               Catch::StartsWith(fixture("syntax_error.lua") + ":5: unexpected symbol near 'end'"));
    CHECK(load_error(Hook::backfill_select, "load_error.lua") ==
          fixture("load_error.lua") + ":3: cannot start: x is 1");
    CHECK(load_error(Hook::backfill_select, "not_a_table.lua") ==
          fixture("not_a_table.lua") +
              ": the script must return a table of hook functions, not number");
    CHECK(
        load_error(Hook::backfill_select, "no_hook.lua") ==
        fixture("no_hook.lua") +
            ": hook backfill_select: the script returns no 'backfill_select' function (found nil)");
    CHECK_THAT(
        load_error(Hook::backfill_select, "load_loop.lua"),
        Catch::StartsWith(fixture("load_loop.lua") + ": instruction budget of 10000000 exceeded"));
    CHECK_THAT(load_error(Hook::backfill_select, "streams_unknown_hook.lua"),
               Catch::Contains("'streams' names no hook 'backfil_select'"));
    CHECK_THAT(load_error(Hook::backfill_select, "streams_order.lua"),
               Catch::Contains("hook 'order' cannot stream (only backfill_select can)"));
    CHECK_THAT(load_error(Hook::backfill_select, "streams_not_boolean.lua"),
               Catch::Contains("'streams' must map hook names to booleans"));
    CHECK_THAT(load_error(Hook::backfill_select, "dry_run_fails.lua"),
               Catch::Contains("dry run") &&
                   Catch::Contains(fixture("dry_run_fails.lua") + ":2: not ready: n is 0"));
}

TEST_CASE("bad limits and duplicate hooks are config errors", "[lua][loading]") {
    LuaConfig cfg = config(Hook::order, "order/fcfs.lua");
    cfg.instruction_budget = -1;  // 0 is "no budget"
    REQUIRE_THROWS_AS(LuaPolicy(cfg), Error);
    cfg.instruction_budget = 1000;
    cfg.hooks.push_back(cfg.hooks.front());
    try {
        LuaPolicy p(cfg);
        FAIL("accepted a hook twice");
    } catch (const Error& e) {
        CHECK(e.code() == Errc::config);
    }
}
