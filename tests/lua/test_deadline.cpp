// The time limit as a deadline that C code cannot outrun (lua/watchdog.h):
// a call whose instructions each run long inside C is stopped soon after
// its limit, in many engines on many threads at once; a call that ends in
// time is never stopped; and no single block a script allocates is larger
// than the cap, which bounds how long one instruction can run
// (docs/lua-api.md, "Budgets"; docs/reliability.md).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "lua/budget.h"
#include "lua/watchdog.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A backfill_select that runs `body` on every non-empty batch.
std::string script(const std::string& prelude, const std::string& body) {
    return prelude +
           "\nreturn { backfill_select = function(c, ctx)\n"
           "  if c.n == 0 then return nil end\n" +
           body + "\nend }\n";
}

LuaConfig limited(const std::string& path, double time_limit) {
    LuaConfig cfg = config(Hook::backfill_select, path);
    cfg.instruction_budget = 1'000'000'000'000;  // only the time limit stops the bombs
    cfg.time_limit = time_limit;
    return cfg;
}

const JobBatch kBatch = make_batch({{1, 2}, {2, 4}});

// Each upper() of 15 MiB takes about 10 ms in C; between two steps of the
// count hook (1000 instructions) a loop of them ran for seconds: the finding
// this test comes from ("one backfill_select call with time_limit = 0.2 took
// 47.3 s", with 25 MB strings). The string is made in the call, not at
// load, which runs under the time limit too.
const char* kUpperLoop =
    "  local big = ('x'):rep(1024):rep(15 * 1024)\n"
    "  while true do local u = big:upper() end";

}  // namespace

TEST_CASE("a call whose instructions each run long in C stops soon after its time limit",
          "[lua][deadline]") {
    TempDir dir;
    const std::string path = dir.write("bomb.lua", script("", kUpperLoop));
    LuaPolicy p(limited(path, 0.2));
    for (int round = 0; round < 2; ++round) {
        std::vector<std::int64_t> picks;
        const auto t0 = std::chrono::steady_clock::now();
        const HookOutcome o = checked_backfill(p, kBatch, make_ctx(), picks);
        const double took = seconds_since(t0);
        REQUIRE_FALSE(o.ok);
        // Stopped in the loop, or on a busy machine while it made its string.
        CHECK_THAT(o.error,
                   Catch::StartsWith("backfill_select: time limit of 0.2 s exceeded (at ") &&
                       (Catch::Contains("bomb.lua:5") || Catch::Contains("bomb.lua:4")));
        // Generous (the machine is shared): without the watchdog this call
        // ran until its second step of 1000 instructions, over ten seconds.
        CHECK(took < 3.0);
    }
}

TEST_CASE("a script that catches the time limit's error is stopped again at once",
          "[lua][deadline]") {
    TempDir dir;
    const std::string path =
        dir.write("catcher.lua",
                  script("",
                         "  local big = ('x'):rep(1024):rep(15 * 1024)\n"
                         "  for i = 1, 1e9 do pcall(function() local u = big:upper() end) end"));
    LuaPolicy p(limited(path, 0.2));
    std::vector<std::int64_t> picks;
    const auto t0 = std::chrono::steady_clock::now();
    const HookOutcome o = checked_backfill(p, kBatch, make_ctx(), picks);
    REQUIRE_FALSE(o.ok);
    CHECK_THAT(o.error, Catch::StartsWith("backfill_select: time limit of 0.2 s exceeded"));
    CHECK(seconds_since(t0) < 3.0);
}

