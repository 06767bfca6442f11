// [Weissman03] in the simulator: the work of every malleable job is done
// exactly once however often it is grown and shrunk, the machine is never
// over-full, and the baselines are what §2.2 says they are.
#include <cmath>

#include "sim/malleable.h"
#include "support.h"

using namespace rota;

namespace {

sim::SimResult run_malleable(const std::vector<sim::TraceJob>& jobs, std::int32_t procs,
                             const std::string& policy, double min_pct,
                             const std::string& model = "linear", std::int64_t mpl = 0,
                             std::int64_t* peak = nullptr) {
    sim::RunConfig rc;
    rc.min_pct = min_pct;
    rc.exec_model = model;
    rc.mpl_limit = mpl;
    auto e = rota::test::engine_from(sim::engine_toml(rc, policy, procs));
    const std::vector<std::int32_t> mins = sim::min_procs(jobs, min_pct);
    sim::SimOptions opt;
    if (sim::uses_min(policy)) {
        opt.min_procs = &mins;
        opt.exec_model = model == "parabolic" ? 1 : 0;
    }
    if (peak) {
        opt.after_pass = [peak, procs](rota_engine* eng, std::int64_t) {
            size_t idle = 0;
            REQUIRE(rota_free_nodes(eng, nullptr, 0, &idle) == ROTA_OK);
            *peak = std::max<std::int64_t>(*peak, procs - static_cast<std::int64_t>(idle));
        };
    }
    return sim::simulate(e.get(), jobs, opt);
}

}  // namespace

TEST_CASE("[Weissman03]: every malleable job's work is done exactly once (linear model, KTH)",
          "[sim][malleable]") {
    const std::string path = rota::test::shared_path("traces/KTH-SP2-1996-2.1-cln.swf.gz");
    if (path.empty()) return;
    sim::Trace t = sim::load_trace(path, sim::Mapping::standard);
    t.jobs.resize(4000);
    const std::int32_t procs = 100;
    for (const char* policy : {"even-h-fr", "low-imp-fq", "moldable"}) {
        INFO(policy);
        std::int64_t peak = 0;
        const sim::SimResult r = run_malleable(t.jobs, procs, policy, 25, "linear", 0, &peak);
        CHECK(peak <= procs);
        std::int64_t harvested = 0, checked = 0;
        for (std::size_t i = 0; i < r.jobs.size(); ++i) {
            const sim::JobOutcome& o = r.jobs[i];
            REQUIRE(o.state != sim::FinalState::unfinished);
            if (o.state != sim::FinalState::finished) continue;
            harvested += o.harvested;
            // Linear: P processors for T(P) = ideal x RT / P, piece by
            // piece, hold ideal x RT processor-seconds in all (no
            // adaptation costs here), up to the rounding of each piece.
            const double work =
                static_cast<double>(t.jobs[i].procs) * static_cast<double>(t.jobs[i].runtime);
            CHECK(o.node_seconds == Approx(work).epsilon(0.002).margin(2.0 * (1 + o.harvested)));
            ++checked;
        }
        CHECK(checked > 3000);
        if (std::string(policy) == "moldable") {
            CHECK(harvested == 0);
            CHECK(r.counters.grows == 0);
        } else {
            CHECK(harvested > 0);
        }
    }
}

TEST_CASE("[Weissman03] §2.2: the baselines run every job on its ideal", "[sim][malleable]") {
    // Two 4-processor jobs on 4 processors, min 50 %: IDEAL-ONLY runs them
    // one after the other; MOLDABLE starts the second on... nothing: the
    // first holds all 4 and is never shrunk, so it waits too; Even-H-FQ
    // harvests 2 from the first and runs both at once.
    const std::vector<sim::TraceJob> jobs{rota::test::job(1, 0, 4, 100),
                                          rota::test::job(2, 10, 4, 100, 1000)};
    auto starts = [&](const std::string& p) {
        const sim::SimResult r = run_malleable(jobs, 4, p, 50);
        return std::make_pair(r.jobs[1].start, r.jobs[1].start_procs);
    };
    CHECK(starts("ideal-only") == std::make_pair<std::int64_t, std::int32_t>(100, 4));
    CHECK(starts("ideal-backfill") == std::make_pair<std::int64_t, std::int32_t>(100, 4));
    CHECK(starts("moldable") == std::make_pair<std::int64_t, std::int32_t>(100, 4));
    CHECK(starts("even-h-fq") == std::make_pair<std::int64_t, std::int32_t>(10, 2));
    // Under Even-H-FQ job 1 runs 10 s on 4, then 2 processors: 90 s of its
    // 100 s of ideal work take 180 s; it ends at 190 s.
    const sim::SimResult r = run_malleable(jobs, 4, "even-h-fq", 50);
    CHECK(r.jobs[0].finish == 190);
}

TEST_CASE("[Weissman03] §4.1: a job's adaptation bytes set what its harvest costs",
          "[sim][malleable][weissman]") {
    // The Even-H-FQ case above with an adaptation overhead of 1 s + 0.5 s
    // per byte / P: job 1 redistributes 8 bytes, so its shrink from 4 to 2
    // processors at 10 s suspends it for 1 + 0.5 x 8 / 4 = 2 s. Its 90 s
    // of ideal work left then take 180 s on 2 processors: it ends at
    // 10 + 2 + 180 = 192 s instead of 190 s. Job 2 redistributes nothing
    // and is never adapted.
    const std::vector<sim::TraceJob> jobs{rota::test::job(1, 0, 4, 100),
                                          rota::test::job(2, 10, 4, 100, 1000)};
    sim::RunConfig rc;
    rc.min_pct = 50;
    rc.adapt_latency = 1;
    rc.adapt_per_byte = 0.5;
    auto e = rota::test::engine_from(sim::engine_toml(rc, "even-h-fq", 4));
    const std::vector<std::int32_t> mins = sim::min_procs(jobs, 50);
    const std::vector<std::int64_t> bytes{8, 0};
    sim::SimOptions opt;
    opt.min_procs = &mins;
    opt.adapt_bytes = &bytes;
    const sim::SimResult r = sim::simulate(e.get(), jobs, opt);
    CHECK(r.jobs[1].start == 10);
    CHECK(r.jobs[0].finish == 192);
    // Without the bytes only the latency is paid: 10 + 1 + 180.
    auto e2 = rota::test::engine_from(sim::engine_toml(rc, "even-h-fq", 4));
    opt.adapt_bytes = nullptr;
    CHECK(sim::simulate(e2.get(), jobs, opt).jobs[0].finish == 191);
    // Bytes for some of the jobs only are refused.
    const std::vector<std::int64_t> one{8};
    opt.adapt_bytes = &one;
    auto e3 = rota::test::engine_from(sim::engine_toml(rc, "even-h-fq", 4));
    CHECK_THROWS_AS(sim::simulate(e3.get(), jobs, opt), sim::SimError);
}
