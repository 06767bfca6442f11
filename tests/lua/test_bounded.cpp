// Library calls that run in C, where the instruction budget cannot stop
// them (lua/bounded.h): each attack fails its own call quickly instead of
// stalling the scheduler, and ordinary uses are untouched.
#include <time.h>

#include <catch2/catch.hpp>

#include "lua/bounded.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;

namespace {

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Runs `body` as an admission hook of one job at engine time `mode`; the
// script answers "hold" when body returns true, accept otherwise.
HookOutcome run(const std::string& body, Time mode = 0) {
    TempDir dir;
    const std::string path =
        dir.write("attack.lua", "local function attack(ctx)\n" + body +
                                    "\nend\n"
                                    "return { admission = function(jobs, ctx)\n"
                                    "  if jobs.n == 0 then return {} end\n"
                                    "  return { attack(ctx) and 'hold' or 'accept' }\n"
                                    "end }\n");
    LuaPolicy p(config(Hook::admission, path));
    std::vector<Admission> out;
    return checked_admission(p, make_batch({{1, 1}}), make_ctx(mode), out);
}

}  // namespace

TEST_CASE("the worst case of a pattern is counted from its repetitions", "[lua][bounded]") {
    CHECK(lua::pattern_steps("abc", 100) == 101);        // one try per position
    CHECK(lua::pattern_steps("^abc", 100) == 1);         // anchored: one
    CHECK(lua::pattern_steps("a*b", 100) == 101 * 101);  // C(101, 1) per start
    CHECK(lua::pattern_steps("^(.-)(.-)$", 10) == 66);   // C(12, 2)
    CHECK(lua::pattern_steps("%*%+%-", 9) == 10);        // escaped: literals
    CHECK(lua::pattern_steps("[*+-]x", 9) == 10);        // inside a set: members
    CHECK(lua::pattern_steps("[]*]x", 9) == 10);         // ']' first in a set
    CHECK(lua::pattern_steps("^%b()", 9) == 10);         // a balance scans
    CHECK(lua::pattern_steps("^(a)%1", 9) == 10);        // so does a back reference
    CHECK(lua::pattern_steps("^a?b?", 9) == 4);          // two optional items
    CHECK(lua::pattern_steps("^%f[%w]%w+", 9) == 10);    // a frontier does not scan
    // The attack of the hardening issue: five lazy repetitions on 5,000
    // bytes, about 10^19 steps.
    CHECK(lua::pattern_steps("(.-)(.-)(.-)(.-)(.-)b", 5000) > 1e18);
}

TEST_CASE("a pathological pattern fails its call instead of running for hours", "[lua][bounded]") {
    const char* calls[] = {
        "return string.find(string.rep('a', 5000), '(.-)(.-)(.-)(.-)(.-)b')",
        "local s = string.rep('a', 5000) return s:match('(.-)(.-)(.-)(.-)(.-)b')",
        "for x in string.gmatch(string.rep('a', 5000), '(.-)(.-)(.-)(.-)(.-)b') do end",
        "return (string.gsub(string.rep('a', 100000), 'a*a*b', ''))",
    };
    for (const char* body : calls) {
        INFO(body);
        const double t0 = cpu_seconds();
        const HookOutcome r = run(body);
        CHECK(cpu_seconds() - t0 < 10);  // generous: it fails before matching
        CHECK_FALSE(r.ok);
        CHECK_THAT(r.error, Catch::Contains("steps on a") && Catch::Contains("the limit is"));
    }
}

