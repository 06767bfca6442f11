// Policies in C for every hook (rota_set_policy): a C policy reads the same
// batch and context a Lua script reads, by name, and its answer is checked
// and counted the same way. Each hook's C twin of a shipped Lua policy (or
// of the engine's own rule) gives the identical schedule.
#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "classes_support.h"
#include "sim/generate.h"

using namespace rota::test;

namespace {

std::vector<rota::sim::TraceJob> workload(std::int32_t procs, std::uint64_t seed,
                                          std::int64_t jobs = 400, double load = 0.95) {
    rota::sim::GenerateOptions g;
    g.jobs = jobs;
    g.procs = procs;
    g.load = load;
    g.seed = seed;
    return rota::sim::generate(g);
}

std::map<std::int64_t, std::int64_t> run_on(rota_engine* e,
                                            const std::vector<rota::sim::TraceJob>& jobs) {
    return starts(rota::sim::simulate(e, jobs, {}));
}

// First fit: every candidate, in queue order.
int first_fit(void*, rota_call* c) {
    std::vector<std::int64_t> all(rota_call_rows(c));
    std::iota(all.begin(), all.end(), 0);
    return rota_call_answer(c, all.data(), all.size());
}

// Shortest estimate first (order/sjf.lua): the key is the estimate.
int sjf(void*, rota_call* c) {
    int type = 0;
    const auto* est = static_cast<const std::int64_t*>(rota_call_column(c, "estimate", &type));
    if (type != ROTA_TYPE_INT64) return 1;
    std::vector<double> keys(rota_call_rows(c));
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<double>(est[i]);
    return rota_call_answer_keys(c, keys.data(), keys.size());
}

// [Feitelson97] §4.3's rule, as preempt/lowest_cost.lua: the set of lowest cost.
int lowest_cost(void*, rota_call* c) {
    int type = 0;
    const auto* cost = static_cast<const double*>(rota_call_column(c, "cost", &type));
    const std::size_t n = rota_call_rows(c);
    if (n == 0) return rota_call_answer(c, nullptr, 0);
    std::int64_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
        if (cost[i] < cost[static_cast<std::size_t>(best)]) best = static_cast<std::int64_t>(i);
    return rota_call_answer(c, &best, 1);
}

}  // namespace

TEST_CASE("C policies: backfill_select in C is first_fit.lua, job for job", "[c-policy]") {
    const auto jobs = workload(64, 7);
    auto lua = preset_engine("easy", 64);
    auto c = preset_engine("easy", 64);
    REQUIRE(rota_set_policy(c.get(), ROTA_HOOK_BACKFILL_SELECT, first_fit, nullptr, ROTA_STREAM) ==
            ROTA_OK);
    CHECK(run_on(c.get(), jobs) == run_on(lua.get(), jobs));
    CHECK(hook_stats(c.get(), ROTA_HOOK_BACKFILL_SELECT).calls > 0);
    CHECK(hook_stats(c.get(), ROTA_HOOK_BACKFILL_SELECT).failures == 0);
}

TEST_CASE("C policies: order in C is order/sjf.lua, job for job", "[c-policy]") {
    const auto jobs = workload(64, 8);
    auto lua = preset_engine("easy", 64, 10, "[policy.order]\nscript = \"order/sjf.lua\"\n");
    auto c = preset_engine("easy", 64);
    REQUIRE(rota_set_policy(c.get(), ROTA_HOOK_ORDER, sjf, nullptr, 0) == ROTA_OK);
    CHECK(run_on(c.get(), jobs) == run_on(lua.get(), jobs));
}

TEST_CASE("C policies: preempt in C is the engine's lowest-cost rule", "[c-policy][classes]") {
    const auto jobs = workload(64, 9, 300, 1.2);
    auto plain = engine_from(classes(64));
    auto c = engine_from(classes(64));
    REQUIRE(rota_set_policy(c.get(), ROTA_HOOK_PREEMPT, lowest_cost, nullptr, 0) == ROTA_OK);
    CHECK(run_on(c.get(), jobs) == run_on(plain.get(), jobs));
}

TEST_CASE("C policies: admission reads the batch and rejects with a reason", "[c-policy]") {
    auto e = preset_engine("easy", 8);
    auto wide = [](void*, rota_call* c) {
        int type = 0;
        const auto* procs = static_cast<const std::int32_t*>(rota_call_column(c, "procs", &type));
        if (type != ROTA_TYPE_INT32) return 1;
        for (std::size_t i = 0; i < rota_call_rows(c); ++i)
            if (procs[i] > 4) rota_call_answer_admission(c, i, ROTA_REJECT, "too wide", -1);
        return 0;
    };
    REQUIRE(rota_set_policy(e.get(), ROTA_HOOK_ADMISSION, wide, nullptr, 0) == ROTA_OK);
    for (std::int64_t id : {1, 2}) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.procs = id == 1 ? 2 : 6;
        j.estimate = 10 * kUs;
        j.user = -1;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    std::map<std::int64_t, std::string> rejected;
    bool started = false;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e.get(), &a) == ROTA_OK) {
        if (a.type == ROTA_ACTION_REJECT) rejected[a.job] = a.reason;
        started = started || (a.type == ROTA_ACTION_START && a.job == 1);
    }
    CHECK(started);
    CHECK(rejected[2] == "too wide");
}

