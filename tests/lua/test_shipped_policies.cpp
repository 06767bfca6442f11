// The policies shipped in policies/, on small hand-made batches.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "engine/usage.h"
#include "lua_test_util.h"

using namespace rota;
using namespace rota::test;
using Picks = std::vector<std::int64_t>;

TEST_CASE("first_fit starts every candidate in queue order", "[lua][policies]") {
    LuaPolicy p(config(Hook::backfill_select, "backfill/first_fit.lua"));
    CHECK(p.provides(Hook::backfill_select));
    CHECK_FALSE(p.provides(Hook::order));
    const JobBatch b = make_batch({{10, 4}, {11, 8}, {12, 2}, {13, 1}});
    CHECK(picks_of(p, b, make_ctx()) == Picks{0, 1, 2, 3});
    CHECK(picks_of(p, make_batch({}), make_ctx()).empty());
}

TEST_CASE("best_fit greedily picks the widest candidate that still fits", "[lua][policies]") {
    LuaPolicy p(config(Hook::backfill_select, "backfill/best_fit.lua"));
    SECTION("no reservation") {
        // 8 free: 5 (index 1) first, then 3 fits the remaining 3, then nothing.
        const JobBatch b = make_batch({{1, 3}, {2, 5}, {3, 4}, {4, 2}});
        CHECK(picks_of(p, b, make_ctx(0, 8)) == Picks{1, 0});
    }
    SECTION("ties go to queue order") {
        const JobBatch b = make_batch({{1, 2}, {2, 4}, {3, 4}, {4, 4}});
        CHECK(picks_of(p, b, make_ctx(0, 9)) == Picks{1, 2});
    }
    SECTION("candidates too wide for the free processors are skipped") {
        const JobBatch b = make_batch({{1, 16}, {2, 7}});
        CHECK(picks_of(p, b, make_ctx(0, 6)).empty());
    }
    SECTION("a job still running at the shadow time must fit the extra processors") {
        BackfillContext ctx = make_ctx(1000, 10);
        ctx.shadow_time.t = 2000;
        ctx.extra_procs = 2;
        // index 0: 8 procs but ends after the shadow time and 8 > extra: skipped;
        // index 1: 6 procs, ends before the shadow time: taken;
        // index 2: 2 procs, past the shadow time but fits the 2 extra: taken.
        const JobBatch b = make_batch({{1, 8, 5000}, {2, 6, 500}, {3, 2, 5000}, {4, 3, 5000}});
        CHECK(picks_of(p, b, ctx) == Picks{1, 2});
    }
}

TEST_CASE("fpfs lets the head be jumped at most max_jumps times", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}});
    SECTION("default max_jumps is 10") {
        LuaPolicy p(config(Hook::backfill_select, "backfill/fpfs.lua"));
        BackfillContext ctx = make_ctx();
        ctx.head_jumps = 0;
        CHECK(picks_of(p, b, ctx) == Picks{0, 1, 2, 3, 4});
        ctx.head_jumps = 8;
        CHECK(picks_of(p, b, ctx) == Picks{0, 1});
        ctx.head_jumps = 10;
        CHECK(picks_of(p, b, ctx).empty());
        ctx.head_jumps = 12;
        CHECK(picks_of(p, b, ctx).empty());
    }
    SECTION("max_jumps from the config") {
        LuaPolicy p(
            config(Hook::backfill_select, "backfill/fpfs.lua", {{"max_jumps", std::int64_t{3}}}));
        BackfillContext ctx = make_ctx();
        CHECK(picks_of(p, b, ctx) == Picks{0, 1, 2});
        ctx.head_jumps = 2;
        CHECK(picks_of(p, b, ctx) == Picks{0});
    }
    SECTION("FPFS(0) is FCFS: nothing jumps the head") {
        LuaPolicy p(
            config(Hook::backfill_select, "backfill/fpfs.lua", {{"max_jumps", std::int64_t{0}}}));
        CHECK(picks_of(p, b, make_ctx()).empty());
    }
    SECTION("a negative max_jumps is caught by the dry run at load") {
        REQUIRE_THROWS_WITH(LuaPolicy(config(Hook::backfill_select, "backfill/fpfs.lua",
                                             {{"max_jumps", std::int64_t{-1}}})),
                            Catch::Contains("max_jumps must be a non-negative integer"));
    }
}

