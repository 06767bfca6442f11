// The disciplines composed with the machine's dimensions (docs/config.md,
// "Combinations"): job classes with pools, partitions and a backfill
// policy; each a small schedule worked out by hand from [Feitelson97]
// §4.3's passes. Times in seconds.
#include <map>
#include <string>
#include <vector>

#include "classes_support.h"

using namespace rota::test;

namespace {

void submit_job(rota_engine* e, std::int64_t id, std::int32_t procs, std::int64_t estimate_s,
                std::int32_t cls, std::vector<std::int64_t> pools = {},
                const char* partition = nullptr) {
    rota_job j{};
    j.size = sizeof j;
    j.id = id;
    j.procs = procs;
    j.estimate = estimate_s * kUs;
    j.user = -1;
    j.job_class = cls;
    j.npools = static_cast<int32_t>(pools.size());
    j.pools = pools.empty() ? nullptr : pools.data();
    j.partition = partition;
    INFO(rota_errmsg(e));
    REQUIRE(rota_submit(e, &j) == ROTA_OK);
}

const Act* act(const std::vector<Act>& acts, int type, std::int64_t job) {
    for (const Act& a : acts)
        if (a.type == type && a.job == job) return &a;
    return nullptr;
}

}  // namespace

TEST_CASE("compose: under job classes a preemption frees the victims' pools too",
          "[compose][classes]") {
    // 8 processors and 4 licences. Two standby jobs run, one holding all
    // the licences. An interactive job past its wait (max_wait 0) needs 2
    // processors and 2 licences: the idle processors would do, the
    // licences are job 1's, so the set it gets is job 1 alone, swapped out
    // once its do-not-disturb time (3 s x 2) is over; job 2, which holds
    // none, stays.
    auto e = engine_from(classes(8, "", "[[machine.pools]]\nname = \"lic\"\ncapacity = 4\n"));
    submit_job(e.get(), 1, 2, 1000, kStandby, {4});
    submit_job(e.get(), 2, 2, 1000, kStandby, {0});
    auto acts = at(e.get(), 0);
    CHECK(act(acts, ROTA_ACTION_START, 1));
    CHECK(act(acts, ROTA_ACTION_START, 2));
    submit_job(e.get(), 3, 2, 100, kInteractive, {2});
    acts = at(e.get(), 100);
    CHECK(act(acts, ROTA_ACTION_SWAP_OUT, 1));
    CHECK_FALSE(act(acts, ROTA_ACTION_SWAP_OUT, 2));
    const Act* three = act(acts, ROTA_ACTION_START, 3);
    REQUIRE(three);
    CHECK(three->nodes == act(acts, ROTA_ACTION_SWAP_OUT, 1)->nodes);  // the set: job 1's
    CHECK(info(e.get(), 1).state == ROTA_JOB_QUEUED);
    CHECK(info(e.get(), 2).state == ROTA_JOB_RUNNING);
}

TEST_CASE(
    "compose: under job classes a job waits for the pool it needs, and pass 2 leaves "
    "the reserved job's share",
    "[compose][classes]") {
    // Job 1 (production) holds 3 of 4 licences; job 2 (production) needs 2
    // and waits although 6 processors are idle: no production job may be
    // preempted by another of its class in pass 2.
    auto e = engine_from(classes(8, "", "[[machine.pools]]\nname = \"lic\"\ncapacity = 4\n"));
    submit_job(e.get(), 1, 2, 100, kProduction, {3});
    submit_job(e.get(), 2, 2, 50, kProduction, {2});
    submit_job(e.get(), 3, 2, 50, kProduction, {1});
    auto acts = at(e.get(), 0);
    CHECK(act(acts, ROTA_ACTION_START, 1));
    CHECK_FALSE(act(acts, ROTA_ACTION_START, 2));
    CHECK(act(acts, ROTA_ACTION_START, 3));  // the last licence
    acts = at(e.get(), 100);                 // jobs 1 and 3 reached their walltime
    CHECK(act(acts, ROTA_ACTION_START, 2));
}

