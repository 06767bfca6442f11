// What loading a script may take: a policy script is read whole only up to
// a bound (16 MiB, and never more than the state's memory), from a regular
// file; a reload that fails for it, or runs out of memory, keeps the
// running policies; a script that is not found gives a bounded message
// (docs/lua-api.md, "Configuration" and "Hot reload"; docs/reliability.md).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>

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

// A valid script of about `bytes` bytes: comments after the code.
std::string padded(int index, std::size_t bytes) {
    std::string s = picking(index);
    const std::string line = "-- " + std::string(76, 'x') + "\n";
    while (s.size() < bytes) s += line;
    return s;
}

const JobBatch kBatch = make_batch({{1, 1}, {2, 1}, {3, 1}});

}  // namespace

// Out of memory is planted by replacing operator new, which AddressSanitizer
// owns (it pairs its own allocations with its own frees): under it the test
// of a reload that runs out of memory is left to the plain build.
#ifndef __SANITIZE_ADDRESS__
// The replacement pairs malloc with free, which gcc cannot tell.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
// Allocations of more than this many bytes by operator new fail on this
// thread while it is not 0: an out-of-memory in the middle of a reload.
thread_local std::size_t fail_new_over = 0;
}  // namespace

void* operator new(std::size_t n) {
    if (fail_new_over != 0 && n > fail_new_over) throw std::bad_alloc();
    if (void* p = std::malloc(n != 0 ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
#endif

TEST_CASE("a policy script over 16 MiB is refused at load, naming the bound",
          "[lua][loading][bounds]") {
    TempDir dir;
    const std::string big = dir.write("big.lua", padded(1, (16u << 20) + 100));
    LuaConfig cfg = config(Hook::backfill_select, big);
    cfg.memory_limit = 256u << 20;  // the fixed bound applies however large the state
    try {
        LuaPolicy p(cfg);
        FAIL("loaded a script of 16 MiB and more");
    } catch (const Error& e) {
        CHECK(e.code() == Errc::script);
        const auto size = std::filesystem::file_size(big);
        CHECK_THAT(e.what(),
                   Catch::StartsWith(big + ": the script is " + std::to_string(size) + " bytes") &&
                       Catch::Contains("at most 16777216 bytes"));
    }
    // Just under the bound it loads, and the text counts against the
    // state's memory while it is compiled, not beside it.
    const std::string fits = dir.write("fits.lua", padded(2, (16u << 20) - 100));
    LuaPolicy p(config(Hook::backfill_select, fits));
    CHECK(picks_of(p, kBatch, make_ctx()) == Picks{1});
}

TEST_CASE("a policy script larger than its state's memory limit is refused",
          "[lua][loading][bounds]") {
    TempDir dir;
    const std::string path = dir.write("two_mb.lua", padded(1, 2u << 20));
    LuaConfig cfg = config(Hook::backfill_select, path);
    cfg.memory_limit = 1u << 20;
    REQUIRE_THROWS_WITH(LuaPolicy(cfg), Catch::Contains("at most 1048576 bytes") &&
                                            Catch::Contains("lua.memory_limit_mb"));
    // Under the limit but with the state's own memory, the text is counted:
    // the load fails its memory limit instead of holding the text beside it.
    const std::string near = dir.write("near.lua", padded(1, 1000 * 1024));
    cfg.hooks[0].second.script = near;
    REQUIRE_THROWS_WITH(LuaPolicy(cfg), Catch::Contains("memory limit of 1048576 bytes exceeded"));
}

TEST_CASE("a reload that meets a script grown past the bound keeps the running policies",
          "[lua][reload][bounds]") {
    TempDir dir;
    const std::string path = dir.write("policy.lua", picking(1));
    LuaPolicy p(config(Hook::backfill_select, path));
    REQUIRE(picks_of(p, kBatch, make_ctx()) == Picks{0});
    dir.write("policy.lua", padded(3, 20u << 20));
    try {
        p.reload();
        FAIL("reloaded a script of 20 MiB");
    } catch (const Error& e) {
        CHECK(e.code() == Errc::script);  // what the C ABI counts as a failed reload
        CHECK_THAT(e.what(), Catch::Contains("a policy script may have at most 16777216 bytes"));
    }
    CHECK(picks_of(p, kBatch, make_ctx()) == Picks{0});
    dir.write("policy.lua", picking(2));
    p.reload();
    CHECK(picks_of(p, kBatch, make_ctx()) == Picks{1});
}

#ifndef __SANITIZE_ADDRESS__
TEST_CASE("a reload that runs out of memory fails as a reload and keeps the running policies",
          "[lua][reload][bounds]") {
    TempDir dir;
    const std::string path = dir.write("policy.lua", picking(1));
    LuaPolicy p(config(Hook::backfill_select, path));
    dir.write("policy.lua", padded(2, 2u << 20));
    fail_new_over = 1u << 20;  // the text of the script cannot be held
    try {
        p.reload();
        fail_new_over = 0;
        FAIL("the reload did not run out of memory");
    } catch (const Error& e) {
        fail_new_over = 0;
        // Errc::script: counted in rota_counters.reload_failures, as every
        // failed reload; before, a std::bad_alloc went past the count.
        CHECK(e.code() == Errc::script);
        CHECK_THAT(e.what(), Catch::Contains("out of memory"));
    } catch (...) {
        fail_new_over = 0;
        FAIL("the reload failed with something else than rota::Error");
    }
    CHECK(picks_of(p, kBatch, make_ctx()) == Picks{0});
}
#endif

TEST_CASE("a script not found along a huge search path gives a bounded message",
          "[lua][loading][bounds]") {
    LuaConfig cfg = config(Hook::backfill_select, "backfill/nope.lua");
    for (int i = 0; i < 100'000; ++i)
        cfg.search_path.push_back("/nonexistent/site/policies/directory/number/" +
                                  std::to_string(i));
    try {
        LuaPolicy p(cfg);
        FAIL("loaded a missing script");
    } catch (const Error& e) {
        const std::string what = e.what();
        CHECK(what.size() < 2048);  // 2.4 MB before
        CHECK_THAT(what, Catch::StartsWith("key 'policy.backfill_select.script': policy script "
                                           "'backfill/nope.lua' not found (looked "
                                           "in: /nonexistent/site/policies/directory/number/0, ") &&
                             Catch::Contains(" more directories)"));
    }
    // A name of a megabyte is cut too.
    LuaConfig huge = config(Hook::backfill_select, std::string(1u << 20, 'n') + ".lua");
    REQUIRE_THROWS_WITH(LuaPolicy(huge), Catch::Contains("... (1048580 bytes)"));
    try {
        LuaPolicy p(huge);
    } catch (const Error& e) {
        CHECK(std::string(e.what()).size() < 4096);
    }
}
