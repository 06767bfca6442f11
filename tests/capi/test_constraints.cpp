// The constraints a batch system hands its scheduler (docs/design.md,
// "Constraints"): begin times, dependencies, partitions, node lists and
// exclusions. Each scenario is small and worked out by hand; times in
// seconds.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "support.h"

using namespace rota::test;

namespace {

constexpr std::int64_t kS = 1'000'000;

struct Spec {
    std::int64_t id;
    std::int32_t procs;
    std::int64_t estimate_s;
    std::int64_t begin_s = 0;
    const char* partition = nullptr;
    std::vector<rota_node_run> include{}, exclude{};
    std::vector<rota_dependency> depends{};
};

int submit(rota_engine* e, const Spec& s) {
    rota_job j{};
    j.size = sizeof j;
    j.id = s.id;
    j.procs = s.procs;
    j.estimate = s.estimate_s * kS;
    j.user = -1;
    j.partition = s.partition;
    j.begin = s.begin_s * kS;
    j.ninclude = static_cast<int32_t>(s.include.size());
    j.include = s.include.empty() ? nullptr : s.include.data();
    j.nexclude = static_cast<int32_t>(s.exclude.size());
    j.exclude = s.exclude.empty() ? nullptr : s.exclude.data();
    j.ndepends = static_cast<int32_t>(s.depends.size());
    j.depends = s.depends.empty() ? nullptr : s.depends.data();
    return rota_submit(e, &j);
}

void ok(rota_engine* e, const Spec& s) {
    INFO(rota_errmsg(e));
    REQUIRE(submit(e, s) == ROTA_OK);
}

const Act* find(const std::vector<Act>& acts, int type, std::int64_t job) {
    for (const Act& a : acts)
        if (a.type == type && a.job == job) return &a;
    return nullptr;
}

bool started(const std::vector<Act>& acts, std::int64_t job) {
    return find(acts, ROTA_ACTION_START, job) != nullptr;
}

// The reason of job `id`'s REJECT among the actions of one pass, read
// directly from the engine's action list.
std::string reject_reason(rota_engine* e, std::int64_t t_s, std::int64_t id) {
    REQUIRE(rota_advance(e, t_s * kS) == ROTA_OK);
    REQUIRE(rota_schedule(e) == ROTA_OK);
    std::string why;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e, &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_REJECT && a.job == id && a.reason) why = a.reason;
    return why;
}

rota_time wakeup(rota_engine* e) {
    rota_time t = -1;
    REQUIRE(rota_next_wakeup(e, &t) == ROTA_OK);
    return t / kS;
}

const char* kPartitions = R"(
[machine]
procs = 8
[[machine.partitions]]
name = "small"
nodes = "0-1"
[[machine.partitions]]
name = "big"
nodes = "0-7"
default = true
[scheduler]
preset = "easy"
)";

}  // namespace

TEST_CASE("constraints: a job does not start before its begin time, and wakes the engine then",
          "[constraints]") {
    auto e = preset_engine("easy", 4);
    ok(e.get(), {1, 2, 100, 50});
    ok(e.get(), {2, 2, 30});
    auto acts = at(e.get(), 0);
    CHECK_FALSE(started(acts, 1));
    CHECK(started(acts, 2));  // the other two nodes: job 1's reservation at 50 holds two
    CHECK(info(e.get(), 1).begin == 50 * kS);
    CHECK(info(e.get(), 1).reserved_start == 50 * kS);
    CHECK(wakeup(e.get()) == 30);
    at(e.get(), 30);
    CHECK(wakeup(e.get()) == 50);
    acts = at(e.get(), 50);
    CHECK(started(acts, 1));
}

