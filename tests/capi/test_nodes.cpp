// Nodes going down, drained and back up (rota_node_down, _drain, _up):
// the running job's fate, where later jobs go, reservations placed anew.
#include <algorithm>
#include <set>

#include "support.h"

using rota::test::engine_from;

namespace {

constexpr rota_time kS = 1'000'000;

struct Seen {
    int type;
    int64_t job;
    rota_time time;
    std::set<int32_t> nodes;
    std::string reason;
};

struct Node {
    rota::test::EnginePtr e;
    explicit Node(const std::string& toml) : e(engine_from(toml)) {}
    void submit(int64_t id, int32_t procs, int64_t est_s, std::vector<int32_t> comps = {}) {
        rota_job j{};
        j.size = sizeof j;
        j.id = id;
        j.procs = procs;
        j.estimate = est_s * kS;
        j.user = -1;
        j.ncomponents = static_cast<int32_t>(comps.size());
        j.components = comps.empty() ? nullptr : comps.data();
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    }
    std::vector<Seen> pass() {
        REQUIRE(rota_schedule(e.get()) == ROTA_OK);
        return drain();
    }
    std::vector<Seen> at(int64_t t_s) {
        REQUIRE(rota_advance(e.get(), t_s * kS) == ROTA_OK);
        auto v = drain();
        for (auto& s : pass()) v.push_back(s);
        return v;
    }
    std::vector<Seen> drain() {
        std::vector<Seen> out;
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e.get(), &a) == ROTA_OK) {
            Seen s{a.type, a.job, a.time / kS, {}, a.reason ? a.reason : ""};
            for (int r = 0; r < a.nruns; ++r)
                for (int k = 0; k < a.runs[r].count; ++k) s.nodes.insert(a.runs[r].first + k);
            out.push_back(s);
        }
        return out;
    }
    std::set<int32_t> free_nodes() {
        int32_t buf[64];
        size_t n = 0;
        REQUIRE(rota_free_nodes(e.get(), buf, 64, &n) == ROTA_OK);
        return {buf, buf + n};
    }
};

const Seen* find(const std::vector<Seen>& v, int type, int64_t job) {
    for (const auto& s : v)
        if (s.type == type && s.job == job) return &s;
    return nullptr;
}

}  // namespace

TEST_CASE("nodes: a node that is down takes no job until it is up again") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    REQUIRE(rota_node_down(m.e.get(), 3, ROTA_NODE_KILL) == ROTA_OK);
    CHECK(m.free_nodes() == std::set<int32_t>{0, 1, 2, 4, 5, 6, 7});
    m.submit(1, 7, 100);
    m.submit(2, 1, 100);
    const auto v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 1));
    CHECK(find(v, ROTA_ACTION_START, 1)->nodes == std::set<int32_t>{0, 1, 2, 4, 5, 6, 7});
    CHECK_FALSE(find(v, ROTA_ACTION_START, 2));  // 8 nodes, 7 in service
    REQUIRE(rota_node_up(m.e.get(), 3) == ROTA_OK);
    const auto w = m.pass();
    REQUIRE(find(w, ROTA_ACTION_START, 2));
    CHECK(find(w, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{3});
}

TEST_CASE("nodes: the job on a node that goes down is killed, with the reason") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    m.submit(1, 4, 100);
    m.pass();
    REQUIRE(rota_node_down(m.e.get(), 2, ROTA_NODE_KILL) == ROTA_OK);
    const auto v = m.drain();
    REQUIRE(find(v, ROTA_ACTION_KILL, 1));
    CHECK(find(v, ROTA_ACTION_KILL, 1)->reason == "node 2 went down");
    CHECK(m.free_nodes() == std::set<int32_t>{0, 1, 3, 4, 5, 6, 7});
    rota_job_info info{};
    info.size = sizeof info;
    CHECK(rota_job_info_get(m.e.get(), 1, &info) == ROTA_ENOTFOUND);  // ended, forgotten
}