TEST_CASE("fcfs orders by submit time, sjf by estimate", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 4, 300, 50}, {2, 4, 100, 20}, {3, 4, 200, 20}});
    std::vector<double> keys;
    LuaPolicy fcfs(config(Hook::order, "order/fcfs.lua"));
    REQUIRE(fcfs.order(b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{50, 20, 20});
    LuaPolicy sjf(config(Hook::order, "order/sjf.lua"));
    REQUIRE(sjf.order(b, make_ctx(), keys).ok);
    CHECK(keys == std::vector<double>{300, 100, 200});
}

TEST_CASE("multifactor refuses a bad weight when it is loaded", "[lua][policies]") {
    // The load's dry run passes an empty batch: the check comes before it returns.
    const auto load = [](Params params) {
        LuaPolicy p(config(Hook::order, "order/multifactor.lua", std::move(params)));
    };
    CHECK_THROWS_WITH(load({{"max_age", std::int64_t{0}}}),
                      Catch::Contains("dry run") &&
                          Catch::Contains("max_age must be a positive number of seconds, not 0"));
    CHECK_THROWS_WITH(load({{"max_age", -5.0}}),
                      Catch::Contains("max_age must be a positive number of seconds"));
    CHECK_THROWS_WITH(load({{"weight_priority", std::numeric_limits<double>::infinity()}}),
                      Catch::Contains("weight_priority must be a finite number, not inf"));
    CHECK_THROWS_WITH(load({{"weight_age", -std::numeric_limits<double>::infinity()}}),
                      Catch::Contains("weight_age must be a finite number, not -inf"));
    CHECK_THROWS_WITH(load({{"weight_overdue", std::numeric_limits<double>::quiet_NaN()}}),
                      Catch::Contains("weight_overdue must be a finite number"));
    CHECK_NOTHROW(load({{"favor_small", true}, {"max_wait", std::int64_t{-1}}}));
}

// Scores by hand (weights per unit of each factor, max_age 100 s): job 1
// priority 1, waited 50 s; job 2 priority 0, waited 150 s (capped at 100);
// job 3 priority 0, waited 20 s, 8 of 16 processors. Users 1 and 2 have
// used 300 and 100 processor-seconds of 400, with 2 users: fair share
// 1000 x 2^(-0.75 x 2) and 1000 x 2^(-0.25 x 2); user 3 used none: 1000.
TEST_CASE("multifactor scores priority, age, fair share and size", "[lua][policies]") {
    UsageBook book;
    book.started(1, 3, 0, 0);
    book.started(2, 1, 0, 0);
    BackfillContext ctx = make_ctx(200 * kSecond, 0, 16);
    ctx.users = book.users();
    ctx.total_usage = book.total(100 * kSecond);
    ctx.user_usage = {&book, 100 * kSecond};
    REQUIRE(ctx.total_usage == 400);
    JobBatch b = make_batch({{1, 2, 100, 150 * kSecond, 1, 1},
                             {2, 4, 100, 50 * kSecond, 2, 0},
                             {3, 8, 100, 180 * kSecond, 3, 0}});
    LuaPolicy p(config(Hook::order, "order/multifactor.lua",
                       {{"max_age", std::int64_t{100}},
                        {"weight_priority", std::int64_t{10000}},
                        {"weight_size", std::int64_t{160}}}));
    CHECK(p.ages(Hook::order));
    std::vector<double> keys;
    REQUIRE(checked_order(p, b, ctx, keys).ok);
    const double fs1 = 1000 * std::pow(2.0, -1.5), fs2 = 1000 * std::pow(2.0, -0.5);
    REQUIRE(keys.size() == 3);
    CHECK(keys[0] == Approx(-(10000 + 500 + fs1 + 20)));
    CHECK(keys[1] == Approx(-(1000 + fs2 + 40)));
    CHECK(keys[2] == Approx(-(200 + 1000 + 80)));
    // [Feitelson97]'s first pass: a job past max_wait goes first.
    LuaPolicy overdue(
        config(Hook::order, "order/multifactor.lua", {{"max_wait", std::int64_t{120}}}));
    REQUIRE(checked_order(overdue, b, ctx, keys).ok);
    CHECK(keys[1] < keys[0]);
    CHECK(keys[0] < keys[2]);
    // Under [classes] the class's priority in force counts as a level of
    // its own: job 3, a class of priority 4, goes before job 1's priority 1
    // and class 3.
    b.job_class = {3, 5, 1};
    b.class_priority = {3, 1, 4};
    REQUIRE(checked_order(p, b, ctx, keys).ok);
    CHECK(keys[0] == Approx(-(3e6 + 10000 + 500 + fs1 + 20)));
    CHECK(keys[1] == Approx(-(1e6 + 1000 + fs2 + 40)));
    CHECK(keys[2] == Approx(-(4e6 + 200 + 1000 + 80)));
}

