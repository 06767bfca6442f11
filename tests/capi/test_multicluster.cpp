// Multi-cluster co-allocation ([Ngubiri07]): schedules worked out by hand,
// the placement hook and its shipped policies, bad input, and properties
// over random workloads. Times are seconds; each job runs exactly its
// estimate, so it ends by the engine's KILL at its walltime.
#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "support.h"

using namespace rota;
using rota::test::engine_from;
using rota::test::EnginePtr;
using rota::test::hook_stats;

namespace {

constexpr std::int64_t kUs = 1'000'000;

struct McJob {
    std::int64_t id;
    std::int64_t submit;   // s
    std::int64_t runtime;  // s, also the estimate
    std::vector<std::int32_t> comps;
};

struct Started {
    std::int64_t at = -1;                // s
    std::vector<std::int32_t> clusters;  // the cluster of each component, from rota_job_clusters
    std::vector<std::pair<std::int32_t, std::int32_t>> per_cluster;  // (cluster, nodes) from START
};

struct McRun {
    std::map<std::int64_t, Started> started;
    std::map<std::int64_t, std::string> rejected;
    std::map<std::int64_t, std::int32_t> jumps_at_start;
};

std::string clusters_toml(const std::vector<int>& sizes, const std::string& rest) {
    std::ostringstream os;
    os << "[machine]\n";
    for (int n : sizes) os << "[[machine.clusters]]\nnodes = " << n << "\n";
    os << rest;
    return os.str();
}

std::string preset(const std::string& name, int max_jumps = -1, const std::string& placement = "") {
    std::string s = "[scheduler]\npreset = \"" + name + "\"\n";
    if (max_jumps >= 0)
        s += "[policy.backfill_select]\nmax_jumps = " + std::to_string(max_jumps) + "\n";
    if (!placement.empty()) s += "[policy.placement]\nscript = \"" + placement + "\"\n";
    return s;
}

// Drives the engine through its C ABI like an embedder would, checking
// after every pass that no cluster holds more than its nodes, that every
// component of a running job is on a cluster of its own and that each START
// gives every component its width on its cluster.
McRun drive(rota_engine* e, std::vector<McJob> jobs) {
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const McJob& a, const McJob& b) { return a.submit < b.submit; });
    rota_machine_info mi{};
    mi.size = sizeof(mi);
    REQUIRE(rota_machine_info_get(e, &mi) == ROTA_OK);
    std::vector<rota_cluster_info> cl(static_cast<std::size_t>(mi.nclusters));
    for (int c = 0; c < mi.nclusters; ++c) {
        cl[static_cast<std::size_t>(c)].size = sizeof(rota_cluster_info);
        REQUIRE(rota_cluster_info_get(e, c, &cl[static_cast<std::size_t>(c)]) == ROTA_OK);
    }
    std::map<std::int64_t, const McJob*> by_id;
    for (const auto& j : jobs) by_id[j.id] = &j;
    std::vector<std::int32_t> used(cl.size(), 0);
    std::map<std::int64_t, std::vector<std::pair<std::int32_t, std::int32_t>>> holding;
    McRun out;
    std::size_t next = 0;
    auto drain = [&] {
        rota_action a{};
        a.size = sizeof(a);
        while (rota_next_action(e, &a) == ROTA_OK) {
            if (a.type == ROTA_ACTION_START) {
                REQUIRE(a.run_cluster != nullptr);
                std::map<std::int32_t, std::int32_t> per;
                for (int r = 0; r < a.nruns; ++r) {
                    const std::int32_t c = a.run_cluster[r];
                    const auto& ci = cl[static_cast<std::size_t>(c)];
                    CHECK(a.runs[r].first >= ci.first);
                    CHECK(a.runs[r].first + a.runs[r].count <= ci.first + ci.nodes);
                    per[c] += a.runs[r].count;
                }
                Started s;
                s.at = a.time / kUs;
                s.per_cluster.assign(per.begin(), per.end());
                std::int32_t nc[8];
                size_t n = 0;
                REQUIRE(rota_job_clusters(e, a.job, nc, 8, &n) == ROTA_OK);
                s.clusters.assign(nc, nc + n);
                rota_job_info ji{};
                ji.size = sizeof(ji);
                REQUIRE(rota_job_info_get(e, a.job, &ji) == ROTA_OK);
                const McJob& j = *by_id.at(a.job);
                // Each component on its own cluster, with its width there.
                REQUIRE(s.clusters.size() == j.comps.size());
                CHECK(std::set<std::int32_t>(s.clusters.begin(), s.clusters.end()).size() ==
                      s.clusters.size());
                for (std::size_t i = 0; i < j.comps.size(); ++i)
                    CHECK(per[s.clusters[i]] == j.comps[i]);
                CHECK(per.size() == j.comps.size());
                for (auto [c, k] : per) used[static_cast<std::size_t>(c)] += k;
                holding[a.job] = s.per_cluster;
                out.started[a.job] = s;
            } else if (a.type == ROTA_ACTION_KILL) {
                for (auto [c, k] : holding.at(a.job)) used[static_cast<std::size_t>(c)] -= k;
                holding.erase(a.job);
            } else if (a.type == ROTA_ACTION_REJECT) {
                out.rejected[a.job] = a.reason;
            }
        }
        for (std::size_t c = 0; c < cl.size(); ++c) {
            CHECK(used[c] >= 0);
            CHECK(used[c] <= cl[c].nodes);
        }
    };
    for (;;) {
        rota_time t = 0;
        const bool wake = rota_next_wakeup(e, &t) == ROTA_OK;
        if (next < jobs.size() && (!wake || jobs[next].submit * kUs <= t))
            t = jobs[next].submit * kUs;
        else if (!wake)
            break;
        REQUIRE(rota_advance(e, t) == ROTA_OK);
        drain();
        for (; next < jobs.size() && jobs[next].submit * kUs == t; ++next) {
            const McJob& j = jobs[next];
            rota_job rj{};
            rj.size = sizeof(rj);
            rj.id = j.id;
            rj.estimate = j.runtime * kUs;
            rj.procs = 0;
            for (auto w : j.comps) rj.procs += w;
            rj.user = -1;
            rj.ncomponents = static_cast<int32_t>(j.comps.size());
            rj.components = j.comps.data();
            INFO(rota_errmsg(e));
            REQUIRE(rota_submit(e, &rj) == ROTA_OK);
        }
        REQUIRE(rota_schedule(e) == ROTA_OK);
        drain();
    }
    // Every job accounted for: started and ended, or rejected.
    CHECK(out.started.size() + out.rejected.size() == jobs.size());
    CHECK(holding.empty());
    return out;
}

