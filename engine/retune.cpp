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
    if (!(next.malleable == cfg_.malleable)) fixed("malleable");
    if (!(next.classes == cfg_.classes)) fixed("classes");
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