TEST_CASE("constraints: policies see each job's begin time in the column `begin`",
          "[constraints]") {
    // An order policy in C that runs the jobs with the latest begin first:
    // it reads the column as Lua does (docs/lua-api.md).
    auto e = preset_engine("fcfs", 4);
    const auto latest_first = [](void*, rota_call* c) {
        int type = 0;
        const auto* begin = static_cast<const rota_time*>(rota_call_column(c, "begin", &type));
        if (begin == nullptr || type != ROTA_TYPE_INT64) return 1;
        std::vector<double> keys;
        for (std::size_t i = 0; i < rota_call_rows(c); ++i)
            keys.push_back(-static_cast<double>(begin[i]));
        return rota_call_answer_keys(c, keys.data(), keys.size());
    };
    REQUIRE(rota_set_policy(e.get(), ROTA_HOOK_ORDER, latest_first, nullptr, 0) == ROTA_OK);
    ok(e.get(), {1, 4, 10});
    ok(e.get(), {2, 4, 10, 20});
    ok(e.get(), {3, 4, 10, 5});
    at(e.get(), 0);
    std::vector<std::int64_t> q(3);
    std::size_t n = 0;
    REQUIRE(rota_queue(e.get(), q.data(), q.size(), &n) == ROTA_OK);
    q.resize(n);
    CHECK(q == std::vector<std::int64_t>{2, 3, 1});  // a failed call would keep 1, 2, 3
}

TEST_CASE("constraints: under conservative backfilling a begin time is a reservation no earlier",
          "[constraints]") {
    auto e = preset_engine("conservative", 4);
    ok(e.get(), {1, 2, 100, 50});  // 2 nodes from 50 to 150
    ok(e.get(), {2, 2, 30});       // 2 nodes from 0 to 30
    ok(e.get(), {3, 4, 10});       // the whole machine: 30 to 40, before job 1
    ok(e.get(), {4, 4, 20});       // the whole machine again: 40 to 50 is too short, so 150
    auto acts = at(e.get(), 0);
    CHECK(started(acts, 2));
    CHECK(info(e.get(), 1).reserved_start == 50 * kS);
    CHECK(info(e.get(), 3).reserved_start == 30 * kS);
    CHECK(info(e.get(), 4).reserved_start == 150 * kS);
    CHECK(started(at(e.get(), 30), 3));
    CHECK(started(at(e.get(), 50), 1));
}

TEST_CASE("constraints: afterok waits for a success, afterany for any end, plus its delay",
          "[constraints]") {
    auto e = preset_engine("easy", 4);
    ok(e.get(), {1, 4, 100});
    ok(e.get(), {2, 4, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_OK, 0}}});
    ok(e.get(), {3, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_ANY, 5 * kS}}});
    auto acts = at(e.get(), 0);
    CHECK(started(acts, 1));
    CHECK(info(e.get(), 2).state == ROTA_JOB_WAITING);
    CHECK(info(e.get(), 2).unmet == 1);
    REQUIRE(rota_advance(e.get(), 20 * kS) == ROTA_OK);
    REQUIRE(rota_job_exit(e.get(), 1, 0) == ROTA_OK);
    acts = at(e.get(), 20);
    CHECK(started(acts, 2));        // afterok: met at once
    CHECK_FALSE(started(acts, 3));  // afterany + 5 s
    CHECK(info(e.get(), 3).eligible == 25 * kS);
    CHECK(wakeup(e.get()) == 25);
    // It enters the queue as if submitted when its dependency was met.
    acts = at(e.get(), 25);
    CHECK(info(e.get(), 3).submit == 25 * kS);
}

TEST_CASE("constraints: a dependency that can never be met rejects the job with the reason",
          "[constraints]") {
    auto e = preset_engine("easy", 4);
    ok(e.get(), {1, 4, 100});
    ok(e.get(), {2, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_OK, 0}}});
    ok(e.get(), {3, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_ANY, 0}}});
    ok(e.get(), {4, 1, 10, 0, nullptr, {}, {}, {{99, ROTA_AFTER_ANY, 0}}});
    // A dependency on no known job is refused at the first pass.
    CHECK_THAT(reject_reason(e.get(), 0, 4), Catch::Contains("no job 99 is known"));
    REQUIRE(rota_advance(e.get(), 20 * kS) == ROTA_OK);
    REQUIRE(rota_job_exit(e.get(), 1, 3) == ROTA_OK);  // a failure
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    std::map<std::int64_t, std::string> why;
    bool three_started = false;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e.get(), &a) == ROTA_OK) {
        if (a.type == ROTA_ACTION_REJECT) why[a.job] = a.reason ? a.reason : "";
        three_started = three_started || (a.type == ROTA_ACTION_START && a.job == 3);
    }
    CHECK_THAT(why[2], Catch::Contains("afterok:1") && Catch::Contains("did not end successfully"));
    CHECK(three_started);  // afterany: a failure is an end
    CHECK(why.count(3) == 0);
}