std::map<std::int64_t, std::int64_t> starts(const McRun& r) {
    std::map<std::int64_t, std::int64_t> m;
    for (const auto& [id, s] : r.started) m[id] = s.at;
    return m;
}

using Starts = std::map<std::int64_t, std::int64_t>;
using Clusters = std::vector<std::int32_t>;

}  // namespace

// [Ngubiri07] §3's WFit on five clusters of 20: the widest component goes to
// the freest cluster and the smallest to the busiest, ties to the lower
// cluster. Job 1 (4+3+2+1+1) on an empty machine takes clusters 0..4 in
// width order; job 2 (10) then sees 16, 17, 18, 19, 19 free and takes
// cluster 3; job 3 (6+2) sees 16, 17, 18, 9, 19: 6 to cluster 4, 2 to 2.
TEST_CASE("multicluster: Worst Fit, widest component to the freest cluster ([Ngubiri07] §3)") {
    auto e = engine_from(clusters_toml({20, 20, 20, 20, 20}, preset("fcfs")));
    const McRun r =
        drive(e.get(), {{1, 0, 100, {4, 3, 2, 1, 1}}, {2, 0, 100, {10}}, {3, 0, 100, {6, 2}}});
    CHECK(starts(r) == Starts{{1, 0}, {2, 0}, {3, 0}});
    CHECK(r.started.at(1).clusters == Clusters{0, 1, 2, 3, 4});
    CHECK(r.started.at(2).clusters == Clusters{3});
    CHECK(r.started.at(3).clusters == Clusters{4, 2});
}

