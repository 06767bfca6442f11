// [Ngubiri07]'s workload simulated on multi-cluster machines through the C ABI:
// every job accounted for, components on distinct clusters within their
// nodes, and the stopping rule's measured set.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <tuple>

#include "sim/generate.h"
#include "sim/groups.h"
#include "sim/stopping.h"
#include "support.h"

using namespace rota::sim;

namespace {

rota::test::EnginePtr cluster_engine(const std::string& policy,
                                     const std::vector<ClusterSpec>& clusters,
                                     const std::string& extra = "") {
    RunConfig rc;
    rc.clusters = clusters;
    if (!extra.empty()) rc.engine = toml::parse(extra);
    return rota::test::engine_from(
        engine_toml(rc, policy, static_cast<std::int32_t>(total_nodes(clusters))));
}

// Whether the widths fit distinct clusters of an empty machine: the widest
// on the largest, and so on (a greedy match is exact for this).
bool fits_empty(std::vector<std::int32_t> w, std::vector<std::int32_t> nodes) {
    if (w.size() > nodes.size()) return false;
    std::sort(w.rbegin(), w.rend());
    std::sort(nodes.rbegin(), nodes.rend());
    for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i] > nodes[i]) return false;
    return true;
}

// Checks a run's outcomes and placements against the machine.
void check_schedule(const std::vector<TraceJob>& jobs, const Components& comps, const SimResult& r,
                    const std::vector<ClusterSpec>& clusters) {
    std::vector<std::int32_t> nodes;
    for (const auto& c : clusters) nodes.push_back(c.nodes);
    const auto nc = static_cast<std::int32_t>(clusters.size());
    // (time, +1 start / -1 end, cluster, width): ends first at equal times.
    std::vector<std::tuple<std::int64_t, int, std::int32_t, std::int32_t>> ev;
    REQUIRE(r.jobs.size() == jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const JobOutcome& o = r.jobs[j];
        const std::vector<std::int32_t> w(comps.of(j), comps.of(j) + comps.count(j));
        INFO("job " << jobs[j].id << " components " << format_widths(w.data(), w.size()));
        // Every job is accounted for: it ran, or it can never run.
        REQUIRE(o.state != FinalState::unfinished);
        REQUIRE((o.state == FinalState::rejected) == !fits_empty(w, nodes));
        if (o.state == FinalState::rejected) continue;
        REQUIRE(o.state == FinalState::finished);
        REQUIRE(o.start >= o.submit);
        REQUIRE(o.finish - o.start == jobs[j].runtime);  // all components end together
        const std::int32_t* c = r.clusters.of(j);
        std::vector<std::int32_t> seen;
        for (std::size_t k = 0; k < w.size(); ++k) {
            REQUIRE(c[k] >= 0);
            REQUIRE(c[k] < nc);
            REQUIRE(w[k] <= nodes[static_cast<std::size_t>(c[k])]);
            seen.push_back(c[k]);
            ev.emplace_back(o.start, +1, c[k], w[k]);
            ev.emplace_back(o.finish, -1, c[k], w[k]);
        }
        std::sort(seen.begin(), seen.end());
        REQUIRE(std::adjacent_find(seen.begin(), seen.end()) == seen.end());  // distinct
    }
    std::sort(ev.begin(), ev.end());
    std::vector<std::int64_t> used(nodes.size(), 0);
    for (const auto& [t, d, c, w] : ev) {
        used[static_cast<std::size_t>(c)] += d * w;
        INFO("t = " << t << " cluster " << c);
        REQUIRE(used[static_cast<std::size_t>(c)] <= nodes[static_cast<std::size_t>(c)]);
    }
}

}  // namespace

TEST_CASE("[Ngubiri07]'s workload on 5 x 20 nodes: every job runs, components apart",
          "[multicluster]") {
    GenerateOptions o = ngubiri_options(21);
    o.jobs = 2000;
    const GeneratedWorkload w = generate_workload(o);
    const auto clusters = parse_clusters("5x20");
    for (const char* policy : {"fcfs", "fpfs", "easy", "conservative"}) {
        DYNAMIC_SECTION(policy) {
            auto e = cluster_engine(policy, clusters);
            SimOptions opt;
            opt.components = &w.components;
            const SimResult r = simulate(e.get(), w.jobs, opt);
            check_schedule(w.jobs, w.components, r, clusters);
            CHECK(r.rejections.empty());
        }
    }
}

TEST_CASE("uneven clusters: jobs that cannot fit are rejected, the rest placed", "[multicluster]") {
    // 38 nodes in two components of 19 need two clusters of 19: there is one.
    GenerateOptions o = ngubiri_options(22);
    o.jobs = 1500;
    o.max_components = 3;
    o.clusters = {20, 16, 12};
    const GeneratedWorkload w = generate_workload(o);
    const auto clusters = parse_clusters("20,16,12");
    for (const char* placement : {"worst_fit", "best_fit", "first_fit"}) {
        DYNAMIC_SECTION(placement) {
            auto e = cluster_engine(
                "fpfs", clusters,
                std::string("[policy.placement]\nscript = \"placement/") + placement + ".lua\"\n");
            SimOptions opt;
            opt.components = &w.components;
            const SimResult r = simulate(e.get(), w.jobs, opt);
            check_schedule(w.jobs, w.components, r, clusters);
            CHECK_FALSE(r.rejections.empty());
        }
    }
}

TEST_CASE("the stopping rule on a multi-cluster run measures consecutive arrivals",
          "[multicluster][stopping]") {
    GenerateOptions o = ngubiri_options(23);
    o.jobs = 60000;
    const GeneratedWorkload w = generate_workload(o);
    const auto shapes = job_shapes(w.jobs, w.components);
    const GroupLayout layout = make_layout(shapes, derive_bounds(shapes));
    const auto order = arrival_order(w.jobs);
    StopRule rule;
    rule.rel_error = 0.10;
    rule.warmup = 1000;
    rule.groups = false;  // the whole stream
    rule.batches.batch = 200;
    StopMonitor m(shapes, layout, order, rule);
    auto e = cluster_engine("fpfs", parse_clusters("5x20"));
    SimOptions opt;
    opt.components = &w.components;
    opt.stop = [&](const std::vector<JobOutcome>& out) { return m.update(out); };
    const SimResult r = simulate(e.get(), w.jobs, opt);
    REQUIRE(r.stopped);
    REQUIRE(m.stopped());
    CHECK(r.arrived < o.jobs);
    CHECK(m.max_rel_error() <= 0.10);
    // The measured arrivals all ended; the report over them agrees with the
    // batch means the rule saw.
    const MeasuredSet ms{rule.warmup, m.measured_jobs()};
    for (std::int64_t k = ms.first; k < ms.first + ms.count; ++k)
        REQUIRE(r.jobs[order[static_cast<std::size_t>(k)]].state == FinalState::finished);
    const GroupReport g = group_report(w.jobs, shapes, r.jobs, order, layout, ms, rule.batches);
    CHECK(g.measured_jobs == m.measured_jobs());
    CHECK(g.stats[0].art == Approx(m.last().series[0].mean));
    CHECK(g.stats[0].half_width == Approx(m.last().series[0].half_width));
}