TEST_CASE("constraints: a walltime kill or a cancel is no success", "[constraints]") {
    auto e = preset_engine("easy", 4);
    ok(e.get(), {1, 4, 10});
    ok(e.get(), {2, 1, 10});
    ok(e.get(), {3, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_OK, 0}}});
    ok(e.get(), {4, 1, 10, 0, nullptr, {}, {}, {{2, ROTA_AFTER_OK, 0}}});
    at(e.get(), 0);
    REQUIRE(rota_cancel(e.get(), 2) == ROTA_OK);
    CHECK_THAT(reject_reason(e.get(), 5, 4), Catch::Contains("afterok:2"));   // cancelled
    CHECK_THAT(reject_reason(e.get(), 10, 3), Catch::Contains("afterok:1"));  // killed at 10
}

TEST_CASE("constraints: min_job_age remembers how an ended job ended", "[constraints]") {
    auto e =
        engine_from("[machine]\nprocs = 4\n[scheduler]\npreset = \"easy\"\nmin_job_age = 60\n");
    ok(e.get(), {1, 4, 100});
    at(e.get(), 0);
    REQUIRE(rota_advance(e.get(), 10 * kS) == ROTA_OK);
    REQUIRE(rota_job_end(e.get(), 1) == ROTA_OK);
    ok(e.get(), {2, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_OK, 0}}});
    CHECK(started(at(e.get(), 20), 2));
    // Past the age, the job is no longer known.
    REQUIRE(rota_advance(e.get(), 200 * kS) == ROTA_OK);
    ok(e.get(), {3, 1, 10, 0, nullptr, {}, {}, {{1, ROTA_AFTER_OK, 0}}});
    ok(e.get(), {4, 1, 10});  // an event after the age: job 1's outcome is dropped
    CHECK_THAT(reject_reason(e.get(), 200, 3), Catch::Contains("no job 1 is known"));
}

TEST_CASE("constraints: a job runs only on the nodes of one of its partitions", "[constraints]") {
    auto e = engine_from(kPartitions);
    ok(e.get(), {1, 2, 100, 0, "small"});
    ok(e.get(), {2, 2, 100, 0, "small"});
    ok(e.get(), {3, 3, 100, 0, "small"});
    ok(e.get(), {4, 2, 100, 0, "nope"});
    ok(e.get(), {5, 4, 100, 0, "small,big"});
    ok(e.get(), {6, 2, 100});  // no partition: the default, big
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    std::map<std::int64_t, std::string> why;
    std::map<std::int64_t, std::vector<int32_t>> nodes;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e.get(), &a) == ROTA_OK) {
        if (a.type == ROTA_ACTION_REJECT) why[a.job] = a.reason;
        if (a.type == ROTA_ACTION_START)
            for (int32_t r = 0; r < a.nruns; ++r)
                for (int32_t k = 0; k < a.runs[r].count; ++k)
                    nodes[a.job].push_back(a.runs[r].first + k);
    }
    CHECK(nodes[1] == std::vector<int32_t>{0, 1});
    CHECK(nodes.count(2) == 0);  // small is full; nodes 2-7 are not its
    CHECK_THAT(why[3], Catch::Contains("partition 'small' cannot hold them"));
    CHECK_THAT(why[4], Catch::Contains("partition 'nope' does not exist"));
    CHECK(nodes[5] == std::vector<int32_t>{2, 3, 4, 5});  // small cannot hold 4: big
    CHECK(nodes[6] == std::vector<int32_t>{6, 7});
    CHECK(info(e.get(), 2).reserved_start == 100 * kS);  // EASY's head, on small
}