TEST_CASE("multicluster: the nodes of a START lie in their clusters, lowest first") {
    auto e = engine_from(clusters_toml({20, 20, 20, 20, 20}, preset("fcfs")));
    REQUIRE(rota_advance(e.get(), 0) == ROTA_OK);
    const std::int32_t comps[] = {4, 3, 2, 1, 1};
    rota_job j{};
    j.size = sizeof(j);
    j.id = 7;
    j.estimate = 100 * kUs;
    j.procs = 11;
    j.user = -1;
    j.ncomponents = 5;
    j.components = comps;
    REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_action a{};
    a.size = sizeof(a);
    REQUIRE(rota_next_action(e.get(), &a) == ROTA_OK);
    REQUIRE(a.type == ROTA_ACTION_START);
    REQUIRE(a.nruns == 5);
    const std::pair<int, int> want[] = {{0, 4}, {20, 3}, {40, 2}, {60, 1}, {80, 1}};
    for (int i = 0; i < 5; ++i) {
        CHECK(a.runs[i].first == want[i].first);
        CHECK(a.runs[i].count == want[i].second);
        CHECK(a.run_cluster[i] == i);
    }
    rota_cluster_info ci{};
    ci.size = sizeof(ci);
    REQUIRE(rota_cluster_info_get(e.get(), 1, &ci) == ROTA_OK);
    CHECK(ci.first == 20);
    CHECK(ci.nodes == 20);
    CHECK(ci.idle == 17);
}

// Two clusters of 10 with 4 free on each: 8 nodes are free in all, yet a
// job of one 8-node component must wait for a cluster to empty (at 100),
// while a job of 4 + 4 fits now. FCFS keeps it behind the blocked job;
// FPFS ([Ngubiri07] §3) lets it jump, and counts the jump.
TEST_CASE("multicluster: free nodes in total are not room on one cluster") {
    const std::vector<McJob> jobs{
        {1, 0, 100, {6}}, {2, 0, 100, {6}}, {3, 0, 50, {8}}, {4, 0, 30, {4, 4}}};
    auto fcfs = engine_from(clusters_toml({10, 10}, preset("fcfs")));
    CHECK(starts(drive(fcfs.get(), jobs)) == Starts{{1, 0}, {2, 0}, {3, 100}, {4, 150}});
    auto fpfs = engine_from(clusters_toml({10, 10}, preset("fpfs", 10)));
    const McRun r = drive(fpfs.get(), jobs);
    CHECK(starts(r) == Starts{{1, 0}, {2, 0}, {3, 100}, {4, 0}});
    CHECK(r.started.at(4).clusters == Clusters{0, 1});
}

// FPFS(maxJumps) counts jumps over the head wherever the jumping jobs
// run: with one jump allowed only job 4 passes the blocked job 3; with two,
// job 5 passes it too, on the other cluster.
TEST_CASE("multicluster: FPFS counts the head's jumps across clusters") {
    const std::vector<McJob> jobs{
        {1, 0, 100, {6}}, {2, 0, 100, {6}}, {3, 0, 50, {8}}, {4, 0, 300, {2}}, {5, 0, 300, {2}}};
    auto one = engine_from(clusters_toml({10, 10}, preset("fpfs", 1)));
    const McRun r1 = drive(one.get(), jobs);
    CHECK(starts(r1) == Starts{{1, 0}, {2, 0}, {3, 100}, {4, 0}, {5, 100}});
    CHECK(r1.started.at(4).clusters == Clusters{0});
    CHECK(r1.started.at(3).clusters == Clusters{1});  // 8 free on cluster 0, 10 on cluster 1
    auto two = engine_from(clusters_toml({10, 10}, preset("fpfs", 2)));
    const McRun r2 = drive(two.get(), jobs);
    CHECK(starts(r2) == Starts{{1, 0}, {2, 0}, {3, 100}, {4, 0}, {5, 0}});
    CHECK(r2.started.at(5).clusters == Clusters{1});
}