TEST_CASE("accept_all accepts everything", "[lua][policies]") {
    LuaPolicy p(config(Hook::admission, "admission/accept_all.lua"));
    std::vector<Admission> out;
    REQUIRE(p.admission(make_batch({{1, 1}, {2, 1000}}), make_ctx(), out).ok);
    REQUIRE(out.size() == 2);
    CHECK(out[0].kind == AdmissionKind::accept);
    CHECK(out[1].kind == AdmissionKind::accept);
}

TEST_CASE("max_procs rejects jobs wider than the limit, with a reason", "[lua][policies]") {
    const JobBatch b = make_batch({{1, 256}, {2, 300}, {3, 8}});
    std::vector<Admission> out;
    SECTION("default: the machine size") {
        LuaPolicy p(config(Hook::admission, "admission/max_procs.lua"));
        REQUIRE(p.admission(b, make_ctx(0, 256, 256), out).ok);
        REQUIRE(out.size() == 3);
        CHECK(out[0].kind == AdmissionKind::accept);
        CHECK(out[1].kind == AdmissionKind::reject);
        CHECK(out[1].reason == "requests 300 processors; the limit is 256");
        CHECK(out[2].kind == AdmissionKind::accept);
    }
    SECTION("limit from the config") {
        LuaPolicy p(
            config(Hook::admission, "admission/max_procs.lua", {{"max_procs", std::int64_t{64}}}));
        REQUIRE(p.admission(b, make_ctx(0, 256, 256), out).ok);
        CHECK(out[0].kind == AdmissionKind::reject);
        CHECK(out[0].reason == "requests 256 processors; the limit is 64");
        CHECK(out[1].reason == "requests 300 processors; the limit is 64");
        CHECK(out[2].kind == AdmissionKind::accept);
        CHECK(out[2].reason.empty());
    }
}

TEST_CASE("prime_time holds long and large jobs in prime time, worked by hand",
          "[lua][policies][prime]") {
    constexpr Time s = 1'000'000;  // the batch's times are microseconds
    const JobBatch b = make_batch({
        {1, 64, 600 * s},   // large, 10 min: accepted, takes 64 of 100: 36 left
        {2, 64, 601 * s},   // large, over 10 min: held
        {3, 8, 14400 * s},  // small, 4 h, 36 >= 32 available: accepted, 28 left
        {4, 8, 7200 * s},   // small, 2 h, 28 < 32 available: held
        {5, 1, 600 * s},    // any size, 10 min: accepted, 27 left
        {6, 8, 14401 * s},  // small, over 4 h: held
        {7, 128, 60 * s},   // the whole machine, a minute: accepted
    });
    auto decide = [&](Time now, std::int32_t free, Params params = {}) {
        LuaPolicy p(config(Hook::admission, "admission/prime_time.lua", std::move(params)));
        std::vector<Admission> out;
        REQUIRE(checked_admission(p, b, make_ctx(now, free, 128), out).ok);
        REQUIRE(out.size() == b.size());
        std::string held;
        for (std::size_t i = 0; i < out.size(); ++i)
            held += out[i].kind == AdmissionKind::hold ? 'H' : 'a';
        for (const auto& a : out) CHECK(a.kind != AdmissionKind::reject);
        // Held until the end of the prime shift: the engine wakes up then.
        const Time shift = params.empty() ? 43200 * s : 28800 * s;
        const Time origin = params.empty() ? 0 : 14400 * s;
        for (const auto& a : out)
            if (a.kind == AdmissionKind::hold)
                CHECK(a.until == origin + ((now - origin) / shift + 1) * shift);
        return held;
    };
    // Prime time: the shifts [0, 12 h), [24 h, 36 h), ...
    CHECK(decide(0, 100) == "aHaHaHa");
    CHECK(decide(43199 * s, 100) == "aHaHaHa");
    CHECK(decide(86400 * s, 100) == "aHaHaHa");
    // Fewer than 32 available from the start: only 10-minute jobs.
    CHECK(decide(3600 * s, 31) == "aHHHaHa");
    // Non-prime time [12 h, 24 h): everything.
    CHECK(decide(43200 * s, 100) == "aaaaaaa");
    CHECK(decide(86399 * s, 0) == "aaaaaaa");
    // The threshold is inclusive ("more than 32 nodes" are large): a
    // 32-processor job is small.
    {
        LuaPolicy p(config(Hook::admission, "admission/prime_time.lua"));
        std::vector<Admission> out;
        REQUIRE(p.admission(make_batch({{1, 32, 3600 * s}, {2, 33, 3600 * s}}),
                            make_ctx(0, 128, 128), out)
                    .ok);
        CHECK(out[0].kind == AdmissionKind::accept);
        CHECK(out[1].kind == AdmissionKind::hold);
    }
    // Parameters: 8-hour shifts starting at 4 h, a threshold of 8, a
    // 2-minute prime limit, at least 16 free.
    const Params q{{"shift", std::int64_t{28800}},
                   {"start", std::int64_t{14400}},
                   {"threshold", std::int64_t{8}},
                   {"prime_limit", std::int64_t{120}},
                   {"min_free", std::int64_t{16}}};
    CHECK(decide(0, 100, q) == "aaaaaaa");  // [-4 h, 4 h) is non-prime
    // Prime: jobs 1 and 2 are large and over 2 min; 3, 4 and 5 small and
    // at most 4 h, accepted while 16 are available; 6 over 4 h; 7 a minute.
    CHECK(decide(14400 * s, 100, q) == "HHaaaHa");
    CHECK(decide(14400 * s, 30, q) == "HHaaHHa");  // 30, then 22 available; then 14 < 16
    CHECK(decide(14400 * s, 15, q) == "HHHHHHa");  // 15 < 16: only job 7 (1 min)
    CHECK(decide((14400 + 28800) * s, 0, q) == "aaaaaaa");
    // Bad parameters are refused when the script is loaded (its dry run).
    CHECK_THROWS_WITH(LuaPolicy(config(Hook::admission, "admission/prime_time.lua",
                                       {{"shift", std::int64_t{0}}})),
                      Catch::Contains("shift must be a positive integer, not 0"));
}