TEST_CASE("the watchdog stops bombs in many engines on many threads, and only them",
          "[lua][deadline]") {
    TempDir dir;
    const std::string bomb = dir.write("bomb.lua", script("", kUpperLoop));
    // Calls of about 20 ms each, under a limit of 1 s: never stopped.
    const std::string quick =
        dir.write("quick.lua", script("",
                                      "  local s = 0\n  for i = 1, 200000 do s = s + i end\n"
                                      "  return {1}"));
    constexpr int kBombs = 3, kQuick = 2;
    std::vector<std::string> errors(kBombs);
    std::vector<double> took(kBombs);
    std::vector<int> quick_failures(kQuick, 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < kBombs; ++i)
        threads.emplace_back([&, i] {
            LuaPolicy p(limited(bomb, 0.5));
            std::vector<std::int64_t> picks;
            const auto t0 = std::chrono::steady_clock::now();
            errors[i] = checked_backfill(p, kBatch, make_ctx(), picks).error;
            took[i] = seconds_since(t0);
        });
    for (int i = 0; i < kQuick; ++i)
        threads.emplace_back([&, i] {
            LuaPolicy p(limited(quick, 1.0));
            for (int call = 0; call < 40; ++call) {
                std::vector<std::int64_t> picks;
                if (!checked_backfill(p, kBatch, make_ctx(), picks).ok) ++quick_failures[i];
            }
        });
    for (auto& t : threads) t.join();
    for (int i = 0; i < kBombs; ++i) {
        INFO("bomb " << i);
        CHECK_THAT(errors[i], Catch::StartsWith("backfill_select: time limit of 0.5 s exceeded"));
        CHECK(took[i] < 5.0);  // three bombs share two cores with the rest
    }
    for (int i = 0; i < kQuick; ++i) CHECK(quick_failures[i] == 0);
}

TEST_CASE("a call that ends before its time limit is never stopped", "[lua][deadline]") {
    TempDir dir;
    // A few milliseconds a call, in C and in Lua, 100 calls, a limit of
    // 0.1 s: the watchdog times a call from the first tick that sees it,
    // never earlier, so a call it stops ran for at least its limit (on a
    // busy machine some may: the limit is of wall-clock time).
    const std::string path =
        dir.write("short.lua", script("",
                                      "  local u = ('x'):rep(1024):rep(256):upper()\n"
                                      "  for i = 1, 20000 do end\n  return {1}"));
    LuaPolicy p(limited(path, 0.1));
    int stopped = 0;
    for (int call = 0; call < 100; ++call) {
        std::vector<std::int64_t> picks;
        const auto t0 = std::chrono::steady_clock::now();
        const HookOutcome o = checked_backfill(p, kBatch, make_ctx(), picks);
        const double took = seconds_since(t0);
        if (!o.ok) {
            ++stopped;
            CHECK_THAT(o.error, Catch::StartsWith("backfill_select: time limit of 0.1 s"));
            CHECK(took >= 0.1);
        }
    }
    CHECK(stopped < 50);
}

TEST_CASE("no single block a script allocates is larger than the cap", "[lua][deadline]") {
    TempDir dir;
    auto run = [&](const std::string& body, std::size_t memory_limit = 64u << 20) {
        const std::string path = dir.write("blocks.lua", script("", body));
        LuaConfig cfg = limited(path, 10);
        cfg.memory_limit = memory_limit;
        LuaPolicy p(cfg);
        std::vector<std::int64_t> picks;
        return checked_backfill(p, kBatch, make_ctx(), picks);
    };
    CHECK(lua::MemoryBudget::kMinBlock == (16u << 20) + 256);
    // Up to the cap: as before.
    CHECK(run("  local s = ('x'):rep(1024):rep(16 * 1024)\n  return {#s > 0 and 1 or 2}").ok);
    CHECK(run("  local t = {}\n  for i = 1, 500000 do t[i] = i end\n  return {1}").ok);
    // Over it, though within the memory limit: a memory failure of the call.
    for (const char* body :
         {"  local s = string.rep('x', 17 * 1024 * 1024)",
          "  local s = ('x'):rep(9 * 2^20) .. ('y'):rep(9 * 2^20)",
          "  local t = {}\n  for i = 1, 2^21 do t[i] = true end",
          "  local t = table.concat({('x'):rep(9 * 2^20), ('y'):rep(9 * 2^20)})",
          "  local s = string.format('%s%s', ('x'):rep(9 * 2^20), ('y'):rep(9 * 2^20))"}) {
        INFO(body);
        const HookOutcome o = run(body);
        CHECK_FALSE(o.ok);
        CHECK_THAT(o.error, Catch::Contains("memory limit of 67108864 bytes exceeded"));
    }
    // A state given more memory may hold larger blocks: a quarter of it.
    CHECK(run("  local s = string.rep('x', 30 * 1024 * 1024)\n  return {1}", 128u << 20).ok);
    CHECK_FALSE(run("  local s = string.rep('x', 33 * 1024 * 1024)\n  return {1}", 128u << 20).ok);
}

