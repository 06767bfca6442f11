// The engine's check of a configuration it is given: each value in its
// range, then the combination of its parts (combinations.h). Reading TOML,
// presets and keys a mode does not read are the C ABI's (capi/config.cpp).
#include <string>

#include "combinations.h"
#include "error.h"
#include "scheduler.h"

namespace rota {

namespace {

[[noreturn]] void fail(const std::string& m) {
    throw Error(Errc::config, m);
}

void check_machine(const SchedulerConfig& cfg) {
    if (cfg.procs <= 0) fail("machine.procs must be positive, got " + std::to_string(cfg.procs));
    if (cfg.rows < 1 || cfg.rows > 32) fail("gang.mpl must be between 1 and 32");
    if (cfg.rows > 1 && cfg.slice <= 0) fail("gang.slice must be positive");
    if (cfg.pools.size() > kMaxPools)
        fail("machine.pools holds " + std::to_string(cfg.pools.size()) + " pools; at most " +
             std::to_string(kMaxPools));
    for (const auto& p : cfg.pools)
        if (p.capacity <= 0) fail("pool '" + p.name + "' needs a positive capacity");
    if (!cfg.clusters.empty()) {
        std::int64_t total = 0;
        for (const auto& c : cfg.clusters) {
            if (c.nodes <= 0) fail("cluster '" + c.name + "' needs a positive number of nodes");
            total += c.nodes;
        }
        if (total != cfg.procs)
            fail("the clusters have " + std::to_string(total) + " nodes; machine.procs is " +
                 std::to_string(cfg.procs));
        if (cfg.clusters.size() > 256) fail("at most 256 clusters");
    }
    for (const PartitionConfig& p : cfg.partitions)
        for (const NodeRun& r : p.nodes)
            if (r.count <= 0 || r.first < 0 || r.first > cfg.procs - r.count)
                fail("partition '" + p.name + "' names nodes outside the machine");
}

void check_pass(const SchedulerConfig& cfg) {
    if (cfg.reservation_depth < SchedulerConfig::kUnlimited)
        fail("scheduler.reservation_depth must be -1 (unlimited) or >= 0");
    if (cfg.migration_cost < 0) fail("gang.migration_cost must not be negative");
    if (cfg.migration_q < -1) fail("gang.migration_q must be -1 (unlimited) or >= 0");
    if (cfg.rekey_interval < 0 || (cfg.rekey_interval > 0 && cfg.rekey_interval < kSecond))
        fail("scheduler.rekey_interval must be 0 (only after a reload) or at least 1 s, got " +
             std::to_string(cfg.rekey_interval) + " us");
    if (cfg.usage_half_life < 0) fail("scheduler.usage_half_life must not be negative");
    if (cfg.min_job_age < 0) fail("scheduler.min_job_age must not be negative");
    const MalleableConfig& m = cfg.malleable;
    if (m.mpl_limit < 0) fail("malleable.mpl_limit must be >= 0");
    if (m.max_harvests < 0) fail("malleable.max_harvests must be >= 0");
    if (m.protect_age < 0 || m.adapt_latency < 0 || !(m.adapt_per_byte >= 0))
        fail("malleable times and costs must not be negative");
}

void check_class_params(const ClassParams& p) {
    for (const JobClassConfig& k : p.classes)
        if (k.max_wait < 0 || k.dnd < 0 || k.procs < 0)
            fail("class '" + k.name + "': times and limits must not be negative");
    const ClassLimits& l = p.limits;
    if (l.large_job < 0 || l.large_procs < 0 || l.job_procs < 0 || l.system_procs < 0)
        fail("classes: limits must not be negative");
}

void check_classes(const ClassesConfig& c) {
    if (!c.enabled) return;
    if (c.base.classes.empty()) fail("[classes] needs at least one class");
    if (c.base.classes.size() > 1000) fail("[classes]: at most 1000 classes");
    if (c.default_class < 0 || static_cast<std::size_t>(c.default_class) >= c.base.classes.size())
        fail("classes.default is not a class");
    if (c.swap_time < 0) fail("classes.swap_time must not be negative");
    for (const ClassPeriod& p : c.periods) {
        if (p.params.classes.size() != c.base.classes.size())
            fail("classes.period '" + p.name + "' does not give every class");
        if (p.from < 0 || p.from > 86400 || p.to < 0 || p.to > 86400 || p.from == p.to ||
            p.days == 0 || p.days > 0x7f)
            fail("classes.period '" + p.name + "' has no valid days or hours");
    }
    check_class_params(c.base);
    for (const ClassPeriod& p : c.periods) check_class_params(p.params);
}

}  // namespace

SchedulerConfig checked(SchedulerConfig cfg) {
    check_machine(cfg);
    check_pass(cfg);
    check_classes(cfg.classes);
    check_combination(cfg);
    return cfg;
}

}  // namespace rota