namespace {

// Three sets: {A} cost 5, {B, C} cost 3, {D} cost 3. A was never
// preempted, B twice, C never, D once.
struct Sets {
    PreemptBatch b;
    PreemptContext ctx;
    Sets() {
        b.procs = {4, 4, 4};
        b.idle = {0, 1, 0};
        b.victims = {1, 2, 1};
        b.first = {1, 2, 4};
        b.cost = {5, 3, 3};
        b.dnd_left = {0, 0, 0};
        ctx.job_id = 9;
        ctx.job_procs = 4;
        ctx.victim_id = {1, 2, 3, 4};
        ctx.victim_procs = {4, 2, 1, 4};
        ctx.victim_preemptions = {0, 2, 0, 1};
        for (auto* v : {&ctx.victim_class, &ctx.victim_priority, &ctx.victim_user,
                        &ctx.victim_dnd_left, &ctx.victim_elapsed})
            v->assign(4, 0);
    }
};

Picks preempt_pick(LuaPolicy& p, const PreemptBatch& b, const PreemptContext& ctx) {
    Picks out;
    const HookOutcome o = p.preempt(b, ctx, out);
    REQUIRE(o.ok);
    REQUIRE(check_preempt(out, b.size()).empty());
    return out;
}

}  // namespace

TEST_CASE("lowest_cost takes the cheapest set, the first on a tie, as the engine does",
          "[lua][policies][preempt]") {
    LuaPolicy p(config(Hook::preempt, "preempt/lowest_cost.lua"));
    Sets s;
    Picks native;
    lowest_cost_set(s.b, native);
    CHECK(preempt_pick(p, s.b, s.ctx) == Picks{1});
    CHECK(native == Picks{1});
    CHECK(preempt_pick(p, PreemptBatch{}, s.ctx).empty());
}