// Job 2 is requeued at 10 and keeps its place ahead of job 3; with 3
// nodes free it waits for job 1's end at 100, then runs its whole estimate
// again: its first start's expiry (at 100) must not end it.
TEST_CASE("nodes: a requeued job waits again in its place and runs anew") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n");
    m.submit(1, 4, 100);
    m.submit(2, 4, 100);
    m.pass();
    m.at(10);
    m.submit(3, 3, 30);  // fits the 3 free nodes now, but would pass job 2
    REQUIRE(rota_node_down(m.e.get(), 5, ROTA_NODE_REQUEUE) == ROTA_OK);
    auto v = m.drain();
    REQUIRE(find(v, ROTA_ACTION_REQUEUE, 2));
    CHECK(find(v, ROTA_ACTION_REQUEUE, 2)->reason == "node 5 went down");
    v = m.pass();
    // EASY: job 2 (the head) is reserved at 100; job 3 ends by 40 and backfills.
    REQUIRE(find(v, ROTA_ACTION_START, 3));
    CHECK(find(v, ROTA_ACTION_START, 3)->nodes == std::set<int32_t>{4, 6, 7});
    rota_reservation r{};
    r.size = sizeof r;
    size_t n = 0;
    REQUIRE(rota_reservations(m.e.get(), &r, 1, &n) == ROTA_OK);
    REQUIRE(n == 1);
    CHECK(r.job == 2);
    CHECK(r.start == 100 * kS);
    v = m.at(100);
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK(find(v, ROTA_ACTION_START, 2)->time == 100);
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{0, 1, 2, 3});
    v = m.at(150);
    CHECK_FALSE(find(v, ROTA_ACTION_KILL, 2));
    v = m.at(200);
    CHECK(find(v, ROTA_ACTION_KILL, 2));
    rota_counters c{};
    c.size = sizeof c;
    REQUIRE(rota_counters_get(m.e.get(), &c) == ROTA_OK);
    CHECK(c.requeued == 1);
}

TEST_CASE("nodes: a job the embedder requeues waits in its place, its nodes free at once") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n");
    m.submit(1, 4, 100);
    m.submit(2, 4, 100);
    m.pass();
    m.at(10);
    m.submit(3, 6, 30);  // waits: only 0 nodes free
    m.pass();
    // Job 2's start failed on the batch system's side.
    REQUIRE(rota_job_requeue(m.e.get(), 2, "prolog failed on n5") == ROTA_OK);
    auto v = m.drain();
    REQUIRE(find(v, ROTA_ACTION_REQUEUE, 2));
    CHECK(find(v, ROTA_ACTION_REQUEUE, 2)->reason == "prolog failed on n5");
    int64_t q[4];
    size_t n = 0;
    REQUIRE(rota_queue(m.e.get(), q, 4, &n) == ROTA_OK);
    REQUIRE(n == 2);
    CHECK(q[0] == 2);  // ahead of job 3, as it arrived first
    CHECK(q[1] == 3);
    v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 2));  // the 4 free nodes again
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{4, 5, 6, 7});
    CHECK_FALSE(find(v, ROTA_ACTION_START, 3));
    rota_counters c{};
    c.size = sizeof c;
    REQUIRE(rota_counters_get(m.e.get(), &c) == ROTA_OK);
    CHECK(c.requeued == 1);

    // Only a running job.
    CHECK(rota_job_requeue(m.e.get(), 3, nullptr) == ROTA_ESTATE);
    CHECK(rota_job_requeue(m.e.get(), 99, nullptr) == ROTA_ENOTFOUND);
}

TEST_CASE("nodes: a drained node keeps its job and leaves when the job ends") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    m.submit(1, 4, 100);
    m.pass();
    REQUIRE(rota_node_drain(m.e.get(), 1) == ROTA_OK);
    CHECK(m.drain().empty());  // job 1 runs on
    CHECK(rota_node_drain(m.e.get(), 1) == ROTA_ESTATE);
    m.submit(2, 7, 50);
    auto v = m.at(100);  // job 1 ends (its walltime): node 1 leaves
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes.count(1) == 0);
    CHECK(m.free_nodes().empty());
    REQUIRE(rota_node_up(m.e.get(), 1) == ROTA_OK);
    CHECK(m.free_nodes() == std::set<int32_t>{1});
}

TEST_CASE(
    "nodes: under EASY the head job wider than the nodes in service takes the reservation back "
    "when a node returns") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"easy\"\n");
    m.submit(1, 8, 120);
    m.submit(2, 7, 180);
    m.submit(3, 3, 100);
    m.pass();  // 1 runs
    m.at(1);
    REQUIRE(rota_node_drain(m.e.get(), 7) == ROTA_OK);
    REQUIRE(rota_job_requeue(m.e.get(), 1, "requeued by an operator") == ROTA_OK);
    // Job 1 heads the queue but cannot start on 7 nodes: 2 starts, and
    // the reservation goes to 3, the first job that can be held.
    auto v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK_FALSE(find(v, ROTA_ACTION_START, 1));
    REQUIRE(rota_node_up(m.e.get(), 7) == ROTA_OK);
    m.submit(4, 1, 300);  // would run on node 7 past job 2's end
    v = m.at(6);
    // Job 1 is held again (when job 2 ends), ahead of 3 and 4: 4 may not
    // take node 7 for longer than that.
    CHECK_FALSE(find(v, ROTA_ACTION_START, 4));
    rota_reservation r[4];
    for (auto& x : r) x.size = sizeof x;
    size_t n = 0;
    REQUIRE(rota_reservations(m.e.get(), r, 4, &n) == ROTA_OK);
    REQUIRE(n == 1);
    CHECK(r[0].job == 1);
    CHECK(r[0].start == 181 * kS);
}

