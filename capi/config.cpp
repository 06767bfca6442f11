#include "config.h"

#include <toml++/toml.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "config_classes.h"
#include "engine/combinations.h"
#include "engine/error.h"
#include "toml_read.h"

namespace rota {

namespace {

void parse_clusters(const toml::node& c, SchedulerConfig& s) {
    if (!c.is_array_of_tables() || c.as_array()->empty())
        fail("key 'machine.clusters' must be an array of tables ([[machine.clusters]])");
    std::size_t i = 0;
    std::int64_t total = 0;
    for (const auto& e : *c.as_array()) {
        const auto& t = *e.as_table();
        std::string where = "machine.clusters[" + std::to_string(i++) + "].";
        only_keys(t, where.substr(0, where.size() - 1), config_keys("machine.clusters[]"));
        ClusterConfig cc;
        cc.name = get_string(t, "name", where);
        if (!t.get("nodes")) fail("key '" + where + "nodes' is required");
        const std::int64_t nodes = get_int(t, "nodes", where, 0);
        if (nodes <= 0 || nodes > 1'000'000)
            fail("key '" + where + "nodes' must be between 1 and 1000000, got " +
                 std::to_string(nodes));
        cc.nodes = static_cast<std::int32_t>(nodes);
        total += nodes;
        s.clusters.push_back(cc);
    }
    if (s.clusters.size() > 256) fail("key 'machine.clusters' holds more than 256 clusters");
    if (total > 1'000'000)
        fail("the clusters of 'machine.clusters' have " + std::to_string(total) +
             " nodes in all; at most 1000000");
    if (s.procs != 0 && s.procs != total)
        fail("key 'machine.procs' is " + std::to_string(s.procs) + " but the clusters have " +
             std::to_string(total) + " nodes in all (leave machine.procs out)");
    s.procs = static_cast<std::int32_t>(total);
}

// Node numbers as ranges, "0-3,8,10-15", each inside 0..procs-1; sorted and
// merged into runs.
std::vector<NodeRun> node_ranges(const std::string& text, std::int32_t procs,
                                 const std::string& key) {
    std::vector<NodeRun> runs;
    std::size_t at = 0;
    auto number = [&]() -> std::int64_t {
        const std::size_t from = at;
        std::int64_t v = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - from < 8)
            v = v * 10 + (text[at++] - '0');
        if (at == from || (at < text.size() && text[at] >= '0' && text[at] <= '9'))
            fail("key '" + key + "': \"" + text.substr(0, 64) +
                 "\" is not a list of node numbers and ranges, such as \"0-3,8\"");
        if (v >= procs)
            fail("key '" + key + "': node " + std::to_string(v) + " is outside 0.." +
                 std::to_string(procs - 1));
        return v;
    };
    while (at < text.size()) {
        const std::int64_t first = number();
        std::int64_t last = first;
        if (at < text.size() && text[at] == '-') {
            ++at;
            last = number();
        }
        if (last < first)
            fail("key '" + key + "': the range " + std::to_string(first) + "-" +
                 std::to_string(last) + " is backwards");
        runs.push_back(
            {static_cast<std::int32_t>(first), static_cast<std::int32_t>(last - first + 1)});
        if (at < text.size() && text[at++] != ',')
            fail("key '" + key + "': \"" + text.substr(0, 64) +
                 "\" is not a list of node numbers and ranges, such as \"0-3,8\"");
    }
    if (runs.empty()) fail("key '" + key + "' names no node");
    std::sort(runs.begin(), runs.end(),
              [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
    std::vector<NodeRun> merged;
    for (const NodeRun& r : runs) {
        if (!merged.empty() && r.first <= merged.back().first + merged.back().count) {
            const std::int32_t end =
                std::max(merged.back().first + merged.back().count, r.first + r.count);
            merged.back().count = end - merged.back().first;
        } else {
            merged.push_back(r);
        }
    }
    return merged;
}

// [[machine.partitions]]: named node sets, which may overlap (Slurm's
// PartitionName and Nodes); jobs name them in rota_job.partition.
void parse_partitions(const toml::node& n, SchedulerConfig& s) {
    if (!n.is_array_of_tables() || n.as_array()->empty())
        fail("key 'machine.partitions' must be an array of tables ([[machine.partitions]])");
    if (n.as_array()->size() > 1024)
        fail("key 'machine.partitions' holds more than 1024 partitions");
    std::size_t i = 0;
    for (const auto& e : *n.as_array()) {
        const auto& t = *e.as_table();
        const std::string where = "machine.partitions[" + std::to_string(i++) + "].";
        only_keys(t, where.substr(0, where.size() - 1), config_keys("machine.partitions[]"));
        PartitionConfig pc;
        pc.name = get_string(t, "name", where);
        if (pc.name.empty()) fail("key '" + where + "name' is required");
        // A job names its partitions separated by commas.
        if (const std::string why = bad_name("name", pc.name); !why.empty())
            fail("key '" + where + "name': " + why);
        if (pc.name.find(',') != std::string::npos || pc.name.find(' ') != std::string::npos)
            fail("key '" + where + "name' holds a comma or a space, which separate partitions");
        for (const PartitionConfig& other : s.partitions)
            if (other.name == pc.name)
                fail("key '" + where + "name': partition '" + pc.name + "' is given twice");
        if (!t.get("nodes")) fail("key '" + where + "nodes' is required");
        pc.nodes = node_ranges(get_string(t, "nodes", where), s.procs, where + "nodes");
        pc.is_default = get_bool(t, "default", where, false);
        s.partitions.push_back(std::move(pc));
    }
}

void parse_machine(const toml::table& m, SchedulerConfig& s) {
    only_keys(m, "machine", config_keys("machine"));
    std::string fate = get_string(m, "node_down", "machine.");
    if (!m.get("node_down")) fate = "kill";
    if (fate != "kill" && fate != "requeue")
        fail("key 'machine.node_down' must be \"kill\" or \"requeue\", got \"" + fate + "\"");
    s.node_down_requeues = fate == "requeue";
    if (!m.get("procs") && !m.get("clusters"))
        fail("key 'machine.procs' is required (or [[machine.clusters]])");
    if (m.get("procs")) {
        std::int64_t procs = get_int(m, "procs", "machine.", 0);
        if (procs <= 0 || procs > 1'000'000)
            fail("key 'machine.procs' must be between 1 and 1000000, got " + std::to_string(procs));
        s.procs = static_cast<std::int32_t>(procs);
    }
    if (const toml::node* c = m.get("clusters")) parse_clusters(*c, s);
    if (const toml::node* p = m.get("partitions")) parse_partitions(*p, s);
    if (const toml::node* p = m.get("pools")) {
        if (!p->is_array_of_tables())
            fail("key 'machine.pools' must be an array of tables ([[machine.pools]])");
        // Counted before any is read (engine/config.h, kMaxPools).
        if (p->as_array()->size() > kMaxPools)
            fail("key 'machine.pools' holds " + std::to_string(p->as_array()->size()) +
                 " pools; at most " + std::to_string(kMaxPools));
        std::size_t i = 0;
        std::set<std::string> names;
        for (const auto& e : *p->as_array()) {
            const auto& t = *e.as_table();
            std::string where = "machine.pools[" + std::to_string(i++) + "].";
            only_keys(t, where.substr(0, where.size() - 1), config_keys("machine.pools[]"));
            PoolConfig pc;
            pc.name = get_string(t, "name", where);
            if (pc.name.empty()) fail("key '" + where + "name' is required");
            if (!names.insert(pc.name).second)
                fail("key '" + where + "name': pool '" + pc.name + "' is given twice");
            pc.capacity = get_int(t, "capacity", where, 0);
            if (pc.capacity <= 0)
                fail("key '" + where + "capacity' must be a positive integer, got " +
                     std::to_string(pc.capacity));
            s.pools.push_back(pc);
        }
    }
}

ParamValue param_of(const toml::node& n, const std::string& key) {
    if (n.is_boolean()) return n.as_boolean()->get();
    if (n.is_integer()) return n.as_integer()->get();
    if (n.is_floating_point()) {
        // NaN compares false with everything a script would test it against.
        if (std::isnan(n.as_floating_point()->get()))
            fail("key '" + key + "' is nan: a policy parameter must be a number it can compare");
        return n.as_floating_point()->get();
    }
    if (n.is_string()) return n.as_string()->get();
    fail("key '" + key + "' must be a boolean, number or string (a policy parameter), got " +
         type_name(n));
}

void parse_policy(const toml::table& t, EngineConfig& c) {
    only_keys(t, "policy", config_keys("policy"));
    const std::int64_t after = get_int(t, "quarantine_after", "policy.", 50);
    if (after < 0 || after > 1'000'000'000)
        fail("key 'policy.quarantine_after' must be 0 (never) or a count up to 1000000000, got " +
             std::to_string(after));
    c.scheduler.quarantine_after = static_cast<std::int32_t>(after);
    const double cool = get_seconds(t, "quarantine_time", "policy.", 600.0);
    if (!(cool >= 0) || cool > 1e9)
        fail(
            "key 'policy.quarantine_time' must be 0 (until a reload) or a number of seconds "
            "up to 1e9, got " +
            config_number(cool));
    c.scheduler.quarantine_time = static_cast<Time>(cool * static_cast<double>(kSecond));
    const std::int64_t pass = get_int(t, "pass_budget", "policy.", c.scheduler.pass_budget);
    if (pass < 0)
        fail("key 'policy.pass_budget' must be 0 (no limit) or a number of instructions, got " +
             std::to_string(pass));
    c.scheduler.pass_budget = pass;
    if (const toml::node* sp = t.get("search_path")) {
        if (!sp->is_array()) fail("key 'policy.search_path' must be an array of strings");
        for (const auto& e : *sp->as_array()) {
            if (!e.is_string()) fail("key 'policy.search_path' must be an array of strings");
            // Paths reach C calls, which would stop at a NUL.
            if (e.as_string()->get().find('\0') != std::string::npos)
                fail("key 'policy.search_path' holds a NUL character (\\u0000)");
            c.search_path.push_back(e.as_string()->get());
        }
    }
    for (int i = 0; i < kHookCount; ++i) {
        const auto hook = static_cast<Hook>(i);
        const char* name = hook_name(hook);
        const toml::table* h = table_at(t, name, "policy.");
        if (!h) continue;
        const std::string where = std::string("policy.") + name + ".";
        HookScript hs{hook, get_string(*h, "script", where), {}};
        for (const auto& [k, v] : *h) {
            if (k.str() == "script") continue;
            hs.params.emplace_back(std::string(k.str()), param_of(v, where + std::string(k.str())));
        }
        c.scripts.push_back(std::move(hs));
    }
}

// Gang scheduling ([Zhang00] §4-5): more than one row of the matrix.
void parse_gang(const toml::table& t, SchedulerConfig& s) {
    only_keys(t, "gang", config_keys("gang"));
    std::int64_t mpl = get_int(t, "mpl", "gang.", s.rows);
    if (mpl < 1 || mpl > 32)
        fail("key 'gang.mpl' must be between 1 and 32, got " + std::to_string(mpl));
    s.rows = static_cast<std::int32_t>(mpl);
    double slice = get_seconds(t, "slice", "gang.", 200.0);
    // The engine counts microseconds: a slice that truncates to none is no slice.
    if (!(slice * 1e6 >= 1) || slice > 1e9 || static_cast<std::int64_t>(slice * 1e6) < 1)
        fail(
            "key 'gang.slice' must be a number of seconds from one microsecond (0.000001) to "
            "1e9, not " +
            config_number(slice));
    s.slice = static_cast<std::int64_t>(slice * 1e6);
    s.migration = get_bool(t, "migration", "gang.", s.migration);
    double cost = get_seconds(t, "migration_cost", "gang.", 0.0);
    if (!(cost >= 0 && cost <= 1e9))
        fail("key 'gang.migration_cost' must be 0..1e9 seconds, got " + config_number(cost));
    s.migration_cost = static_cast<std::int64_t>(cost * 1e6);
    std::int64_t q = get_int(t, "migration_q", "gang.", -1);
    if (q < -1 || q > 1'000'000'000)
        fail("key 'gang.migration_q' must be -1 (unlimited) or 0..1000000000, got " +
             std::to_string(q));
    s.migration_q = static_cast<std::int32_t>(q);
    // How a job's columns are chosen in a row: [Zhang00]'s first fit, or
    // [Feitelson97] §3's buddy scheme (engine/config.h, Packing).
    const std::string packing = get_string(t, "packing", "gang.");
    if (packing == "buddy")
        s.packing = Packing::buddy;
    else if (packing.empty() || packing == "first_fit")
        s.packing = Packing::first_fit;
    else
        fail("key 'gang.packing' must be \"first_fit\" or \"buddy\", got \"" + packing + "\"");
}

// [Weissman03]'s iScheduler: malleable jobs, harvest and distribution.
void parse_malleable(const toml::table& t, SchedulerConfig& s) {
    only_keys(t, "malleable", config_keys("malleable"));
    MalleableConfig& m = s.malleable;
    m.enabled = true;
    const std::string model = get_string(t, "exec_model", "malleable.");
    if (model == "parabolic")
        m.exec_model = ExecModel::parabolic;
    else if (model.empty() || model == "linear")
        m.exec_model = ExecModel::linear;
    else
        fail("key 'malleable.exec_model' must be \"linear\" or \"parabolic\", got \"" + model +
             "\"");
    auto count = [&](const char* key) {
        const std::int64_t v = get_int(t, key, "malleable.", 0);
        if (v < 0 || v > 1'000'000'000)
            fail(std::string("key 'malleable.") + key +
                 "' must be 0 (no limit) or a count up to 1000000000, not " + std::to_string(v));
        return static_cast<std::int32_t>(v);
    };
    m.mpl_limit = count("mpl_limit");
    m.max_harvests = count("max_harvests");
    auto seconds = [&](const char* key) {
        const double v = get_seconds(t, key, "malleable.", 0.0);
        if (!(v >= 0) || v > 1e9)
            fail(std::string("key 'malleable.") + key + "' must be 0..1e9 seconds, got " +
                 config_number(v));
        return static_cast<Time>(v * 1e6);
    };
    m.protect_age = seconds("protect_age");
    m.adapt_latency = seconds("adapt_latency");
    m.cost_benefit = get_bool(t, "cost_benefit", "malleable.", false);
    const double per_byte = get_seconds(t, "adapt_per_byte", "malleable.", 0.0);
    if (!(per_byte >= 0) || per_byte > 1e3)
        fail("key 'malleable.adapt_per_byte' must be 0..1000 seconds per byte, got " +
             config_number(per_byte));
    m.adapt_per_byte = per_byte * 1e6;
}

// Order keys that age and the users' usage (docs/design.md, "Order keys
// that change", "Usage").
void parse_usage(const toml::table& t, EngineConfig& c) {
    SchedulerConfig& s = c.scheduler;
    c.rekey_interval_given = t.get("rekey_interval") != nullptr;
    const double every = get_seconds(t, "rekey_interval", "scheduler.", 300.0);
    // Each re-key is an order call over the whole queue and a pass, and the
    // engine asks to be woken for it while jobs wait: below a second
    // (Slurm's PriorityCalcPeriod counts minutes) a run is mostly re-keys.
    if (!(every == 0 || (every >= 1 && every <= 1e9)))
        fail(
            "key 'scheduler.rekey_interval' must be 0 (re-key only after a reload) or a number "
            "of seconds from 1 to 1e9, got " +
            config_number(every) +
            (every > 0 && every < 1
                 ? ": each re-key is an order call over the whole queue and a pass, and a day "
                   "of engine time while jobs wait would hold " +
                       config_number(86400 / every) + " of them"
                 : std::string()));
    s.rekey_interval = static_cast<Time>(std::llround(every * static_cast<double>(kSecond)));
    const double half = get_seconds(t, "usage_half_life", "scheduler.", 0.0);
    if (!(half == 0 || (half >= 1e-6 && half <= 1e9)))
        fail(
            "key 'scheduler.usage_half_life' must be 0 (no decay) or a number of seconds from "
            "0.000001 to 1e9, got " +
            config_number(half));
    s.usage_half_life = static_cast<Time>(std::llround(half * static_cast<double>(kSecond)));
    // Slurm's MinJobAge: how long an ended job's outcome is kept for jobs
    // that depend on it; a record per job ended within it.
    const double age = get_seconds(t, "min_job_age", "scheduler.", 0.0);
    if (!(age >= 0 && age <= 1e9))
        fail("key 'scheduler.min_job_age' must be 0 (none) or a number of seconds up to 1e9, got " +
             config_number(age));
    s.min_job_age = static_cast<Time>(std::llround(age * static_cast<double>(kSecond)));
}

void parse_lua(const toml::table& t, EngineConfig& c) {
    only_keys(t, "lua", config_keys("lua"));
    c.instruction_budget = get_int(t, "instruction_budget", "lua.", c.instruction_budget);
    c.time_limit = get_seconds(t, "time_limit", "lua.", c.time_limit);
    if (!(c.time_limit == 0 || (c.time_limit >= 0.001 && c.time_limit <= 86400)))
        fail("key 'lua.time_limit' must be 0 (none) or 0.001..86400 seconds; it is " +
             config_number(c.time_limit));
    c.memory_limit_mb = get_int(t, "memory_limit_mb", "lua.", c.memory_limit_mb);
    // Past 10^12 instructions (minutes to hours of one call) a budget stops
    // nothing in practice; a script trusted to end asks for none with 0.
    if (c.instruction_budget != 0 &&
        (c.instruction_budget < 1000 || c.instruction_budget > 1'000'000'000'000))
        fail(
            "key 'lua.instruction_budget' must be between 1000 and 1000000000000, or 0 for "
            "none; it is " +
            std::to_string(c.instruction_budget));
    if (c.memory_limit_mb < 1 || c.memory_limit_mb > 65536)
        fail("key 'lua.memory_limit_mb' must be between 1 and 65536, got " +
             std::to_string(c.memory_limit_mb));
}

HookScript* script_for(EngineConfig& c, Hook h) {
    for (auto& s : c.scripts)
        if (s.hook == h) return &s;
    return nullptr;
}

bool given(const toml::table* t, const char* key) {
    return t && t->get(key);
}

void preset_scripts(const Preset& p, EngineConfig& c, const std::string& preset) {
    const SchedulerConfig& s = c.scheduler;
    HookScript* bf = script_for(c, Hook::backfill_select);
    if (p.backfill_script) {
        if (p.owns_backfill_script && bf && !bf->script.empty())
            fail("key 'policy.backfill_select.script' is set by the preset '" + preset +
                 "'; leave scheduler.preset out to set it yourself");
        if (!bf) {
            c.scripts.push_back({Hook::backfill_select, "", {}});
            bf = &c.scripts.back();
        }
        if (bf->script.empty()) bf->script = p.backfill_script;
    }
    HookScript* mig = script_for(c, Hook::migration_option);
    if (p.migration_script && s.migration) {
        if (!mig) {
            c.scripts.push_back({Hook::migration_option, "", {}});
            mig = &c.scripts.back();
        }
        if (mig->script.empty()) mig->script = p.migration_script;
    }
}

// The preset's parts, unless a key it sets is given too.
void apply_preset(const toml::table* sched, const toml::table* gang, EngineConfig& c,
                  const std::string& preset) {
    SchedulerConfig& s = c.scheduler;
    const Preset* p = find_preset(preset);
    if (!p)
        fail("key 'scheduler.preset': unknown preset '" + preset + "' (expected " + preset_names() +
             ")");
    c.preset = p->name;
    auto owned = [&](const toml::table* t, const char* key, const std::string& full) {
        if (given(t, key))
            fail("key '" + full + "' is set by the preset '" + preset +
                 "'; leave scheduler.preset out to set it yourself");
    };
    owned(sched, "backfill", "scheduler.backfill");
    owned(sched, "reservation_depth", "scheduler.reservation_depth");
    s.backfill = p->backfill;
    s.reservation_depth = p->reservation_depth;
    if (p->gang) {
        owned(gang, "migration", "gang.migration");
        s.migration = p->migration;
    }
    preset_scripts(*p, c, preset);
}

void check_mode_keys(const toml::table* gang, EngineConfig& c) {
    const SchedulerConfig& s = c.scheduler;
    for (const auto& hs : c.scripts)
        if (hs.script.empty())
            fail(std::string("key 'policy.") + hook_name(hs.hook) + ".script' is required");
    // Keys the configured mode never reads.
    if (!s.backfill) {
        if (script_for(c, Hook::backfill_select))
            fail("key 'policy.backfill_select' is never called: scheduler.backfill is false" +
                 (c.preset.empty() ? std::string() : " (preset '" + c.preset + "')"));
    }
    // With one row nothing is switched and no job can move to another row:
    // these keys would be accepted and never used.
    if (s.rows == 1)
        for (const char* k : {"slice", "migration", "migration_cost", "migration_q"})
            if (given(gang, k))
                fail(std::string("key 'gang.") + k +
                     "' has no effect with one row (gang.mpl = 1): nothing is switched or "
                     "migrated");
    if (!s.migration) {
        for (const char* k : {"migration_cost", "migration_q"})
            if (given(gang, k))
                fail(std::string("key 'gang.") + k + "' has no effect: gang.migration is false");
        if (script_for(c, Hook::migration_option))
            fail("key 'policy.migration_option' is never called: gang.migration is false" +
                 (c.preset.empty() ? std::string() : " (preset '" + c.preset + "')"));
    }
}

void check_malleable_keys(const toml::table* sched, EngineConfig& c) {
    const SchedulerConfig& s = c.scheduler;
    // The iScheduler replaces the walk ([Weissman03], Figure 3(a)): it has no
    // reservations and no backfilling, and its hooks have no use elsewhere.
    if (s.malleable.enabled) {
        for (const char* k : {"preset", "backfill", "reservation_depth"})
            if (given(sched, k))
                fail(std::string("key 'scheduler.") + k +
                     "' has no effect with [malleable]: the iScheduler ([Weissman03]) neither "
                     "reserves nor backfills");
        if (script_for(c, Hook::backfill_select))
            fail("key 'policy.backfill_select' is never called with [malleable]: " +
                 std::string(kNeverBackfills));
    } else {
        for (Hook h : {Hook::harvest, Hook::distribution})
            if (script_for(c, h))
                fail(std::string("key 'policy.") + hook_name(h) +
                     "' is never called: there is no [malleable] table ([Weissman03])");
    }
}

void check_classes_keys(const toml::table* sched, EngineConfig& c) {
    const SchedulerConfig& s = c.scheduler;
    // [Feitelson97]'s two-pass algorithm replaces the walk: it reserves one
    // processor set at a time and preempts; its pass 2 asks backfill_select
    // which of the jobs that fit the idle processors to load.
    if (s.classes.enabled) {
        for (const char* k : {"preset", "backfill", "reservation_depth"})
            if (given(sched, k))
                fail(std::string("key 'scheduler.") + k +
                     "' has no effect with [classes]: the two-pass algorithm ([Feitelson97] §4.3) "
                     "keeps one reservation, and its pass 2 always offers backfill_select the "
                     "jobs that fit");
    } else if (script_for(c, Hook::preempt)) {
        fail(
            "key 'policy.preempt' is never called: there is no [classes] table ([Feitelson97]), "
            "nothing is preempted");
    }
}

// Applies `scheduler.preset` and checks that every key given can be
// honoured by the mode it describes: a key that would be silently ignored
// is an error that names it.
void resolve(const toml::table* sched, const toml::table* gang, EngineConfig& c) {
    const SchedulerConfig& s = c.scheduler;
    const std::string preset = sched ? get_string(*sched, "preset", "scheduler.") : "";
    // An empty name is a preset left blank, not a choice of none.
    if (preset.empty() && given(sched, "preset"))
        fail("key 'scheduler.preset': an empty name (expected " + preset_names() + ")");
    if (!preset.empty()) apply_preset(sched, gang, c, preset);
    check_mode_keys(gang, c);
    // Which parts go together is the engine's (engine/combinations.h); the
    // message names the preset that brought a part in.
    try {
        check_combination(s);
    } catch (const Error& x) {
        fail(std::string(x.what()) + (c.preset.empty() ? "" : " (preset '" + c.preset + "')"));
    }
    check_malleable_keys(sched, c);
    check_classes_keys(sched, c);
    if (c.rekey_interval_given && !script_for(c, Hook::order))
        fail(
            "key 'scheduler.rekey_interval' has no effect: there is no [policy.order] script "
            "(only an order script whose keys age, ages = true, is re-keyed at an interval)");
    if (s.clusters.empty() && script_for(c, Hook::placement))
        fail("key 'policy.placement' is never called: the machine has no [[machine.clusters]]");
}

}  // namespace

const std::vector<ConfigTable>& config_tables() {
    static const std::vector<ConfigTable> all = [] {
        std::set<std::string> policy{"search_path", "quarantine_after", "quarantine_time",
                                     "pass_budget"};
        for (int h = 0; h < kHookCount; ++h) policy.insert(hook_name(static_cast<Hook>(h)));
        const std::set<std::string> job_class{"name", "priority", "max_wait",
                                              "dnd",  "procs",    "preemptable"};
        return std::vector<ConfigTable>{
            {"", {"machine", "scheduler", "policy", "lua", "gang", "malleable", "classes"}},
            {"machine", {"procs", "pools", "clusters", "partitions", "node_down"}},
            {"machine.pools[]", {"name", "capacity"}},
            {"machine.clusters[]", {"name", "nodes"}},
            {"machine.partitions[]", {"name", "nodes", "default"}},
            {"scheduler",
             {"preset", "backfill", "reservation_depth", "rekey_interval", "usage_half_life",
              "min_job_age"}},
            {"policy", policy},
            {"lua", {"instruction_budget", "memory_limit_mb", "time_limit"}},
            {"gang", {"mpl", "slice", "migration", "migration_cost", "migration_q", "packing"}},
            {"malleable",
             {"exec_model", "mpl_limit", "max_harvests", "protect_age", "cost_benefit",
              "adapt_latency", "adapt_per_byte"}},
            {"classes",
             {"preset", "class", "period", "default", "swap_time", "week_start", "large_job",
              "large_procs", "job_procs", "system_procs"}},
            {"classes.class[]", job_class},
            {"classes.period[]",
             {"name", "days", "from", "to", "class", "large_job", "large_procs", "job_procs",
              "system_procs"}},
            {"classes.period[].class[]", job_class},
        };
    }();
    return all;
}

const std::set<std::string>& config_keys(const std::string& path) {
    for (const ConfigTable& t : config_tables())
        if (t.path == path) return t.keys;
    throw std::logic_error("config_keys: no table '" + path + "' in the schema");
}

const std::vector<Preset>& presets() {
    // [Leinberger99] §2.1 (FCFS, EASY, conservative), [Ngubiri07] §3 (FPFS), [Zhang00]
    // §5 (GS, BGS, MGS, MBGS): the walk's two parameters, rows, migration.
    // Append only: rota_preset_name(i) numbers them.
    static const std::vector<Preset> all{
        {"fcfs", false, 0, false, false, nullptr, false, nullptr},
        {"easy", true, 1, false, false, "backfill/first_fit.lua", false, nullptr},
        {"conservative", true, -1, false, false, "backfill/first_fit.lua", false, nullptr},
        {"fpfs", true, 0, false, false, "backfill/fpfs.lua", true, nullptr},
        {"gs", false, 0, true, false, nullptr, false, nullptr},
        {"bgs", true, -1, true, false, "backfill/first_fit.lua", false, nullptr},
        {"mgs", false, 0, true, true, nullptr, false, "migration/min_cost.lua"},
        {"mbgs", true, -1, true, true, "backfill/first_fit.lua", false, "migration/min_cost.lua"},
        // [Leinberger99] §4: FCFS with First-Fit, Backfill-Lowest or
        // Backfill-Balanced selection, EASY or conservative.
        {"ff-easy", true, 1, false, false, "backfill/first_fit.lua", false, nullptr},
        {"ff-cons", true, -1, false, false, "backfill/first_fit.lua", false, nullptr},
        {"bl-easy", true, 1, false, false, "backfill/lowest.lua", true, nullptr},
        {"bb-easy", true, 1, false, false, "backfill/balanced.lua", true, nullptr},
        {"bl-cons", true, -1, false, false, "backfill/lowest.lua", true, nullptr},
        {"bb-cons", true, -1, false, false, "backfill/balanced.lua", true, nullptr},
    };
    return all;
}

const Preset* find_preset(const std::string& name) {
    for (const auto& p : presets())
        if (name == p.name) return &p;
    return nullptr;
}

std::string preset_names() {
    std::string s;
    for (const auto& p : presets()) s += (s.empty() ? "" : ", ") + std::string(p.name);
    return s;
}

EngineConfig parse_config(const std::string& text, const std::string& source_name) {
    toml::table root;
    try {
        root = toml::parse(text, source_name);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        fail(source_name + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
             ": TOML syntax error: " + std::string(e.description()));
    }
    EngineConfig c;
    only_keys(root, "", config_keys(""));
    const toml::table* m = table_at(root, "machine", "");
    if (!m) fail("table [machine] is required (at least machine.procs)");
    parse_machine(*m, c.scheduler);
    const toml::table* sched = table_at(root, "scheduler", "");
    if (sched) {
        only_keys(*sched, "scheduler", config_keys("scheduler"));
        c.scheduler.backfill = get_bool(*sched, "backfill", "scheduler.", true);
        std::int64_t d = get_int(*sched, "reservation_depth", "scheduler.", 1);
        if (d < -1 || d > 1'000'000)
            fail("key 'scheduler.reservation_depth' must be -1 (unlimited) or 0..1000000, got " +
                 std::to_string(d));
        c.scheduler.reservation_depth = static_cast<std::int32_t>(d);
        parse_usage(*sched, c);
    }
    if (const toml::table* p = table_at(root, "policy", "")) parse_policy(*p, c);
    if (const toml::table* l = table_at(root, "lua", "")) parse_lua(*l, c);
    // The pass budget adds up the instructions the per-call budget counts:
    // without that count there is nothing to add up.
    if (c.instruction_budget == 0) {
        const toml::table* pt = table_at(root, "policy", "");
        if (pt && pt->get("pass_budget") && c.scheduler.pass_budget != 0)
            fail(
                "key 'policy.pass_budget' needs the instructions that 'lua.instruction_budget' "
                "counts: it cannot be set with lua.instruction_budget = 0");
        c.scheduler.pass_budget = 0;
    }
    const toml::table* gang = table_at(root, "gang", "");
    // Gang presets run five rows of 200 s unless told otherwise ([Zhang00]
    // §5.2-5.3, the setting of its experiments).
    const std::string preset = sched ? get_string(*sched, "preset", "scheduler.") : "";
    const Preset* p = find_preset(preset);
    if (p && p->gang) {
        c.scheduler.rows = kPresetMpl;
        c.scheduler.slice = kPresetSlice;
    }
    if (gang) parse_gang(*gang, c.scheduler);
    if (const toml::table* mt = table_at(root, "malleable", "")) parse_malleable(*mt, c.scheduler);
    if (const toml::table* ct = table_at(root, "classes", "")) parse_classes(*ct, c.scheduler);
    resolve(sched, gang, c);
    return c;
}

}  // namespace rota