TEST_CASE("C policies: the context by field name, as a script reads it", "[c-policy]") {
    struct Seen {
        std::int64_t now = -2, head = -2, shadow = -2;
        double usage = -1;
        std::size_t capacities = 0;
        std::string partition;
        int missing = 0;
    } seen;
    auto look = [](void* ud, rota_call* c) {
        auto& s = *static_cast<Seen*>(ud);
        rota_call_int(c, "now", &s.now);
        rota_call_int(c, "head_id", &s.head);
        rota_call_int(c, "shadow_time", &s.shadow);
        int type = 0;
        rota_call_array(c, "capacity", &type, &s.capacities);
        const char* p = rota_call_string(c, "head_partition");
        s.partition = p ? p : "(null)";
        rota_call_user(c, "user_procs", 3, &s.usage);
        std::int64_t x = 0;
        s.missing = rota_call_int(c, "no_such_field", &x);
        return rota_call_answer(c, nullptr, 0);
    };
    auto e = engine_from(
        "[machine]\nprocs = 4\n[[machine.pools]]\nname = \"mem\"\ncapacity = 10\n"
        "[scheduler]\npreset = \"easy\"\n");
    REQUIRE(rota_set_policy(e.get(), ROTA_HOOK_BACKFILL_SELECT, look, &seen, 0) == ROTA_OK);
    auto submit = [&](std::int64_t id, std::int32_t procs, std::int64_t est, const char* part) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.procs = procs;
        j.estimate = est * kUs;
        j.user = 3;
        j.partition = part;
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit(1, 2, 100, nullptr);
    at(e.get(), 0);
    submit(2, 4, 100, "batch");  // the head, reserved at 100
    submit(3, 1, 10, nullptr);   // a candidate: two nodes are free until 100
    at(e.get(), 5);
    CHECK(seen.now == 5 * kUs);
    CHECK(seen.head == 2);
    CHECK(seen.shadow == 100 * kUs);
    CHECK(seen.capacities == 2);  // processors, then the pool
    CHECK(seen.partition == "batch");
    CHECK(seen.usage == 2);  // user 3 holds job 1's 2 processors
    CHECK(seen.missing == ROTA_ENOTFOUND);
}

TEST_CASE("C policies: a failing C policy is counted and falls back, as a script", "[c-policy]") {
    const auto jobs = workload(32, 11, 200);
    auto fails = [](void*, rota_call*) { return 7; };
    auto bad = [](void*, rota_call* c) {
        const std::int64_t out_of_range = 1'000'000;
        return rota_call_answer(c, &out_of_range, 1);
    };
    // EASY whose backfill always fails is FCFS, job for job.
    auto fcfs = preset_engine("fcfs", 32);
    const auto expected = run_on(fcfs.get(), jobs);
    for (const rota_policy_fn f : {+fails, +bad}) {
        auto e = preset_engine("easy", 32, 10, "[policy]\nquarantine_after = 0\n");
        REQUIRE(rota_set_policy(e.get(), ROTA_HOOK_BACKFILL_SELECT, f, nullptr, 0) == ROTA_OK);
        CHECK(run_on(e.get(), jobs) == expected);
        const rota_hook_stats st = hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT);
        CHECK(st.failures == st.calls);
        CHECK(st.calls > 0);
    }
}

TEST_CASE("C policies: a hook the engine never calls is refused, naming why", "[c-policy]") {
    auto e = preset_engine("easy", 8);
    auto none = [](void*, rota_call*) { return 0; };
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_PREEMPT, none, nullptr, 0) == ROTA_EINVAL);
    CHECK_THAT(std::string(rota_errmsg(e.get())), Catch::Contains("no [classes] table"));
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_HARVEST, none, nullptr, 0) == ROTA_EINVAL);
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_PLACEMENT, none, nullptr, 0) == ROTA_EINVAL);
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_MIGRATION_OPTION, none, nullptr, 0) == ROTA_EINVAL);
    CHECK(rota_set_policy(e.get(), 99, none, nullptr, 0) == ROTA_EINVAL);
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_ORDER, none, nullptr, ROTA_STREAM) == ROTA_EINVAL);
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_ORDER, none, nullptr, 0) == ROTA_OK);
    CHECK(rota_set_policy(e.get(), ROTA_HOOK_ORDER, nullptr, nullptr, 0) == ROTA_OK);  // cleared
}