TEST_CASE("constraints: a backfilled job never takes the nodes the head's reservation holds",
          "[constraints]") {
    // Job 1 fills the machine until 100; job 2, partition small ({0, 1}),
    // is the head with a reservation on nodes 0 and 1 at 100. Job 3 must
    // include node 0: a count says 2 nodes are free at 100 beside job 2,
    // but node 0 is job 2's until 150.
    auto e = engine_from(kPartitions);
    ok(e.get(), {1, 8, 100});
    ok(e.get(), {2, 2, 50, 0, "small"});
    ok(e.get(), {3, 2, 50, 0, nullptr, {{0, 1}}});
    at(e.get(), 0);
    auto acts = at(e.get(), 100);  // job 1 is killed at its walltime
    const Act* two = find(acts, ROTA_ACTION_START, 2);
    REQUIRE(two);
    CHECK(two->nodes == std::vector<int32_t>{0, 1});
    CHECK_FALSE(started(acts, 3));
    CHECK(info(e.get(), 3).state == ROTA_JOB_QUEUED);
    acts = at(e.get(), 150);
    const Act* three = find(acts, ROTA_ACTION_START, 3);
    REQUIRE(three);
    CHECK(std::find(three->nodes.begin(), three->nodes.end(), 0) != three->nodes.end());
}

TEST_CASE("constraints: node lists and exclusions, on a machine without partitions",
          "[constraints]") {
    auto e = preset_engine("easy", 4);
    ok(e.get(), {1, 1, 100, 0, nullptr, {{3, 1}}});
    ok(e.get(), {2, 2, 100, 0, nullptr, {}, {{0, 2}}});  // not 0 or 1: 2 and... 3 is taken
    ok(e.get(), {3, 2, 100});
    auto acts = at(e.get(), 0);
    REQUIRE(find(acts, ROTA_ACTION_START, 1));
    CHECK(find(acts, ROTA_ACTION_START, 1)->nodes == std::vector<int32_t>{3});
    CHECK_FALSE(started(acts, 2));
    CHECK(info(e.get(), 2).reserved_start == 100 * kS);
    // Job 3 fits on 0 and 1 until 100 and beyond: job 2's reservation is on 2 and 3.
    REQUIRE(find(acts, ROTA_ACTION_START, 3));
    CHECK(find(acts, ROTA_ACTION_START, 3)->nodes == std::vector<int32_t>{0, 1});
    acts = at(e.get(), 100);
    REQUIRE(find(acts, ROTA_ACTION_START, 2));
    CHECK(find(acts, ROTA_ACTION_START, 2)->nodes == std::vector<int32_t>{2, 3});
}

TEST_CASE("constraints: partitions on a gang-scheduled machine, row by row", "[constraints]") {
    // BGS, MPL 2, 4 nodes, small = {0, 1}: jobs of small go to the rows
    // where nodes 0 and 1 are free, whatever else is.
    auto e = engine_from(R"(
[machine]
procs = 4
[[machine.partitions]]
name = "small"
nodes = "0-1"
[scheduler]
preset = "bgs"
[gang]
mpl = 2
slice = 10
)");
    ok(e.get(), {1, 2, 100, 0, "small"});
    ok(e.get(), {2, 2, 100, 0, "small"});
    ok(e.get(), {3, 2, 100, 0, "small"});
    ok(e.get(), {4, 2, 100});
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    std::map<std::int64_t, std::pair<int32_t, std::vector<int32_t>>> starts;
    rota_action a{};
    a.size = sizeof a;
    while (rota_next_action(e.get(), &a) == ROTA_OK)
        if (a.type == ROTA_ACTION_START) {
            auto& [row, nodes] = starts[a.job];
            row = a.row;
            for (int32_t r = 0; r < a.nruns; ++r)
                for (int32_t k = 0; k < a.runs[r].count; ++k) nodes.push_back(a.runs[r].first + k);
        }
    REQUIRE(starts.count(1));
    REQUIRE(starts.count(2));
    CHECK(starts[1].second == std::vector<int32_t>{0, 1});
    CHECK(starts[2].second == std::vector<int32_t>{0, 1});
    CHECK(starts[1].first != starts[2].first);
    CHECK(starts.count(3) == 0);  // both rows' small nodes are taken
    REQUIRE(starts.count(4));
    CHECK(starts[4].second == std::vector<int32_t>{2, 3});
    CHECK(info(e.get(), 3).reserved_start >= 100 * kS);
}