TEST_CASE("nodes: on clusters a down node leaves its cluster less room") {
    Node m(
        "[machine]\n[[machine.clusters]]\nnodes = 4\n[[machine.clusters]]\nnodes = 4\n"
        "[scheduler]\npreset = \"fcfs\"\n");
    REQUIRE(rota_node_down(m.e.get(), 0, ROTA_NODE_KILL) == ROTA_OK);
    m.submit(1, 4, 100);
    m.submit(2, 3, 100);
    const auto v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 1));
    CHECK(find(v, ROTA_ACTION_START, 1)->nodes == std::set<int32_t>{4, 5, 6, 7});
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{1, 2, 3});
}

TEST_CASE("nodes: bad node events are refused and change nothing") {
    Node m("[machine]\nprocs = 8\n");
    CHECK(rota_node_down(m.e.get(), 8, ROTA_NODE_KILL) == ROTA_EINVAL);
    CHECK(rota_node_down(m.e.get(), -1, ROTA_NODE_KILL) == ROTA_EINVAL);
    CHECK(rota_node_down(m.e.get(), 0, 7) == ROTA_EINVAL);
    CHECK(rota_node_up(m.e.get(), 0) == ROTA_ESTATE);
    REQUIRE(rota_node_down(m.e.get(), 0, ROTA_NODE_KILL) == ROTA_OK);
    CHECK(rota_node_down(m.e.get(), 0, ROTA_NODE_KILL) == ROTA_ESTATE);
    CHECK_THAT(rota_errmsg(m.e.get()), Catch::Contains("already out of service"));
    CHECK(m.free_nodes().size() == 7);
    // machine.node_down is the default fate, and nothing else.
    rota_engine* bad = nullptr;
    CHECK(rota_engine_new("[machine]\nprocs = 8\nnode_down = \"drain\"\n", nullptr, &bad) ==
          ROTA_ECONFIG);
    CHECK_THAT(rota_errmsg(bad), Catch::Contains("machine.node_down"));
    rota_engine_free(bad);
}

TEST_CASE("nodes: the configuration decides the fate of ROTA_NODE_DEFAULT") {
    for (const char* fate : {"", "node_down = \"kill\"\n", "node_down = \"requeue\"\n"}) {
        INFO(fate);
        Node m(std::string("[machine]\nprocs = 8\n") + fate + "[scheduler]\npreset = \"fcfs\"\n");
        m.submit(1, 4, 100);
        m.pass();
        REQUIRE(rota_node_down(m.e.get(), 0, ROTA_NODE_DEFAULT) == ROTA_OK);
        const auto v = m.drain();
        REQUIRE(v.size() == 1);
        const bool requeue = std::string(fate).find("requeue") != std::string::npos;
        CHECK(v[0].type == (requeue ? ROTA_ACTION_REQUEUE : ROTA_ACTION_KILL));
        CHECK(v[0].reason == "node 0 went down");
    }
}

TEST_CASE("nodes: rota_reconfigure changes the configured fate") {
    Node m("[machine]\nprocs = 8\n[scheduler]\npreset = \"fcfs\"\n");
    m.submit(1, 4, 100);
    m.submit(2, 4, 100);
    m.pass();
    REQUIRE(rota_node_down(m.e.get(), 0, ROTA_NODE_DEFAULT) == ROTA_OK);
    auto v = m.drain();
    REQUIRE(v.size() == 1);
    CHECK(v[0].type == ROTA_ACTION_KILL);
    REQUIRE(rota_reconfigure(m.e.get(),
                             "[machine]\nprocs = 8\nnode_down = \"requeue\"\n"
                             "[scheduler]\npreset = \"fcfs\"\n") == ROTA_OK);
    REQUIRE(rota_node_down(m.e.get(), 4, ROTA_NODE_DEFAULT) == ROTA_OK);
    v = m.drain();
    REQUIRE(v.size() == 1);
    CHECK(v[0].type == ROTA_ACTION_REQUEUE);
    CHECK(v[0].job == 2);
}

