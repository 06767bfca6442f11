// Every way a hook call can break fails that call with a clear message, and
// the next call on the same LuaPolicy works (ARCHITECTURE §5).
#include <catch2/catch.hpp>

#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

namespace {

LuaConfig fault_config(Hook h) {
    LuaConfig cfg = config(h, fixture("faults.lua"));
    cfg.instruction_budget = 1'000'000;
    cfg.memory_limit = 8u << 20;
    return cfg;
}

const JobBatch kBatch = make_batch({{1, 2}, {2, 4}, {3, 8}});

// Calls backfill_select in fault `mode`, then in mode 0 (well behaved).
std::string backfill_fault(LuaPolicy& p, Time mode) {
    std::vector<std::int64_t> picks{99};
    const HookOutcome bad = checked_backfill(p, kBatch, make_ctx(mode), picks);
    CHECK_FALSE(bad.ok);
    CHECK(picks.empty());
    const HookOutcome good = checked_backfill(p, kBatch, make_ctx(0), picks);
    CHECK(good.ok);
    CHECK(good.error.empty());
    CHECK(picks == Picks{0, 1, 2});
    return bad.error;
}

}  // namespace

TEST_CASE("a runtime error fails the call with file:line: message", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    const std::string file = fixture("faults.lua");
    CHECK(backfill_fault(p, 1) == "backfill_select: " + file + ":13: boom");
    CHECK_THAT(backfill_fault(p, 9),
               Catch::StartsWith("backfill_select: " + file + ":21: attempt to index a nil"));
    CHECK(backfill_fault(p, 10) ==
          "backfill_select: " + file + ":22: (error object is a table value)");
    CHECK(backfill_fault(p, 11) == "backfill_select: " + file + ":23: no position");
}

TEST_CASE("an endless loop runs out of the instruction budget", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    const std::string err = backfill_fault(p, 2);
    CHECK_THAT(err, Catch::StartsWith("backfill_select: instruction budget of 1000000 exceeded"));
    CHECK_THAT(err, Catch::Contains("faults.lua:14"));
    SECTION("even when the script catches the budget error with pcall") {
        CHECK_THAT(backfill_fault(p, 12),
                   Catch::StartsWith("backfill_select: instruction budget of 1000000 exceeded"));
    }
    SECTION("even when an xpcall handler loops once the budget is out") {
        CHECK_THAT(backfill_fault(p, 21),
                   Catch::StartsWith("backfill_select: instruction budget of 1000000 exceeded"));
    }
    SECTION("or when an xpcall handler loops on an ordinary error") {
        CHECK_THAT(backfill_fault(p, 22),
                   Catch::StartsWith("backfill_select: instruction budget of 1000000 exceeded"));
    }
    SECTION("while a handler within the budget still runs") {
        CHECK_THAT(backfill_fault(p, 23), Catch::EndsWith("faults.lua:50: xy"));
    }
    SECTION("or catches memory errors in a loop") {
        CHECK_THAT(backfill_fault(p, 13),
                   Catch::StartsWith("backfill_select: instruction budget of 1000000 exceeded"));
    }
}

TEST_CASE("a call whose few instructions run long in C is stopped by the time limit",
          "[lua][faults]") {
    // Each string.upper of 4 MB takes milliseconds: the budget of 10^9
    // instructions would allow hours; the time limit stops the call.
    TempDir dir;
    const std::string script = dir.write("slow_c.lua",
                                         "local big = ('x'):rep(1024):rep(4 * 1024)\n"
                                         "return { backfill_select = function(c)\n"
                                         "  if c.n == 0 then return nil end\n"
                                         "  while true do local u = big:upper() end\nend }");
    LuaConfig cfg = config(Hook::backfill_select, script);
    cfg.instruction_budget = 1'000'000'000;
    cfg.time_limit = 0.2;
    LuaPolicy p(cfg);
    std::vector<std::int64_t> picks;
    const HookOutcome o = checked_backfill(p, kBatch, make_ctx(), picks);
    REQUIRE_FALSE(o.ok);
    CHECK_THAT(o.error, Catch::StartsWith("backfill_select: time limit of 0.2 s exceeded (at ") &&
                            Catch::Contains("slow_c.lua:4"));
    // The next call gets its whole time again.
    const HookOutcome again = checked_backfill(p, kBatch, make_ctx(), picks);
    CHECK_THAT(again.error, Catch::StartsWith("backfill_select: time limit of 0.2 s exceeded"));
}