TEST_CASE("constraints: bad constraints are refused at submission, naming what is wrong",
          "[constraints]") {
    auto e = preset_engine("easy", 4);
    auto refused = [&](const Spec& s, const char* says) {
        INFO(says);
        CHECK(submit(e.get(), s) == ROTA_EINVAL);
        CHECK_THAT(std::string(rota_errmsg(e.get())), Catch::Contains(says));
    };
    refused({1, 1, 10, 0, nullptr, {{4, 1}}}, "outside the machine");
    refused({2, 1, 10, 0, nullptr, {{1, 1}}, {{0, 2}}}, "both included and excluded");
    refused({3, 1, 10, 0, nullptr, {{0, 2}}}, "includes 2 nodes, more than the 1");
    refused({4, 1, 10, 0, nullptr, {}, {}, {{4, ROTA_AFTER_ANY, 0}}}, "depends on itself");
    refused({5, 1, 10, 0, nullptr, {}, {}, {{1, 7, 0}}},
            "neither ROTA_AFTER_ANY nor ROTA_AFTER_OK");
    refused({6, 1, 10, -1}, "begin");
    rota_job j{};
    j.size = sizeof j;
    j.id = 7;
    j.procs = 1;
    j.estimate = kS;
    j.ninclude = 2;  // and no array
    CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    CHECK_THAT(std::string(rota_errmsg(e.get())), Catch::Contains("NULL"));
    // Nothing was submitted.
    CHECK(counters(e.get()).submitted == 0);
}

TEST_CASE("constraints: node lists and exclusions are refused where placement cannot honour them",
          "[constraints]") {
    // The iScheduler grows and shrinks jobs over interchangeable processors;
    // [Ngubiri07]'s clusters place components by Worst Fit.
    const std::pair<const char*, const char*> machines[] = {
        {"[machine]\nprocs = 4\n[malleable]\n", "the iScheduler"},
        {"[machine]\n[[machine.clusters]]\nnodes = 2\n[[machine.clusters]]\nnodes = 2\n",
         "clusters"},
    };
    for (const auto& [toml, says] : machines) {
        INFO(toml);
        auto e = engine_from(toml);
        CHECK(submit(e.get(), {1, 1, 10, 0, nullptr, {{2, 1}}}) == ROTA_EINVAL);
        CHECK_THAT(std::string(rota_errmsg(e.get())),
                   Catch::Contains("cannot be honoured") && Catch::Contains(says));
        CHECK(submit(e.get(), {2, 1, 10, 0, nullptr, {}, {{0, 1}}}) == ROTA_EINVAL);
        // Without them the same job goes.
        CHECK(submit(e.get(), {3, 1, 10}) == ROTA_OK);
        CHECK(counters(e.get()).submitted == 1);
    }
}

TEST_CASE("constraints: bad [[machine.partitions]] are refused naming the key", "[constraints]") {
    auto refused = [](const std::string& parts, const char* says) {
        INFO(parts);
        rota_engine* e = nullptr;
        const std::string cfg = "[machine]\nprocs = 8\n" + parts;
        CHECK(rota_engine_new(cfg.c_str(), nullptr, &e) == ROTA_ECONFIG);
        CHECK_THAT(std::string(rota_errmsg(e)), Catch::Contains(says));
        rota_engine_free(e);
    };
    refused("[[machine.partitions]]\nname = \"a\"\nnodes = \"3-1\"\n", "backwards");
    refused("[[machine.partitions]]\nname = \"a\"\nnodes = \"0-8\"\n", "node 8 is outside 0..7");
    refused("[[machine.partitions]]\nname = \"a\"\nnodes = \"0-x\"\n",
            "machine.partitions[0].nodes");
    refused("[[machine.partitions]]\nname = \"a,b\"\nnodes = \"0\"\n", "comma");
    refused(
        "[[machine.partitions]]\nname = \"a\"\nnodes = \"0\"\n[[machine.partitions]]\nname = "
        "\"a\"\nnodes = \"1\"\n",
        "given twice");
    refused("[[machine.partitions]]\nname = \"a\"\n", "machine.partitions[0].nodes' is required");
}