// EASY on clusters: the head (8 nodes) is reserved at 100 on cluster 0,
// where job 1 ends. Job 4 (4 nodes for 300 s) fits now on either cluster,
// but on cluster 0 it would still hold nodes at 100: Worst Fit by room
// over its window puts it on cluster 1. Job 5 then has no room that spares
// the reservation and waits until the head ends at 150.
TEST_CASE("multicluster: EASY's reservation holds a cluster; backfill goes elsewhere") {
    auto e = engine_from(clusters_toml({10, 10}, preset("easy")));
    const std::vector<McJob> jobs{
        {1, 0, 100, {6}}, {2, 0, 200, {6}}, {3, 0, 50, {8}}, {4, 0, 300, {4}}, {5, 0, 300, {4}}};
    const McRun r = drive(e.get(), jobs);
    CHECK(starts(r) == Starts{{1, 0}, {2, 0}, {3, 100}, {4, 0}, {5, 150}});
    CHECK(r.started.at(1).clusters == Clusters{0});
    CHECK(r.started.at(3).clusters == Clusters{0});
    CHECK(r.started.at(4).clusters == Clusters{1});
}

TEST_CASE("multicluster: a reservation's clusters are visible while it waits") {
    auto e = engine_from(clusters_toml({10, 10}, preset("conservative")));
    REQUIRE(rota_advance(e.get(), 0) == ROTA_OK);
    auto submit = [&](std::int64_t id, std::vector<std::int32_t> comps, std::int64_t est) {
        rota_job j{};
        j.size = sizeof(j);
        j.id = id;
        j.estimate = est * kUs;
        for (auto w : comps) j.procs += w;
        j.user = -1;
        j.ncomponents = static_cast<int32_t>(comps.size());
        j.components = comps.data();
        REQUIRE(rota_submit(e.get(), &j) == ROTA_OK);
    };
    submit(1, {9}, 100);
    submit(2, {3}, 200);
    submit(3, {8, 8}, 50);  // cluster 1 has 7 free until job 2 ends at 200
    REQUIRE(rota_schedule(e.get()) == ROTA_OK);
    rota_reservation res{};
    res.size = sizeof(res);
    size_t n = 0;
    REQUIRE(rota_reservations(e.get(), &res, 1, &n) == ROTA_OK);
    REQUIRE(n == 1);
    CHECK(res.job == 3);
    CHECK(res.start == 200 * kUs);  // cluster 1 has 7 free only once job 2 ends
    std::int32_t cs[4];
    REQUIRE(rota_job_clusters(e.get(), 3, cs, 4, &n) == ROTA_OK);
    REQUIRE(n == 2);
    CHECK(std::set<std::int32_t>{cs[0], cs[1]} == std::set<std::int32_t>{0, 1});
    // Job 1 is not reserved and runs: its cluster; an unknown job is an error.
    REQUIRE(rota_job_clusters(e.get(), 1, cs, 4, &n) == ROTA_OK);
    CHECK(n == 1);
    CHECK(rota_job_clusters(e.get(), 99, cs, 4, &n) == ROTA_ENOTFOUND);
}

// The shipped placement policies on three clusters of 10. Job A (5) and
// job B (7) leave 5, 3 and 10 free under First Fit; job C (3) then goes to
// the first cluster that holds it under First Fit, the tightest under Best
// Fit, the freest under Worst Fit.
TEST_CASE("multicluster: the shipped placement policies (placement/*.lua)") {
    const std::vector<McJob> jobs{{1, 0, 100, {5}}, {2, 0, 100, {7}}, {3, 0, 100, {3}}};
    auto run = [&](const std::string& script) {
        auto e = engine_from(clusters_toml({10, 10, 10}, preset("fcfs", -1, script)));
        McRun r = drive(e.get(), jobs);
        CHECK(hook_stats(e.get(), ROTA_HOOK_PLACEMENT).calls == 3);  // once per job placed
        CHECK(hook_stats(e.get(), ROTA_HOOK_PLACEMENT).failures == 0);
        return std::vector<Clusters>{r.started.at(1).clusters, r.started.at(2).clusters,
                                     r.started.at(3).clusters};
    };
    CHECK(run("placement/first_fit.lua") == std::vector<Clusters>{{0}, {1}, {0}});
    CHECK(run("placement/best_fit.lua") == std::vector<Clusters>{{0}, {1}, {1}});
    CHECK(run("placement/worst_fit.lua") == std::vector<Clusters>{{0}, {1}, {2}});
}