// Not run by CTest: the measurement behind docs/reliability.md ("a call past
// its time limit"). Prints how long each bomb ran past a limit of 0.5 s;
// each makes what it needs in the call (the load runs under the limit too).
//   build/bin/test_lua "[.overrun]"
TEST_CASE("how far past its time limit a call can run", "[.overrun]") {
    TempDir dir;
    struct Bomb {
        const char* name;
        const char* body;
    };
    const Bomb bombs[] = {
        {"upper of 15 MiB", kUpperLoop},
        {"rep of 1 KiB to 15 MiB",
         "  local x = ('x'):rep(1024)\n  while true do local s = x:rep(15 * 1024) end"},
        {"reverse of 15 MiB",
         "  local big = ('x'):rep(1024):rep(15 * 1024)\n"
         "  while true do local u = big:reverse() end"},
        {"== of two equal 15 MiB strings",
         "  local a = ('x'):rep(1024):rep(15 * 1024) local b = a:sub(1, -2) .. 'x'\n"
         "  while true do local e = a == b end"},
        {"< of two 7 MiB strings (strcoll)",
         "  local a = ('x'):rep(1024):rep(7 * 1024) local b = a:sub(1, -2) .. 'y'\n"
         "  while true do local e = a < b end"},
        {"table.concat of 1M pieces",
         "  local t = {} for i = 1, 1000000 do t[i] = 'ab' end\n"
         "  while true do local s = table.concat(t) end"},
        {"table.sort of 1M numbers",
         "  local t = {}\n  for i = 1, 1000000 do t[i] = (i * 7919) % 1000003 end\n"
         "  while true do table.sort(t) end"},
        {"table.sort of 600K strings of 100 bytes (at its bound)",
         "  local t = {}\n  for i = 1, 600000 do t[i] = ('x'):rep(96) .. (i * 7919) % 10007 end\n"
         "  while true do table.sort(t) end"},
        {"load of 15 MiB of code",
         "  local src = ('a=1 '):rep(15 * 2^20 // 4)\n  while true do local f = load(src) end"},
        {"a pattern at its bound (1e8 steps)",
         "  local s = ('a'):rep(9998)\n  while true do local x = s:find('a-b') end"},
    };
    std::printf("%-56s %9s %9s\n", "bomb (time limit 0.5 s), 5 calls each", "call (s)", "past (s)");
    for (const Bomb& b : bombs) {
        const std::string path = dir.write("bomb.lua", script("", b.body));
        LuaPolicy p(limited(path, 0.5));
        double worst = 0;
        for (int round = 0; round < 5; ++round) {
            std::vector<std::int64_t> picks;
            const auto t0 = std::chrono::steady_clock::now();
            const HookOutcome o = checked_backfill(p, kBatch, make_ctx(), picks);
            worst = std::max(worst, seconds_since(t0));
            if (o.ok || o.error.find("time limit") == std::string::npos)
                std::printf("  (%s: %s)\n", b.name, o.error.c_str());
        }
        std::printf("%-56s %9.3f %9.3f\n", b.name, worst, worst - 0.5);
    }
    std::printf("watchdog signal: %d\n", lua::Deadline::signal_number());
}
