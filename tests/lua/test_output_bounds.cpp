// What leaves a script is bounded and printable: print() lines and reject
// reasons reach logs, terminals, JSON and CSV.
#include <catch2/catch.hpp>

#include "lua/text.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;

TEST_CASE("printable: control bytes and invalid UTF-8 are escaped, length bounded",
          "[lua][output]") {
    using rota::lua::printable;
    CHECK(printable("plain text\twith a tab", 100) == "plain text\twith a tab");
    CHECK(printable("two\nlines\r", 100) == "two\\x0Alines\\x0D");
    CHECK(printable("\x1b[31mred", 100) == "\\x1B[31mred");
    CHECK(printable("caf\xc3\xa9 \xe2\x82\xac", 100) ==
          "caf\xc3\xa9 \xe2\x82\xac");  // valid UTF-8 stays
    CHECK(printable("bad \xff\xc3 end", 100) == "bad \\xFF\\xC3 end");
    CHECK(printable("\xed\xa0\x80", 100) == "\\xED\\xA0\\x80");  // a UTF-16 surrogate
    CHECK(printable("\xc0\xaf", 100) == "\\xC0\\xAF");           // overlong
    CHECK(printable(std::string(5000, 'x'), 10) == "xxxxxxxxxx... (5000 bytes)");
}

TEST_CASE("print: lines are escaped and at most 20 a call reach the log", "[lua][output]") {
    TempDir dir;
    const std::string script = dir.write("chatty.lua",
                                         "return { backfill_select = function(c)\n"
                                         "  if c.n == 0 then return nil end\n"
                                         "  print('rota: policy reload succeeded\\nrota: forged')\n"
                                         "  for i = 1, 100 do print('line', i) end\n"
                                         "  return nil\nend }");
    std::vector<std::string> log;
    LuaConfig cfg = config(Hook::backfill_select, script);
    cfg.log = [&](std::string_view line) { log.emplace_back(line); };
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 2}});
    for (int call = 0; call < 3; ++call) {
        log.clear();
        REQUIRE(picks_of(p, b, make_ctx()).empty());
        REQUIRE(log.size() == 21);  // 20 lines and one notice
        CHECK(log[0] == "rota: policy reload succeeded\\x0Arota: forged");
        CHECK(log[19] == "line\t19");
        CHECK_THAT(log[20], Catch::Contains("further lines of this call dropped"));
        for (const auto& l : log) CHECK(l.find('\n') == std::string::npos);
    }
}

TEST_CASE("admission: a huge or binary reject reason is bounded and escaped", "[lua][output]") {
    TempDir dir;
    const std::string script =
        dir.write("reasons.lua",
                  "return { admission = function(jobs)\n"
                  "  local d = {}\n"
                  "  for i = 1, jobs.n do\n"
                  "    if i == 1 then d[i] = {reject = string.rep('x', 16 * 1024 * 1024)}\n"
                  "    else d[i] = {reject = 'bad \\xff byte\\n'} end\n"
                  "  end\n"
                  "  return d\nend }");
    LuaConfig cfg = config(Hook::admission, script);
    cfg.memory_limit = 64 * 1024 * 1024;
    LuaPolicy p(cfg);
    std::vector<Admission> out;
    const JobBatch b = make_batch({{1, 2}, {2, 2}});
    REQUIRE(checked_admission(p, b, make_ctx(), out).ok);
    REQUIRE(out.size() == 2);
    CHECK(out[0].reason.size() < 600);
    CHECK_THAT(out[0].reason, Catch::EndsWith("... (16777216 bytes)"));
    CHECK(out[1].reason == "bad \\xFF byte\\x0A");
}

TEST_CASE("a script's error message is one bounded line in the failure", "[lua][output]") {
    TempDir dir;
    const std::string script =
        dir.write("forge.lua",
                  "local calls = 0\n"
                  "return { backfill_select = function(c)\n"
                  "  if c.n == 0 then return nil end\n"
                  "  calls = calls + 1\n"
                  "  if calls == 1 then error('boom\\nrota: error: FORGED', 0) end\n"
                  "  error(string.rep('x', 4 * 1024 * 1024), 0)\nend }");
    LuaConfig cfg = config(Hook::backfill_select, script);
    LuaPolicy p(cfg);
    const JobBatch b = make_batch({{1, 2}});
    const BackfillContext ctx = make_ctx();
    std::vector<std::int64_t> picks;
    HookOutcome o = p.backfill_select(b, ctx, picks);
    REQUIRE_FALSE(o.ok);
    CHECK_THAT(o.error, Catch::EndsWith("boom\\x0Arota: error: FORGED"));
    CHECK(o.error.find('\n') == std::string::npos);
    o = p.backfill_select(b, ctx, picks);
    REQUIRE_FALSE(o.ok);
    CHECK(o.error.size() < 1200);
    CHECK_THAT(o.error, Catch::Contains("xxx... (41943") && Catch::EndsWith(" bytes)"));
}

TEST_CASE("nil is an answer to an empty batch for every hook", "[lua][output]") {
    TempDir dir;
    for (Hook h : {Hook::admission, Hook::order, Hook::backfill_select}) {
        const std::string script =
            dir.write("nil.lua", std::string("return { ") + hook_name(h) +
                                     " = function(c) if c.n > 0 then error('x') end end }");
        INFO(hook_name(h));
        CHECK_NOTHROW(LuaPolicy(config(h, script)));
    }
}
