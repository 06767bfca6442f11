// Migration is charged as node-time ([Zhang00] §5.4, eq. (4)/(5)): every
// migrated job pays its checkpoint/restart time out of its own execution,
// whether or not its row is active when it migrates.
#include <catch2/catch.hpp>

#include "sim/generate.h"
#include "sim/metrics.h"
#include "support.h"

using namespace rota;

namespace {

sim::SimResult run_mgs(const std::vector<sim::TraceJob>& jobs, double cost, const char* preset) {
    sim::RunConfig rc;
    rc.mpl = 5;
    rc.migration_cost = cost;
    auto e = test::engine_from(sim::engine_toml(rc, preset, 320));
    sim::SimOptions o;
    return sim::simulate(e.get(), jobs, o);
}

}  // namespace

TEST_CASE("migration cost is charged as the node-time of eq. (4)/(5)", "[sim][migration]") {
    auto g = sim::zhang_options(1.5, 1);
    g.jobs = 1500;
    const auto jobs = sim::generate(g);
    for (const char* preset : {"mgs", "mbgs"}) {
        INFO(preset);
        const auto free = run_mgs(jobs, 0, preset);
        const auto paid = run_mgs(jobs, 10, preset);
        REQUIRE(free.counters.migrations > 0);
        REQUIRE(paid.counters.migrations > 0);
        CHECK(free.migration_node_seconds == 0);
        // Each migration moves `tasks` tasks at C each and idles the others
        // C/2 more (eq. (4): C/2 |A| + C sum |J|, tasks = sum |J|; eq. (5):
        // C |A| + C/2 sum |J|, tasks = |A|): at least C per migrated task.
        const double tasks = static_cast<double>(paid.counters.migrated_tasks);
        CHECK(paid.migration_node_seconds >= 10 * tasks);
        CHECK(paid.migration_node_seconds <= 10 * tasks + 5 * 320.0 * paid.counters.migrations);
        // The time is paid: jobs that migrated finish later on the whole,
        // and every job still receives exactly its dedicated time.
        double resp_free = 0, resp_paid = 0;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            REQUIRE(paid.jobs[i].state != sim::FinalState::unfinished);
            CHECK(paid.jobs[i].run_time == std::min(jobs[i].runtime, jobs[i].estimate));
            resp_free += static_cast<double>(free.jobs[i].finish - free.jobs[i].submit);
            resp_paid += static_cast<double>(paid.jobs[i].finish - paid.jobs[i].submit);
        }
        CHECK(resp_paid > resp_free);
        CHECK(paid.capacity_loss > free.capacity_loss);
        // Migrated jobs count their execution, not the time they held
        // columns in rows switched out: utilization stays a fraction, and
        // the work is the same however often jobs migrate.
        const sim::Summary sf = sim::summarize(free.jobs, 320, free.capacity_loss);
        const sim::Summary sp = sim::summarize(paid.jobs, 320, paid.capacity_loss);
        CHECK(sf.utilization > 0);
        CHECK(sf.utilization <= 1.0);
        CHECK(sp.utilization <= 1.0);
        double work = 0;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            CHECK(paid.jobs[i].node_seconds < 0);  // procs x run_time
            work += static_cast<double>(jobs[i].procs) *
                    static_cast<double>(std::min(jobs[i].runtime, jobs[i].estimate));
        }
        const double span_free = static_cast<double>(sf.last_finish - sf.first_submit);
        CHECK(sf.utilization == Approx(work / (span_free * 320.0)));
    }
}