TEST_CASE("string.rep of nothing and table.move of a huge range are bounded", "[lua][bounded]") {
    double t0 = cpu_seconds();
    CHECK(run("return string.rep('', math.maxinteger) == '' and ('x'):rep(0, '') == ''").ok);
    CHECK(run("return string.rep('', math.maxinteger, '') == ''").ok);
    CHECK(cpu_seconds() - t0 < 10);
    t0 = cpu_seconds();
    const HookOutcome move = run("table.move({}, 1, math.maxinteger, 1)");
    CHECK_FALSE(move.ok);
    CHECK_THAT(move.error, Catch::Contains("table.move: ") && Catch::Contains("elements"));
    const HookOutcome neg = run("table.move({}, math.mininteger, -1, 1)");
    CHECK_FALSE(neg.ok);
    CHECK(cpu_seconds() - t0 < 10);
    // A memory cap still stops a large non-empty string.rep.
    CHECK_FALSE(run("return #string.rep('x', 1 << 40) > 0").ok);
}

TEST_CASE("ordinary pattern and library uses are untouched", "[lua][bounded]") {
    CHECK(run(R"lua(
        local t = {}
        for k, v in string.gmatch("interactive=4, debug=4, production=3, standby=1",
                                  "([^,=%s]+)%s*=%s*([^,%s]*)") do t[k] = tonumber(v) end
        assert(t.interactive == 4 and t.production == 3 and t.standby == 1)
        assert(("a.b.c"):find(".", 1, true) == 2)
        assert(string.find("hello world", "o w") == 5)
        assert(("x=1"):match("^(%w+)=(%d+)$") == "x")
        assert(select(2, string.gsub("a,b,,c", ",", ";")) == 3)
        assert(table.concat(table.move({1, 2, 3}, 1, 3, 2), ",") == "1,1,2,3")
        assert(string.rep("ab", 3, "-") == "ab-ab-ab")
        return false
    )lua")
              .ok);
}

TEST_CASE("table.sort runs no comparison out of the budget's reach for long", "[lua][bounded]") {
    const double t0 = cpu_seconds();
    // A thousand copies of one 8 MiB string: each comparison runs over the
    // whole string in C, n log n of them, with no VM instruction between.
    const HookOutcome copies =
        run("local s = ('x'):rep(8 * 2^20) local t = {} for i = 1, 1000 do t[i] = s end "
            "table.sort(t)");
    CHECK_FALSE(copies.ok);
    CHECK_THAT(copies.error, Catch::Contains("table.sort: 1000 elements with strings of up to "
                                             "8388608 bytes could take") &&
                                 Catch::Contains("the limit is 1e+08"));
    // A C function as comparator, or as the elements' __lt, runs every
    // comparison in C; so do the list's own metamethods.
    CHECK_THAT(run("table.sort({3, 1, 2}, math.max)").error,
               Catch::Contains("table.sort: the comparator must be a Lua function"));
    CHECK_THAT(run("local mt = {__lt = rawequal} "
                   "table.sort({setmetatable({}, mt), setmetatable({}, mt)})")
                   .error,
               Catch::Contains("table.sort: element 1 has an __lt that is not a Lua function"));
    CHECK_THAT(run("table.sort(setmetatable({3, 1}, {__index = rawget}))").error,
               Catch::Contains("table.sort: a list with a metatable needs a Lua comparator"));
    CHECK(cpu_seconds() - t0 < 10);
    // What sorts did before still sorts: numbers, short strings, a Lua
    // comparator (the budget reaches it), a Lua __lt, a list with a
    // metatable given a comparator.
    CHECK(run(R"lua(
        local t = {5, 3, 9, 1}
        table.sort(t)
        assert(table.concat(t, ",") == "1,3,5,9")
        local names = {"b", "c", "a"}
        table.sort(names)
        assert(table.concat(names) == "abc")
        table.sort(t, function(a, b) return a > b end)
        assert(t[1] == 9)
        local mt = {__lt = function(a, b) return a.v < b.v end}
        local o = {setmetatable({v = 2}, mt), setmetatable({v = 1}, mt)}
        table.sort(o)
        assert(o[1].v == 1)
        local p = setmetatable({2, 1}, {})
        table.sort(p, function(a, b) return a < b end)
        assert(p[1] == 1)
        local many = {}
        for i = 1, 100000 do many[i] = (i * 7919) % 100003 end
        table.sort(many)
        assert(many[1] <= many[2])
        return false
    )lua")
              .ok);
}
