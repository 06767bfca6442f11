// A running engine takes a new configuration (rota_reconfigure): what
// shapes the machine and the pass stays, the tunables change.
#include <string>

#include "error.h"
#include "scheduler.h"

namespace rota {

void Scheduler::check_retune(const SchedulerConfig& next) const {
    checked(next);
    // The keys a user would edit, in the order docs/config.md lists them.
    // Each fixes state the engine holds (node numbering, pool sums, the
    // matrix, reservations made under one depth, decayed usage, class and
    // malleable bookkeeping), which a restart rebuilds and a swap could not.
    auto fixed = [](const char* key) {
        throw Error(Errc::config, std::string("key '") + key +
                                      "' cannot change while the engine runs (rota_reconfigure "
                                      "changes policies and tunables; restart for the rest)");
    };
    if (next.procs != cfg_.procs) fixed("machine.procs");
    if (next.pools != cfg_.pools) fixed("machine.pools");
    if (next.clusters != cfg_.clusters) fixed("machine.clusters");
    if (next.rows != cfg_.rows) fixed("gang.mpl");
    if (next.slice != cfg_.slice) fixed("gang.slice");
    if (next.backfill != cfg_.backfill) fixed("scheduler.backfill");
    if (next.reservation_depth != cfg_.reservation_depth) fixed("scheduler.reservation_depth");
    if (next.migration != cfg_.migration) fixed("gang.migration");
    if (next.packing != cfg_.packing) fixed("gang.packing");
    if (next.usage_half_life != cfg_.usage_half_life) fixed("scheduler.usage_half_life");
    // The tables by their keys, so that the message names the one edited.
    const MalleableConfig &m = next.malleable, &was = cfg_.malleable;
    if (m.enabled != was.enabled) fixed("malleable");
    if (m.exec_model != was.exec_model) fixed("malleable.exec_model");
    if (m.mpl_limit != was.mpl_limit) fixed("malleable.mpl_limit");
    if (m.max_harvests != was.max_harvests) fixed("malleable.max_harvests");
    if (m.protect_age != was.protect_age) fixed("malleable.protect_age");
    if (m.cost_benefit != was.cost_benefit) fixed("malleable.cost_benefit");
    if (m.adapt_latency != was.adapt_latency) fixed("malleable.adapt_latency");
    if (m.adapt_per_byte != was.adapt_per_byte) fixed("malleable.adapt_per_byte");
    const ClassesConfig &c = next.classes, &had = cfg_.classes;
    if (c.enabled != had.enabled) fixed("classes");
    if (c.swap_time != had.swap_time) fixed("classes.swap_time");
    if (c.week_origin != had.week_origin) fixed("classes.week_start");
    if (c.default_class != had.default_class) fixed("classes.default");
    const ClassLimits &l = c.base.limits, &lim = had.base.limits;
    if (l.large_job != lim.large_job) fixed("classes.large_job");
    if (l.large_procs != lim.large_procs) fixed("classes.large_procs");
    if (l.job_procs != lim.job_procs) fixed("classes.job_procs");
    if (l.system_procs != lim.system_procs) fixed("classes.system_procs");
    if (!(c.base.classes == had.base.classes)) fixed("classes.class (or classes.preset)");
    if (!(c.periods == had.periods)) fixed("classes.period");
    // A field added to a table without a line above is still refused.
    if (!(m == was)) fixed("malleable");
    if (!(c == had)) fixed("classes");
}

void Scheduler::retune(const SchedulerConfig& next) {
    cfg_.migration_cost = next.migration_cost;
    cfg_.migration_q = next.migration_q;
    cfg_.quarantine_after = next.quarantine_after;
    cfg_.quarantine_time = next.quarantine_time;
    cfg_.pass_budget = next.pass_budget;
    cfg_.node_down_requeues = next.node_down_requeues;
    if (next.rekey_interval != cfg_.rekey_interval) {
        cfg_.rekey_interval = next.rekey_interval;
        // The next multiple of the new interval, as if it had always been.
        next_rekey_ = cfg_.rekey_interval > 0
                          ? (now_ / cfg_.rekey_interval + 1) * cfg_.rekey_interval
                          : kForever;
    }
}

}  // namespace rota