TEST_CASE("least_preempted spares the most preempted victims, up to a cap",
          "[lua][policies][preempt]") {
    Sets s;
    SECTION("no cap: the fewest preemptions of the most preempted victim, then cost") {
        LuaPolicy p(config(Hook::preempt, "preempt/least_preempted.lua"));
        CHECK(preempt_pick(p, s.b, s.ctx) == Picks{0});  // {A}: 0, {B,C}: 2, {D}: 1
        s.ctx.victim_preemptions[0] = 1;                 // now {A} and {D} tie at 1
        CHECK(preempt_pick(p, s.b, s.ctx) == Picks{2});  // {D} is cheaper
    }
    SECTION("a cap rules sets out, and none is an answer") {
        LuaPolicy p(config(Hook::preempt, "preempt/least_preempted.lua",
                           {{"max_preemptions", std::int64_t{1}}}));
        CHECK(preempt_pick(p, s.b, s.ctx) == Picks{0});
        s.ctx.victim_preemptions[0] = 1;
        CHECK(preempt_pick(p, s.b, s.ctx).empty());  // every set has a victim preempted once
    }
}

TEST_CASE("least_preempted refuses a negative or fractional cap when it is loaded",
          "[lua][policies][preempt]") {
    // Read as "no cap" before; the load's dry run (an empty batch) refuses it now.
    const auto load = [](Params params) {
        LuaPolicy p(config(Hook::preempt, "preempt/least_preempted.lua", std::move(params)));
    };
    CHECK_THROWS_WITH(load({{"max_preemptions", std::int64_t{-1}}}),
                      Catch::Contains("dry run") &&
                          Catch::Contains("max_preemptions must be a non-negative integer (0: no "
                                          "cap), not -1") &&
                          Catch::Contains("[policy.preempt]: max_preemptions"));
    CHECK_THROWS_WITH(load({{"max_preemptions", 1.5}}),
                      Catch::Contains("max_preemptions must be a non-negative integer"));
    CHECK_NOTHROW(load({{"max_preemptions", std::int64_t{0}}}));
    CHECK_NOTHROW(load({{"max_preemptions", std::int64_t{3}}}));
}

TEST_CASE("every shipped policy names its paper section", "[lua][policies]") {
    for (const char* name :
         {"backfill/first_fit.lua", "backfill/best_fit.lua", "backfill/fpfs.lua", "order/fcfs.lua",
          "order/sjf.lua", "order/multifactor.lua", "admission/accept_all.lua",
          "admission/max_procs.lua", "admission/prime_time.lua", "preempt/lowest_cost.lua",
          "preempt/least_preempted.lua"}) {
        std::ifstream in(shipped(name));
        REQUIRE(in);
        std::string header, line;
        while (std::getline(in, line) && line.rfind("--", 0) == 0) header += line + "\n";
        INFO(name);
        CHECK_THAT(header, Catch::Contains("§"));
        CHECK_THAT(header, Catch::Contains("Params:"));
    }
}

namespace {

// [Weissman03]'s policies one processor at a time, as the scripts were first
// written: a scan of the whole batch per processor. The scripts now
// water-fill and keep heaps; their answers must stay these.
using Better = bool (*)(const MalleableBatch&, const Picks&, std::size_t, std::size_t);

bool by_turn(const MalleableBatch&, const Picks& g, std::size_t i, std::size_t j) {
    return g[i] < g[j];
}
bool by_share(const MalleableBatch& b, const Picks& g, std::size_t i, std::size_t j) {
    return static_cast<double>(b.procs[i] + g[i]) / b.ideal[i] <
           static_cast<double>(b.procs[j] + g[j]) / b.ideal[j];
}
bool by_harvests(const MalleableBatch& b, const Picks& g, std::size_t i, std::size_t j) {
    if (b.harvests[i] != b.harvests[j]) return b.harvests[i] > b.harvests[j];
    return g[i] < g[j];
}

std::int64_t grow_scan(const MalleableBatch& b, Picks& give, std::int64_t avail, Better better) {
    while (avail > 0) {
        std::size_t best = b.size();
        for (std::size_t i = 0; i < b.size(); ++i)
            if (!b.queued[i] && b.procs[i] + give[i] < b.ideal[i] &&
                (best == b.size() || better(b, give, i, best)))
                best = i;
        if (best == b.size()) break;
        ++give[best];
        --avail;
    }
    return avail;
}

std::int64_t admit_scan(const MalleableBatch& b, Picks& give, std::int64_t avail) {
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (!b.queued[i]) continue;
        if (b.min[i] > avail) break;
        give[i] = std::min<std::int64_t>(avail, b.ideal[i]);
        avail -= give[i];
    }
    return avail;
}