TEST_CASE(
    "compose: under job classes a job runs only on its partition's nodes, and preempts "
    "only jobs there",
    "[compose][classes]") {
    auto e =
        engine_from(classes(8, "", "[[machine.partitions]]\nname = \"gpu\"\nnodes = \"6-7\"\n"));
    submit_job(e.get(), 1, 2, 1000, kProduction, {}, "gpu");
    submit_job(e.get(), 2, 2, 1000, kProduction, {}, "gpu");
    submit_job(e.get(), 3, 2, 1000, kProduction);
    auto acts = at(e.get(), 0);
    REQUIRE(act(acts, ROTA_ACTION_START, 1));
    CHECK(act(acts, ROTA_ACTION_START, 1)->nodes == std::vector<int32_t>{6, 7});
    CHECK_FALSE(act(acts, ROTA_ACTION_START, 2));  // gpu is full; nodes 0-5 are not its
    REQUIRE(act(acts, ROTA_ACTION_START, 3));
    CHECK(act(acts, ROTA_ACTION_START, 3)->nodes == std::vector<int32_t>{0, 1});
    // An interactive job for gpu, past its wait at once: its set is job 1's
    // nodes, swapped out after job 1's do-not-disturb time (10 s x 2);
    // job 3, of the same class but elsewhere, is left alone.
    submit_job(e.get(), 4, 2, 100, kInteractive, {}, "gpu");
    acts = at(e.get(), 100);
    CHECK(act(acts, ROTA_ACTION_SWAP_OUT, 1));
    CHECK_FALSE(act(acts, ROTA_ACTION_SWAP_OUT, 3));
    REQUIRE(act(acts, ROTA_ACTION_START, 4));
    CHECK(act(acts, ROTA_ACTION_START, 4)->nodes == std::vector<int32_t>{6, 7});
}

TEST_CASE(
    "compose: under job classes a job needing its partition's nodes and a licence held "
    "elsewhere preempts both holders, and only them",
    "[compose][classes]") {
    // 8 processors, partition gpu = nodes 6-7, one licence. Three standby
    // jobs run: job 1 on gpu (6-7), job 2 holding the licence (0-1), job 3
    // neither (2-3). Interactive job 4 (past its wait at once) needs 2
    // gpu nodes and the licence: gpu's nodes are job 1's and the licence
    // is job 2's, so its set is jobs 1 and 2, swapped out once their
    // do-not-disturb time (3 s x 2) is over. Job 3 stays; job 4 is loaded
    // on 6-7 (its partition), not on the nodes job 2 gave back.
    auto e = engine_from(classes(8, "",
                                 "[[machine.pools]]\nname = \"lic\"\ncapacity = 1\n"
                                 "[[machine.partitions]]\nname = \"gpu\"\nnodes = \"6-7\"\n"));
    submit_job(e.get(), 1, 2, 1000, kStandby, {0}, "gpu");
    submit_job(e.get(), 2, 2, 1000, kStandby, {1});
    submit_job(e.get(), 3, 2, 1000, kStandby, {0});
    auto acts = at(e.get(), 0);
    REQUIRE(act(acts, ROTA_ACTION_START, 1));
    CHECK(act(acts, ROTA_ACTION_START, 1)->nodes == std::vector<int32_t>{6, 7});
    REQUIRE(act(acts, ROTA_ACTION_START, 2));
    CHECK(act(acts, ROTA_ACTION_START, 2)->nodes == std::vector<int32_t>{0, 1});
    REQUIRE(act(acts, ROTA_ACTION_START, 3));
    submit_job(e.get(), 4, 2, 100, kInteractive, {1}, "gpu");
    acts = at(e.get(), 100);
    CHECK(act(acts, ROTA_ACTION_SWAP_OUT, 1));
    CHECK(act(acts, ROTA_ACTION_SWAP_OUT, 2));
    CHECK_FALSE(act(acts, ROTA_ACTION_SWAP_OUT, 3));
    REQUIRE(act(acts, ROTA_ACTION_START, 4));
    CHECK(act(acts, ROTA_ACTION_START, 4)->nodes == std::vector<int32_t>{6, 7});
    CHECK(info(e.get(), 3).state == ROTA_JOB_RUNNING);
    CHECK(info(e.get(), 1).state == ROTA_JOB_QUEUED);
    CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
}