TEST_CASE("a memory bomb hits the memory cap and the state stays usable", "[lua][faults]") {
    LuaConfig cfg = fault_config(Hook::backfill_select);
    cfg.instruction_budget = 100'000'000;  // let the cap, not the budget, stop it
    LuaPolicy p(cfg);
    for (int round = 0; round < 3; ++round) {
        CHECK(backfill_fault(p, 3) ==
              "backfill_select: memory limit of 8388608 bytes exceeded in " +
                  fixture("faults.lua"));
    }
}

TEST_CASE("invalid backfill_select answers fail the call", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    const std::string prefix =
        "backfill_select: " + fixture("faults.lua") + " returned an invalid answer: ";
    CHECK(backfill_fault(p, 4) ==
          prefix + "a string; expected an array of candidate indices, an index or nil");
    CHECK(backfill_fault(p, 5) ==
          prefix + "index 4 is outside the candidates 1..3 (at position 1)");
    CHECK(backfill_fault(p, 6) == prefix + "index 1 appears twice (at position 2)");
    CHECK(backfill_fault(p, 7) == prefix + "index 1.5 is not an integer (at position 1)");
    CHECK(backfill_fault(p, 8) ==
          prefix + "index 0 is outside the candidates 1..3 (at position 1)");
    CHECK(backfill_fault(p, 15) ==
          prefix + "a string where a candidate index was expected (at position 2)");
    CHECK(backfill_fault(p, 20) == prefix +
                                       "index -9223372036854775808 is outside the "
                                       "candidates 1..3 (at position 2)");
}

TEST_CASE("runaway recursion fails the call", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    CHECK_THAT(backfill_fault(p, 17), Catch::Contains("stack overflow") ||
                                          Catch::Contains("memory limit of 8388608 bytes"));
    CHECK_THAT(backfill_fault(p, 18), Catch::Contains("stack overflow"));
}

TEST_CASE("a script that damages its batch tables does not break the next call", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    CHECK_THAT(backfill_fault(p, 14), Catch::EndsWith("vandal"));
    CHECK_THAT(backfill_fault(p, 16), Catch::EndsWith("ctx is read-only"));
    CHECK_THAT(backfill_fault(p, 19), Catch::EndsWith("the batch is read-only"));
}