// Answers that are not placements are failures of the script: counted,
// and Worst Fit places the batch; every job still starts.
TEST_CASE("multicluster: a bad placement answer falls back to Worst Fit") {
    const char* same_twice =
        "return { placement = function(c, ctx)\n"
        "  local a = {}\n"
        "  for j = 1, c.n do local t = {} for i = 1, #c.components[j] do t[i] = 1 end a[j] = t "
        "end\n"
        "  return a end }\n";
    const char* no_room =  // everything on cluster 1, which cannot hold it all
        "return { placement = function(c, ctx)\n"
        "  local a = {}\n"
        "  for j = 1, c.n do a[j] = {1} end\n"
        "  return a end }\n";
    const char* wrong_count = "return { placement = function(c, ctx) return {{1, 2, 3}} end }\n";
    // Right clusters, but a named field beside them: no answer either.
    const char* named_field =
        "return { placement = function(c, ctx) return {{1, 2, x = 1}} end }\n";
    for (const char* script : {same_twice, no_room, wrong_count, named_field}) {
        const auto dir = std::filesystem::temp_directory_path() / "rota_placement_test";
        std::filesystem::create_directories(dir);
        {
            std::ofstream f(dir / "p.lua");
            f << script;
        }
        auto e =
            engine_from(clusters_toml({10, 10}, preset("fcfs", -1, "p.lua")), dir.string().c_str());
        std::vector<McJob> jobs{{1, 0, 100, {6}}, {2, 0, 100, {6}}};
        if (script == same_twice) jobs = {{1, 0, 100, {3, 3}}};
        if (script == wrong_count || script == named_field) jobs = {{1, 0, 100, {3, 3}}};
        const McRun r = drive(e.get(), jobs);
        CHECK(r.started.size() == jobs.size());
        CHECK(hook_stats(e.get(), ROTA_HOOK_PLACEMENT).failures == 1);
        if (script == no_room) {
            CHECK(r.started.at(1).clusters == Clusters{0});  // Worst Fit's
            CHECK(r.started.at(2).clusters == Clusters{1});
        }
    }
}

TEST_CASE("multicluster: jobs that can never be placed are rejected with the reason") {
    auto e = engine_from(clusters_toml({20, 10, 10}, preset("fcfs")));
    const McRun r = drive(
        e.get(),
        {{1, 0, 10, {5, 5, 5, 5}}, {2, 0, 10, {15, 15}}, {3, 0, 10, {20, 10}}, {4, 0, 10, {25}}});
    CHECK(r.rejected.at(1) == "has 4 components; the machine has 3 clusters");
    CHECK_THAT(r.rejected.at(2), Catch::Contains("2nd largest cluster has 10 nodes"));
    CHECK(r.started.at(3).clusters == Clusters{0, 1});
    CHECK_THAT(r.rejected.at(4), Catch::Contains("1st largest cluster has 20 nodes"));
}