TEST_CASE("constraints: a snapshot keeps them, and the restored engine acts the same",
          "[constraints][snapshot]") {
    const std::string cfg = kPartitions;
    auto a = engine_from(cfg);
    ok(a.get(), {1, 8, 100});
    ok(a.get(), {2, 2, 50, 0, "small"});
    ok(a.get(), {3, 2, 50, 0, nullptr, {{0, 1}}, {{7, 1}}});
    ok(a.get(), {4, 1, 10, 120});
    ok(a.get(), {5, 1, 10, 0, nullptr, {}, {}, {{2, ROTA_AFTER_OK, 3 * kS}}});
    at(a.get(), 0);
    std::string snap;
    REQUIRE(rota_snapshot(
                a.get(),
                [](void* ud, const void* d, size_t n) {
                    static_cast<std::string*>(ud)->append(static_cast<const char*>(d), n);
                    return 0;
                },
                &snap) == ROTA_OK);
    rota_engine* raw = nullptr;
    INFO(snap);
    REQUIRE(rota_restore(cfg.c_str(), nullptr, nullptr, snap.data(), snap.size(), &raw) == ROTA_OK);
    EnginePtr b(raw);
    for (std::int64_t t : {100, 120, 150, 153, 200}) {
        auto x = at(a.get(), t), y = at(b.get(), t);
        REQUIRE(x.size() == y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            CHECK(x[i].type == y[i].type);
            CHECK(x[i].job == y[i].job);
            CHECK(x[i].nodes == y[i].nodes);
        }
    }
    // Job 2 was killed at its walltime: job 5's afterok can never be met.
    rota_job_info gone{};
    gone.size = sizeof gone;
    CHECK(rota_job_info_get(b.get(), 5, &gone) == ROTA_ENOTFOUND);
}

// A batch system restarted on a machine with partitions adopts its running
// jobs (rota_adopt): the node-level timeline takes their nodes. Before, it
// was asked to before the job's nodes were set, failed with
// ROTA_EINTERNAL, and left the job half made.
TEST_CASE("constraints: jobs adopted on a machine with partitions hold their nodes",
          "[constraints]") {
    auto e = engine_from(kPartitions);
    REQUIRE(rota_advance(e.get(), 100 * kS) == ROTA_OK);
    rota_job j{};
    j.size = sizeof j;
    j.id = 1;
    j.procs = 2;
    j.estimate = 50 * kS;
    j.user = -1;
    j.partition = "small";
    const rota_node_run runs[] = {{0, 2}};
    const int rc = rota_adopt(e.get(), &j, 90 * kS, runs, 1);
    INFO(rota_errmsg(e.get()));
    REQUIRE(rc == ROTA_OK);
    // The small partition is busy until 140 s: a job of it waits, one of
    // the big partition starts beside it, on nodes 2..7.
    ok(e.get(), {2, 2, 10, 0, "small"});
    ok(e.get(), {3, 6, 10, 0, "big"});
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    const auto acts = drain(e.get());
    CHECK_FALSE(started(acts, 2));
    const Act* s3 = find(acts, ROTA_ACTION_START, 3);
    REQUIRE(s3);
    CHECK(s3->nodes == range(2, 7));
    rota_job_info info{};
    info.size = sizeof info;
    REQUIRE(rota_job_info_get(e.get(), 1, &info) == ROTA_OK);
    CHECK(info.state == ROTA_JOB_RUNNING);
    // Job 3's walltime ends first (110 s), job 1's at 140 s; job 2 starts
    // on job 1's nodes then.
    CHECK(wakeup(e.get()) == 110);
    REQUIRE(rota_advance(e.get(), 140 * kS) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    const auto later = drain(e.get());
    CHECK(find(later, ROTA_ACTION_KILL, 1));
    const Act* s2 = find(later, ROTA_ACTION_START, 2);
    REQUIRE(s2);
    CHECK(s2->nodes == range(0, 1));
}
