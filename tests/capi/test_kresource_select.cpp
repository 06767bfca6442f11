// K-resource selection through the C ABI ([Leinberger99] §3-4): the presets
// ff-easy, bl-easy and bb-easy on one hand-worked machine state, what a
// native policy sees of the K resources, and the pool queries.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "support.h"

namespace {

constexpr rota_time kS = 1'000'000;  // one second in engine time

void submit(rota_engine* e, int64_t id, int32_t procs, const int64_t& mem, rota_time estimate) {
    rota_job j{};
    j.size = sizeof(rota_job);
    j.id = id;
    j.procs = procs;
    j.estimate = estimate;
    j.npools = 1;
    j.pools = &mem;
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

std::set<int64_t> started(rota_engine* e) {
    std::set<int64_t> ids;
    rota_action a{};
    a.size = sizeof(rota_action);
    while (rota_next_action(e, &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_START) ids.insert(a.job);
    return ids;
}

std::string machine(const std::string& preset) {
    return "[machine]\nprocs = 100\n[[machine.pools]]\nname = \"memory\"\ncapacity = 100\n"
           "[scheduler]\npreset = \"" +
           preset + "\"\n";
}

// The state of the hand-worked case in tests/lua/test_kresource_policies.cpp:
// job 1 (50 processors, 20 memory, 100 s) runs, so S = (.5, .2); the head
// (job 2: 80 processors) waits for it, reserved at 100 s; candidates 3, 4, 5
// (A, B, C there), of 50 s, of which no two fit together. Returns the jobs
// the second pass starts.
std::set<int64_t> second_pass(rota_engine* e) {
    const int64_t mem[] = {20, 10, 10, 80, 56};
    submit(e, 1, 50, mem[0], 100 * kS);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    REQUIRE(started(e) == std::set<int64_t>{1});
    submit(e, 2, 80, mem[1], 100 * kS);
    submit(e, 3, 40, mem[2], 50 * kS);
    submit(e, 4, 10, mem[3], 50 * kS);
    submit(e, 5, 28, mem[4], 50 * kS);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    return started(e);
}

}  // namespace

TEST_CASE("scenario: FF, BL and BB backfill different jobs ([Leinberger99] §3)",
          "[capi][kresource]") {
    for (const char* ff : {"ff-easy", "easy"}) {
        auto e = rota::test::engine_from(machine(ff));
        CHECK(second_pass(e.get()) == std::set<int64_t>{3});  // A: first in queue order
    }
    auto bl = rota::test::engine_from(machine("bl-easy"));
    CHECK(second_pass(bl.get()) == std::set<int64_t>{4});  // B: fullest on the least used resource
    auto bb = rota::test::engine_from(machine("bb-easy"));
    CHECK(second_pass(bb.get()) == std::set<int64_t>{5});  // C: best balance times fullness
    // The head keeps its reservation at 100 s whichever job was chosen.
    rota_job_info info{};
    info.size = sizeof(info);
    REQUIRE(rota_job_info_get(bb.get(), 2, &info) == ROTA_OK);
    CHECK(info.reserved_start == 100 * kS);
}

TEST_CASE("a preset whose script is the policy refuses another script", "[capi][kresource]") {
    rota_engine* e = nullptr;
    const std::string cfg =
        machine("bb-easy") + "[policy.backfill_select]\nscript = \"backfill/first_fit.lua\"\n";
    CHECK(rota_engine_new(cfg.c_str(), nullptr, &e) == ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(e)).find("set by the preset 'bb-easy'") != std::string::npos);
    rota_engine_free(e);
}

namespace {

struct Seen {
    int32_t batch_resources = 0;
    std::vector<double> R, usage, head, extra;
    std::vector<int64_t> capacity;
};

int record(void* ud, const rota_batch* c, const rota_backfill_context* ctx, uint32_t*) {
    auto* s = static_cast<Seen*>(ud);
    s->batch_resources = c->resources;
    s->R.assign(c->R, c->R + c->n * static_cast<size_t>(c->resources));
    const auto k = static_cast<size_t>(ctx->resources);
    s->capacity.assign(ctx->capacity, ctx->capacity + k);
    s->usage.assign(ctx->usage, ctx->usage + k);
    if (ctx->head_demand) s->head.assign(ctx->head_demand, ctx->head_demand + k);
    if (ctx->extra) s->extra.assign(ctx->extra, ctx->extra + k);
    return 0;  // start nothing
}

}  // namespace

TEST_CASE("a native policy sees R and the K-resource context", "[capi][kresource]") {
    auto e = rota::test::engine_from(machine("easy"));
    Seen seen;
    REQUIRE(rota_set_backfill_select(e.get(), record, &seen, 0) == ROTA_OK);
    (void)second_pass(e.get());
    CHECK(seen.batch_resources == 2);
    // Candidates 3, 4, 5, job-major: (.4, .1), (.1, .8), (.28, .56).
    REQUIRE(seen.R.size() == 6);
    const double want_R[] = {0.4, 0.1, 0.1, 0.8, 0.28, 0.56};
    for (size_t i = 0; i < 6; ++i) CHECK(seen.R[i] == Approx(want_R[i]));
    CHECK(seen.capacity == std::vector<int64_t>{100, 100});
    REQUIRE(seen.usage.size() == 2);
    CHECK(seen.usage[0] == Approx(0.5));
    CHECK(seen.usage[1] == Approx(0.2));
    REQUIRE(seen.head.size() == 2);
    CHECK(seen.head[0] == Approx(0.8));
    CHECK(seen.head[1] == Approx(0.1));
    // At 100 s job 1 gives back (.5, .2) and the head takes (.8, .1).
    REQUIRE(seen.extra.size() == 2);
    CHECK(seen.extra[0] == Approx(0.2));
    CHECK(seen.extra[1] == Approx(0.9));
}

TEST_CASE("rota_job_pools and rota_pool_profile report demands and the pool over time",
          "[capi][kresource]") {
    auto e = rota::test::engine_from(machine("ff-easy"));
    REQUIRE(second_pass(e.get()) == std::set<int64_t>{3});
    int64_t d[2] = {-1, -1};
    size_t n = 0;
    REQUIRE(rota_job_pools(e.get(), 4, d, 2, &n) == ROTA_OK);
    CHECK(n == 1);
    CHECK(d[0] == 80);
    CHECK(rota_job_pools(e.get(), 99, d, 2, &n) == ROTA_ENOTFOUND);
    // Job 1 holds 20 until 100 s, job 3 10 until 50 s, the head's
    // reservation 10 over [100 s, 200 s).
    rota_time t[8];
    int64_t free[8];
    REQUIRE(rota_pool_profile(e.get(), 0, t, free, 8, &n) == ROTA_OK);
    REQUIRE(n == 4);
    CHECK(std::vector<rota_time>(t, t + 4) ==
          std::vector<rota_time>{0, 50 * kS, 100 * kS, 200 * kS});
    CHECK(std::vector<int64_t>(free, free + 4) == std::vector<int64_t>{70, 80, 90, 100});
    CHECK(rota_pool_profile(e.get(), 0, t, free, 2, &n) == ROTA_ERANGE);
    CHECK(n == 4);
    CHECK(rota_pool_profile(e.get(), 1, t, free, 8, &n) == ROTA_EINVAL);
    CHECK(std::string(rota_errmsg(e.get())).find("pool 1 is outside 0..0") != std::string::npos);
}

TEST_CASE("a pool named twice is refused", "[capi][kresource]") {
    rota_engine* e = nullptr;
    const std::string cfg =
        "[machine]\nprocs = 8\n[[machine.pools]]\nname = \"m\"\ncapacity = 10\n"
        "[[machine.pools]]\nname = \"m\"\ncapacity = 1\n";
    CHECK(rota_engine_new(cfg.c_str(), nullptr, &e) == ROTA_ECONFIG);
    CHECK(std::string(rota_errmsg(e)).find("machine.pools[1].name': pool 'm' is given twice") !=
          std::string::npos);
    rota_engine_free(e);
}