TEST_CASE("multicluster: bad components and configurations are refused, naming what is wrong") {
    SECTION("components that do not add up to procs") {
        auto e = engine_from(clusters_toml({10, 10}, preset("fcfs")));
        const std::int32_t comps[] = {3, 4};
        rota_job j{};
        j.size = sizeof(j);
        j.id = 1;
        j.estimate = kUs;
        j.procs = 8;
        j.user = -1;
        j.ncomponents = 2;
        j.components = comps;
        CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
        CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("add up to 7 nodes, not procs = 8"));
        const std::int32_t zero[] = {8, 0};
        j.components = zero;
        CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
        j.components = nullptr;
        CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
    }
    SECTION("components on a machine without clusters") {
        auto e = engine_from("[machine]\nprocs = 8\n");
        const std::int32_t comps[] = {4, 4};
        rota_job j{};
        j.size = sizeof(j);
        j.id = 1;
        j.estimate = kUs;
        j.procs = 8;
        j.user = -1;
        j.ncomponents = 2;
        j.components = comps;
        CHECK(rota_submit(e.get(), &j) == ROTA_EINVAL);
        CHECK_THAT(rota_errmsg(e.get()), Catch::Contains("the machine has no clusters"));
        rota_cluster_info ci{};
        ci.size = sizeof(ci);
        CHECK(rota_cluster_info_get(e.get(), 0, &ci) == ROTA_EINVAL);
    }
    auto refused = [](const std::string& toml, const std::string& what) {
        rota_engine* e = nullptr;
        CHECK(rota_engine_new(toml.c_str(), nullptr, &e) == ROTA_ECONFIG);
        CHECK_THAT(rota_errmsg(e), Catch::Contains(what));
        rota_engine_free(e);
    };
    refused(
        "[machine]\nprocs = 30\n[[machine.clusters]]\nnodes = 20\n[[machine.clusters]]\nnodes = "
        "5\n",
        "key 'machine.procs' is 30 but the clusters have 25 nodes");
    refused(clusters_toml({10, 10}, "[scheduler]\npreset = \"mgs\"\n[gang]\nmpl = 2\n"),
            "[[machine.clusters]] cannot be combined with gang.migration");
    refused(clusters_toml({10, 0}, ""), "key 'machine.clusters[1].nodes' must be between 1");
    refused("[machine]\nprocs = 8\n[policy.placement]\nscript = \"placement/worst_fit.lua\"\n",
            "key 'policy.placement' is never called");
    refused("[machine]\n[[machine.clusters]]\nnodes = 4\nsize = 2\n", "machine.clusters[0]");
}

namespace {

std::vector<McJob> random_jobs(std::uint32_t seed, int n, const std::vector<int>& sizes) {
    std::mt19937 rng(seed);
    const int widest = *std::max_element(sizes.begin(), sizes.end());
    std::uniform_int_distribution<int> ncomp(1, static_cast<int>(sizes.size()) + 1);
    std::uniform_int_distribution<int> width(1, widest);
    std::uniform_int_distribution<int> gap(0, 20), run(1, 200);
    std::vector<McJob> jobs;
    std::int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += gap(rng);
        McJob j{i + 1, t, run(rng), {}};
        const int k = ncomp(rng);
        for (int c = 0; c < k; ++c) j.comps.push_back(width(rng) / (c + 1) + 1);
        jobs.push_back(j);
    }
    return jobs;
}

}  // namespace

// Components always on distinct clusters, never over a cluster's nodes,
// all starting together, every job accounted for (checked by drive()),
// under each pass and placement policy; jobs with more components than
// clusters or components too wide are rejected, never started.
TEST_CASE("multicluster: properties over random workloads") {
    const std::vector<int> sizes{16, 12, 8, 8};
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        const auto jobs = random_jobs(seed, 300, sizes);
        for (const char* p : {"fcfs", "easy", "conservative", "fpfs"}) {
            for (const char* place : {"", "placement/worst_fit.lua", "placement/best_fit.lua",
                                      "placement/first_fit.lua"}) {
                INFO("seed " << seed << ", " << p << ", placement '" << place << "'");
                auto e = engine_from(clusters_toml(sizes, preset(p, -1, place)));
                const McRun r = drive(e.get(), jobs);
                CHECK(!r.started.empty());
                for (const auto& [id, why] : r.rejected) CHECK(!why.empty());
                if (*place) CHECK(hook_stats(e.get(), ROTA_HOOK_PLACEMENT).failures == 0);
            }
        }
    }
}

// With nothing reserved (FPFS) the script and the engine's Worst Fit see
// the same free nodes, so placement/worst_fit.lua gives the schedule the
// engine gives without a placement policy, job for job.
TEST_CASE("multicluster: placement/worst_fit.lua is the engine's Worst Fit under FPFS") {
    const std::vector<int> sizes{20, 20, 20, 20, 20};
    for (std::uint32_t seed : {11u, 12u}) {
        const auto jobs = random_jobs(seed, 400, sizes);
        auto native = engine_from(clusters_toml(sizes, preset("fpfs", 10)));
        auto script =
            engine_from(clusters_toml(sizes, preset("fpfs", 10, "placement/worst_fit.lua")));
        const McRun a = drive(native.get(), jobs);
        const McRun b = drive(script.get(), jobs);
        CHECK(starts(a) == starts(b));
        for (const auto& [id, s] : a.started) CHECK(b.started.at(id).clusters == s.clusters);
    }
}
