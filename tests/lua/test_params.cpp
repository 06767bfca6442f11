// The params table: the script's defaults overlaid with the config's params.
#include <catch2/catch.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;

TEST_CASE("params are the defaults overlaid with the config", "[lua][params]") {
    const JobBatch b =
        make_batch({{1, 3, 100, 0, 1, 2}, {2, 6, 100, 0, 0, 5}, {3, 2, 100, 0, 1, 1}});
    std::vector<Admission> out;
    std::vector<double> keys;
    SECTION("defaults alone") {
        LuaPolicy p(config(Hook::admission, fixture("multi.lua")));
        REQUIRE(p.admission(b, make_ctx(), out).ok);
        CHECK(out[0].kind == AdmissionKind::accept);
        CHECK(out[1].kind == AdmissionKind::reject);
        CHECK(out[1].reason == "multi: too wide");  // limit 4, label "multi"
        CHECK(out[2].kind == AdmissionKind::accept);
    }
    SECTION("config params override some defaults, the rest stay") {
        LuaPolicy p(config(Hook::admission, fixture("multi.lua"),
                           {{"limit", std::int64_t{2}}, {"label", std::string("site")}}));
        REQUIRE(p.admission(b, make_ctx(), out).ok);
        CHECK(out[0].kind == AdmissionKind::reject);
        CHECK(out[0].reason == "site: too wide");
        CHECK(out[1].reason == "site: too wide");
        CHECK(out[2].kind == AdmissionKind::accept);
    }
    SECTION("each hook of one file gets its own params") {
        LuaConfig cfg = config(Hook::admission, fixture("multi.lua"), {{"limit", std::int64_t{8}}});
        cfg.hooks.push_back({Hook::order, LuaHookConfig{fixture("multi.lua"), {{"weight", 2.0}}}});
        cfg.hooks.push_back(
            {Hook::backfill_select, LuaHookConfig{fixture("multi.lua"), {{"strict", true}}}});
        LuaPolicy p(cfg);
        REQUIRE(p.admission(b, make_ctx(), out).ok);
        CHECK(out[0].kind == AdmissionKind::accept);
        CHECK(out[1].kind == AdmissionKind::hold);  // user 0, and 6 <= 8
        REQUIRE(p.order(b, make_ctx(), keys).ok);
        CHECK(keys == std::vector<double>{-4, -10, -2});
        CHECK(picks_of(p, b, make_ctx()).empty());  // strict = true
    }
}

TEST_CASE("params keep their types", "[lua][params]") {
    LuaPolicy p(config(Hook::admission, fixture("echo_params.lua"),
                       {{"a", std::int64_t{3}},
                        {"b", 2.5},
                        {"c", std::string("text")},
                        {"d", false},
                        {"e", 4.0}}));
    std::vector<Admission> out;
    REQUIRE(p.admission(make_batch({{1, 1}}), make_ctx(), out).ok);
    CHECK(out[0].reason == "a=3:integer,b=2.5:float,c=text:nil,d=false:nil,e=4.0:float");
}

TEST_CASE("a param the script does not declare is a load error", "[lua][params]") {
    REQUIRE_THROWS_WITH(
        LuaPolicy(
            config(Hook::backfill_select, "backfill/fpfs.lua", {{"max_jump", std::int64_t{3}}})),
        Catch::Contains("fpfs.lua: hook backfill_select: unknown param 'max_jump'") &&
            Catch::Contains("max_jumps"));
}

TEST_CASE("a param of another type than its default is a load error", "[lua][params]") {
    REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::backfill_select, "backfill/fpfs.lua",
                                         {{"max_jumps", std::string("ten")}})),
                        Catch::Contains("param 'max_jumps' must be a number like its default"));
}