TEST_CASE("invalid admission answers fail the call", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::admission));
    const std::string prefix =
        "admission: " + fixture("faults.lua") + " returned an invalid answer: ";
    auto fault = [&](Time mode) {
        std::vector<Admission> out;
        const HookOutcome bad = checked_admission(p, kBatch, make_ctx(mode), out);
        CHECK_FALSE(bad.ok);
        const HookOutcome good = checked_admission(p, kBatch, make_ctx(0), out);
        CHECK(good.ok);
        REQUIRE(out.size() == 3);
        CHECK(out[2].kind == AdmissionKind::accept);
        return bad.error;
    };
    CHECK_THAT(fault(1),
               Catch::StartsWith(prefix +
                                 "a reject without a non-empty reason for the job at position 1"));
    CHECK_THAT(fault(2),
               Catch::StartsWith(prefix +
                                 "a reject without a non-empty reason for the job at position 1"));
    CHECK_THAT(fault(3),
               Catch::StartsWith(prefix +
                                 "a reject without a non-empty reason for the job at position 1"));
    CHECK_THAT(fault(4),
               Catch::StartsWith(prefix + "the decision \"maybe\" for the job at position 1"));
    CHECK_THAT(fault(5),
               Catch::StartsWith(prefix + "a boolean as the decision for the job at position 1"));
    CHECK(fault(6) == prefix + "a nil; expected a table of decisions");
    CHECK_THAT(fault(7),
               Catch::StartsWith(prefix + "a number as the decision for the job at position 1"));
    CHECK(fault(8) == prefix +
                          "a string where an engine time in microseconds was expected (for the job "
                          "at position 1)");
    CHECK(fault(9) == prefix + "hold time 1.5 is not an integer (for the job at position 1)");
    // Ambiguous answers, and answers for some other batch, fail too.
    CHECK(fault(11) == prefix +
                           "both reject and hold in the decision for the job at position 2; "
                           "expected one of them");
    CHECK(fault(12) == prefix +
                           "an unknown key reason in the decision for the job at position 1; "
                           "expected {reject = \"reason\"} or {hold = time}");
    CHECK(fault(13) == prefix + "a key 4 in a table of decisions for 3 (expected keys 1..3)");
    CHECK(fault(14) == prefix + "a key hold in a table of decisions for 3 (expected keys 1..3)");
    CHECK(fault(15) ==
          prefix + "a key of type table in a table of decisions for 3 (expected keys 1..3)");
    CHECK(fault(16) == prefix +
                           "hold time 9223372036854775806 for the job at position 1 is beyond the "
                           "time axis (at most 2305843009213693951 us; \"hold\" holds without a "
                           "time)");
    // Holding until a time is an answer, up to the axis's last instant.
    std::vector<Admission> out;
    REQUIRE(checked_admission(p, kBatch, make_ctx(17), out).ok);
    CHECK((out[0].kind == AdmissionKind::hold && out[0].until == kForever));
    CHECK((out[1].kind == AdmissionKind::hold && out[1].until == kTimeAxisEnd));
    REQUIRE(checked_admission(p, kBatch, make_ctx(10), out).ok);
    REQUIRE(out.size() == 3);
    CHECK((out[0].kind == AdmissionKind::hold && out[0].until == 7));
    CHECK((out[1].kind == AdmissionKind::hold && out[1].until == kForever));
    CHECK((out[2].kind == AdmissionKind::reject && out[2].reason == "no"));
}

TEST_CASE("invalid order answers fail the call", "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::order));
    const std::string prefix = "order: " + fixture("faults.lua") + " returned an invalid answer: ";
    auto fault = [&](Time mode) {
        std::vector<double> keys;
        const HookOutcome bad = checked_order(p, kBatch, make_ctx(mode), keys);
        CHECK_FALSE(bad.ok);
        const HookOutcome good = checked_order(p, kBatch, make_ctx(0), keys);
        CHECK(good.ok);
        CHECK(keys == std::vector<double>{0, 0, 0});
        return bad.error;
    };
    CHECK(fault(1) == prefix + "0 keys for 3 jobs");
    CHECK(fault(2) == prefix + "NaN as the key of the job at position 1");
    CHECK(fault(5) == prefix + "inf as the key of the job at position 1");
    CHECK(fault(3) == prefix + "a string as the key of the job at position 1; expected a number");
    CHECK(fault(4) == prefix + "a number; expected an array of sort keys");
    CHECK(fault(6) == prefix + "a key foo in a table of sort keys for 3 (expected keys 1..3)");
    CHECK(fault(7) == prefix + "a key 1003 in a table of sort keys for 3 (expected keys 1..3)");
    CHECK(fault(8) == prefix + "a key 0 in a table of sort keys for 3 (expected keys 1..3)");
}

TEST_CASE("every column of a batch holds n values, whatever the script read before",
          "[lua][faults]") {
    LuaPolicy p(fault_config(Hook::backfill_select));
    // A long batch, then a short one: the columns are reused, and the
    // well-behaved mode asserts #c.user == c.n and #c.procs == c.n.
    std::vector<JobRow> rows;
    for (int i = 0; i < 50; ++i) rows.push_back({i, 1});
    const JobBatch big = make_batch(rows);
    CHECK(picks_of(p, big, make_ctx()).size() == 50);
    CHECK(picks_of(p, kBatch, make_ctx()) == Picks{0, 1, 2});
}