TEST_CASE("nodes: under gang scheduling a node going down stops its job in every row") {
    // GS at MPL 2 on 8 nodes: job 1 (6 nodes) starts in row 0 on 0-5, job
    // 2 (4 nodes) does not fit beside it and starts in row 1 on 0-3. Node 2
    // holds a cell of each.
    auto e = rota::test::gang_engine("gs", 8, 2, 10.0);
    Node m("[machine]\nprocs = 1\n");
    m.e = std::move(e);
    m.submit(1, 6, 100);
    m.submit(2, 4, 100);
    auto v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 1));
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK(find(v, ROTA_ACTION_START, 1)->nodes == std::set<int32_t>{0, 1, 2, 3, 4, 5});
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{0, 1, 2, 3});
    REQUIRE(rota_advance(m.e.get(), 5 * kS) == ROTA_OK);
    m.drain();
    REQUIRE(rota_node_down(m.e.get(), 2, ROTA_NODE_REQUEUE) == ROTA_OK);
    v = m.drain();
    REQUIRE(v.size() == 2);  // both, in their order of start
    CHECK(v[0].type == ROTA_ACTION_REQUEUE);
    CHECK(v[0].job == 1);
    CHECK(v[1].type == ROTA_ACTION_REQUEUE);
    CHECK(v[1].job == 2);
    // Both start again away from node 2, which is out of every row.
    v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 1));
    REQUIRE(find(v, ROTA_ACTION_START, 2));
    CHECK(find(v, ROTA_ACTION_START, 1)->nodes == std::set<int32_t>{0, 1, 3, 4, 5, 6});
    CHECK(find(v, ROTA_ACTION_START, 2)->nodes == std::set<int32_t>{0, 1, 3, 4});
    for (int32_t row = 0; row < 2; ++row) {
        int64_t cells[8];
        size_t n = 0;
        REQUIRE(rota_matrix_row(m.e.get(), row, cells, 8, &n) == ROTA_OK);
        CHECK(cells[2] == -1);
        size_t nfree = 0;
        int32_t free_cols[8];
        REQUIRE(rota_row_free_nodes(m.e.get(), row, free_cols, 8, &nfree) == ROTA_OK);
        CHECK(std::find(free_cols, free_cols + nfree, 2) == free_cols + nfree);
    }
    // Node 0 drains: it leaves when the last of its two jobs ends.
    REQUIRE(rota_node_drain(m.e.get(), 0) == ROTA_OK);
    REQUIRE(rota_advance(m.e.get(), 6 * kS) == ROTA_OK);
    m.drain();
    REQUIRE(rota_job_end(m.e.get(), 1) == ROTA_OK);
    m.submit(3, 1, 100);  // would take node 0 in row 0 if it were in service
    v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 3));
    CHECK(find(v, ROTA_ACTION_START, 3)->nodes.count(0) == 0);
    REQUIRE(rota_job_end(m.e.get(), 2) == ROTA_OK);
    CHECK(rota_node_down(m.e.get(), 0, ROTA_NODE_KILL) == ROTA_ESTATE);  // out already
    CHECK_THAT(rota_errmsg(m.e.get()), Catch::Contains("already out of service"));
    REQUIRE(rota_node_up(m.e.get(), 0) == ROTA_OK);
    REQUIRE(rota_node_up(m.e.get(), 2) == ROTA_OK);
    m.submit(4, 7, 100);  // 7 nodes: only with both back
    v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 4));
    CHECK(find(v, ROTA_ACTION_START, 4)->nodes.count(0) == 1);
    CHECK(find(v, ROTA_ACTION_START, 4)->nodes.count(2) == 1);
    // The embedder requeues job 4 (its start failed): it leaves its row
    // and waits again; the next pass starts it again.
    REQUIRE(rota_job_requeue(m.e.get(), 4, "prolog failed") == ROTA_OK);
    v = m.drain();
    REQUIRE(v.size() == 1);
    CHECK(v[0].type == ROTA_ACTION_REQUEUE);
    CHECK(v[0].reason == "prolog failed");
    size_t queued = 0;
    REQUIRE(rota_queue(m.e.get(), nullptr, 0, &queued) == ROTA_OK);
    CHECK(queued == 1);
    v = m.pass();
    REQUIRE(find(v, ROTA_ACTION_START, 4));
    CHECK(find(v, ROTA_ACTION_START, 4)->nodes.size() == 7);
}