// low_impact_harvest: nullopt when the victims cannot give `need`.
std::optional<Picks> low_impact_scan(const MalleableBatch& v, std::int64_t need) {
    Picks take(v.size(), 0);
    for (; need > 0; --need) {
        std::size_t best = v.size();
        double share = -1;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::int64_t left = v.procs[i] - take[i] - 1;
            const double s = static_cast<double>(left) / v.ideal[i];
            if (left >= v.min[i] && s > share) best = i, share = s;
        }
        if (best == v.size()) return std::nullopt;
        ++take[best];
    }
    return take;
}

MalleableBatch random_malleable(std::mt19937& rng, bool with_queued) {
    static const std::int32_t kIdeals[] = {1, 2, 3, 4, 6, 8, 9, 12, 16, 32, 64, 100, 128};
    MalleableBatch b;
    const int n = std::uniform_int_distribution<int>(0, 40)(rng);
    const bool small = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
    for (int i = 0; i < n; ++i) {
        const std::int32_t ideal =
            small ? std::uniform_int_distribution<std::int32_t>(1, 8)(rng)
                  : kIdeals[std::uniform_int_distribution<std::size_t>(0, 12)(rng)];
        const std::int32_t min = std::uniform_int_distribution<std::int32_t>(1, ideal)(rng);
        const bool queued = with_queued && std::uniform_int_distribution<int>(0, 2)(rng) == 0;
        b.id.push_back(i + 1);
        b.procs.push_back(queued ? 0
                                 : std::uniform_int_distribution<std::int32_t>(min, ideal)(rng));
        b.min.push_back(min);
        b.ideal.push_back(ideal);
        b.queued.push_back(queued ? 1 : 0);
        b.age.push_back(0);
        b.time_left.push_back(0);
        b.harvests.push_back(std::uniform_int_distribution<std::int32_t>(0, 3)(rng));
        b.cost.push_back(0);
        b.progress.push_back(0);
        b.user.push_back(-1);
        b.account.push_back({});
        b.partition.push_back({});
        b.qos.push_back({});
    }
    return b;
}

std::int64_t random_need(std::mt19937& rng) {
    return std::uniform_int_distribution<int>(0, 3)(rng) == 0
               ? std::uniform_int_distribution<std::int64_t>(1, 2000)(rng)
               : std::uniform_int_distribution<std::int64_t>(1, 60)(rng);
}

}  // namespace

TEST_CASE("[Weissman03]'s distributions give what one processor at a time gives",
          "[lua][policies][malleable]") {
    struct Case {
        const char* script;
        const char* harvest;
        bool running_first;
        Better better;
    };
    const Case cases[] = {
        {"distribution/favor_queued.lua", "even", false, by_turn},
        {"distribution/favor_queued.lua", "low_impact", false, by_share},
        {"distribution/favor_running.lua", "even", true, by_turn},
        {"distribution/favor_running.lua", "low_impact", true, by_share},
        {"distribution/favor_running.lua", "fair", true, by_harvests},
    };
    std::mt19937 rng(4);
    for (const Case& c : cases) {
        INFO(c.script << " inverting " << c.harvest);
        LuaPolicy p(config(Hook::distribution, c.script, {{"harvest", std::string(c.harvest)}}));
        for (int t = 0; t < 2000; ++t) {
            const MalleableBatch b = random_malleable(rng, true);
            MalleableContext ctx;
            ctx.needed = static_cast<std::int32_t>(random_need(rng));
            Picks want(b.size(), 0);
            if (c.running_first)
                admit_scan(b, want, grow_scan(b, want, ctx.needed, c.better));
            else
                grow_scan(b, want, admit_scan(b, want, ctx.needed), c.better);
            Picks got;
            REQUIRE(p.distribution(b, ctx, got).ok);
            REQUIRE(got == want);
        }
    }
}

TEST_CASE("low_impact_harvest takes what one processor at a time takes",
          "[lua][policies][malleable]") {
    LuaPolicy p(config(Hook::harvest, "harvest/low_impact.lua"));
    std::mt19937 rng(4);
    for (int t = 0; t < 4000; ++t) {
        const MalleableBatch v = random_malleable(rng, false);
        MalleableContext ctx;
        ctx.needed = static_cast<std::int32_t>(random_need(rng));
        const std::optional<Picks> want = low_impact_scan(v, ctx.needed);
        Picks got;
        REQUIRE(p.harvest(v, ctx, got).ok);
        if (want)
            REQUIRE(got == *want);
        else
            REQUIRE(got.empty());
    }
}