TEST_CASE("compose: under job classes pass 2 asks the backfill_select policy which jobs to load",
          "[compose][classes]") {
    // When job 1 (the whole machine) ends at 100, jobs 2 (4 processors), 3
    // (4) and 4 (6) all fit the idle processors. In the passes' order jobs
    // 2 and 3 load; best fit (the widest first) loads job 4 alone.
    for (const bool widest : {false, true}) {
        INFO(widest);
        const std::string policy =
            widest ? "[policy.backfill_select]\nscript = \"backfill/best_fit.lua\"\n" : "";
        auto e = engine_from(classes(8, "", policy));
        submit_job(e.get(), 1, 8, 100, kProduction);
        at(e.get(), 0);
        submit_job(e.get(), 2, 4, 50, kProduction);
        submit_job(e.get(), 3, 4, 10, kProduction);
        submit_job(e.get(), 4, 6, 5, kProduction);
        at(e.get(), 10);
        const auto acts = at(e.get(), 100);
        CHECK(static_cast<bool>(act(acts, ROTA_ACTION_START, 2)) == !widest);
        CHECK(static_cast<bool>(act(acts, ROTA_ACTION_START, 3)) == !widest);
        CHECK(static_cast<bool>(act(acts, ROTA_ACTION_START, 4)) == widest);
        // Asked at 0 (job 1) and at 100.
        CHECK(hook_stats(e.get(), ROTA_HOOK_BACKFILL_SELECT).calls == (widest ? 2u : 0u));
    }
}

TEST_CASE("compose: malleable jobs hold their pool demand, whatever their width",
          "[compose][malleable]") {
    // 8 processors and 2 licences; jobs of min 2, ideal 8. Job 1 takes all
    // 8 processors and 2 licences. Job 2 (1 licence) arrives: a harvest
    // would give it processors, not a licence, so it waits. When job 1
    // ends, job 2 starts on all 8; job 3 (no licence) arrived meanwhile
    // and waits for processors, not licences.
    auto e = engine_from(
        "[machine]\nprocs = 8\n[[machine.pools]]\nname = \"lic\"\ncapacity = 2\n"
        "[malleable]\n[policy.harvest]\nscript = \"harvest/even.lua\"\n");
    auto malleable = [&](std::int64_t id, std::int64_t lic) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.procs = 8;
        j.min_procs = 2;
        j.estimate = 100 * kUs;
        j.user = -1;
        std::vector<std::int64_t> pools{lic};
        j.npools = 1;
        j.pools = pools.data();
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    malleable(1, 2);
    auto acts = at(e.get(), 0);
    REQUIRE(act(acts, ROTA_ACTION_START, 1));
    malleable(2, 1);
    acts = at(e.get(), 10);
    CHECK_FALSE(act(acts, ROTA_ACTION_START, 2));
    CHECK_FALSE(act(acts, ROTA_ACTION_SHRINK, 1));  // no harvest for a job short of a licence
    CHECK(counters(e.get()).harvest_attempts == 0);
    malleable(3, 0);
    acts = at(e.get(), 20);
    CHECK(counters(e.get()).harvests == 1);  // job 3 needs processors only: job 1 shrinks
    CHECK(act(acts, ROTA_ACTION_START, 3));
    CHECK(info(e.get(), 2).state == ROTA_JOB_QUEUED);
    REQUIRE(rota_advance(e.get(), 30 * kUs) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    acts = at(e.get(), 30);
    CHECK(act(acts, ROTA_ACTION_START, 2));  // job 1's licences are back
}

TEST_CASE("compose: clusters on a gang-scheduled machine, each row with its own clusters",
          "[compose][clusters]") {
    // Two clusters of 4 nodes, BGS with MPL 2. Jobs 1 and 2 each take the
    // whole machine as two components of 4, one row each; job 3 (one
    // component of 4) waits for a row, reserved when the first of them
    // ends its window (estimate 100 x MPL 2). Job 4 (one node) fits no
    // row either: every cluster is full in both.
    auto e = engine_from(R"(
[machine]
[[machine.clusters]]
name = "a"
nodes = 4
[[machine.clusters]]
name = "b"
nodes = 4
[scheduler]
preset = "bgs"
[gang]
mpl = 2
slice = 10
)");
    auto submit_components = [&](std::int64_t id, std::vector<int32_t> widths) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.estimate = 100 * kUs;
        j.user = -1;
        for (int32_t w : widths) j.procs += w;
        j.ncomponents = static_cast<int32_t>(widths.size());
        j.components = widths.data();
        INFO(rota_errmsg(e.get()));
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit_components(1, {4, 4});
    submit_components(2, {4, 4});
    submit_components(3, {4});
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    std::map<std::int64_t, int32_t> row;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e.get(), &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_START) {
            row[a.job] = a.row;
            CHECK(a.nnodes == 8);
        }
    REQUIRE(row.count(1));
    REQUIRE(row.count(2));
    CHECK(row[1] != row[2]);
    CHECK(row.count(3) == 0);
    CHECK(info(e.get(), 3).reserved_start == 200 * kUs);
    // The matrix shows each job in every cell of its row.
    for (std::int64_t id : {1, 2}) {
        std::vector<std::int64_t> cells(8);
        std::size_t n = 0;
        REQUIRE(rota_matrix_row(e.get(), row[id], cells.data(), cells.size(), &n) == ROTA_OK);
        CHECK(cells == std::vector<std::int64_t>(8, id));
    }
}

TEST_CASE("compose: under job classes a reserved set is loaded lowest node first",
          "[compose][classes]") {
    // Job 1 (standby, 1 processor) loads on node 0, job 2 (standby, 6) on
    // 1-6. Job 1 ends at 5: nodes 0 and 7 are idle. Interactive job 3 (7
    // processors, past its wait at once) gets job 2 reserved, plus one idle
    // processor, the lowest: node 0. Job 2 is swapped out when its
    // do-not-disturb time ends (3 s x 6 = 18 s), and job 3 is loaded on
    // the set, its runs lowest first (rota.h): 0-6, not 1-6 then 0.
    auto e = engine_from(classes(8));
    submit_job(e.get(), 1, 1, 1000, kStandby);
    submit_job(e.get(), 2, 6, 1000, kStandby);
    auto acts = at(e.get(), 0);
    REQUIRE(act(acts, ROTA_ACTION_START, 1));
    CHECK(act(acts, ROTA_ACTION_START, 1)->nodes == std::vector<int32_t>{0});
    REQUIRE(act(acts, ROTA_ACTION_START, 2));
    CHECK(act(acts, ROTA_ACTION_START, 2)->nodes == std::vector<int32_t>{1, 2, 3, 4, 5, 6});
    REQUIRE(rota_advance(e.get(), 5 * kUs) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    at(e.get(), 5);
    submit_job(e.get(), 3, 7, 100, kInteractive);
    acts = at(e.get(), 10);
    CHECK(acts.empty());
    CHECK(info(e.get(), 3).reserved == 1);
    acts = at(e.get(), 18);
    CHECK(act(acts, ROTA_ACTION_SWAP_OUT, 2));
    REQUIRE(act(acts, ROTA_ACTION_START, 3));
    CHECK(act(acts, ROTA_ACTION_START, 3)->nodes == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6});
}

TEST_CASE("compose: under job classes a job runs in the first of its partitions that holds it",
          "[compose][classes]") {
    // Partition "one" has node 0 only, "four" nodes 4-7. Job 1 (2
    // processors) names "one,four", or names none with "one" then "four"
    // the default partitions: admission passes it ("four" holds it), and
    // it is loaded there, on 4-5, not left waiting for a second node of
    // "one".
    for (const bool by_default : {false, true}) {
        INFO(by_default);
        const std::string d = by_default ? "default = true\n" : "";
        auto e = engine_from(classes(8, "",
                                     "[[machine.partitions]]\nname = \"one\"\nnodes = \"0\"\n" + d +
                                         "[[machine.partitions]]\nname = \"four\"\nnodes = "
                                         "\"4-7\"\n" +
                                         d));
        submit_job(e.get(), 1, 2, 100, kProduction, {}, by_default ? nullptr : "one,four");
        const auto acts = at(e.get(), 0);
        REQUIRE(act(acts, ROTA_ACTION_START, 1));
        CHECK(act(acts, ROTA_ACTION_START, 1)->nodes == std::vector<int32_t>{4, 5});
    }
}

TEST_CASE("compose: under job classes pass 1 compares a job past its wait with the job limit only",
          "[compose][classes]") {
    // Production may hold 4 processors and waits 0 s at most: jobs 1, 2
    // and 3 (2 processors each) are all past their wait at once. Pass 1
    // compares them with the job processor limit only ([Feitelson97] §4.3:
    // "The processor requirement for the job will be compared against the
    // scheduler's job processor limit"), so all three load, 6 processors
    // in the class; pass 2 would have kept job 3 waiting.
    auto e = engine_from(with_class_keys(classes(8, "", "", "0"), "production", "procs = 4\n"));
    submit_job(e.get(), 1, 2, 100, kProduction);
    submit_job(e.get(), 2, 2, 100, kProduction);
    submit_job(e.get(), 3, 2, 100, kProduction);
    auto acts = at(e.get(), 0);
    CHECK(act(acts, ROTA_ACTION_START, 1));
    CHECK(act(acts, ROTA_ACTION_START, 2));
    CHECK(act(acts, ROTA_ACTION_START, 3));
    rota_class_info ci{};
    ci.size = sizeof ci;
    REQUIRE(rota_class_info_get(e.get(), kProduction, &ci) == ROTA_OK);
    CHECK(ci.loaded == 6);
}
