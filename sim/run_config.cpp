#include "run_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <utility>

#include "classes.h"
#include "config_keys.h"
#include "malleable.h"
#include "simulation.h"  // kMaxSimSeconds
#include "small_file.h"
#include "workload_config.h"

namespace rota::sim {

namespace {

// Three increasing group boundaries, or none.
std::vector<std::int32_t> get_bounds(const toml::table& t, const char* key) {
    const toml::node* n = t.get(key);
    if (!n) return {};
    const std::string where = std::string("key 'simulator.") + key + "'";
    if (!n->is_array()) fail(where + " must be an array of 3 integers");
    std::vector<std::int32_t> v;
    for (const auto& e : *n->as_array()) {
        if (!e.is_integer()) fail(where + " must hold integers");
        const std::int64_t x = e.as_integer()->get();
        if (!std::in_range<std::int32_t>(x))
            fail(where + " must hold integers between 1 and 2147483647, got " + std::to_string(x));
        v.push_back(static_cast<std::int32_t>(x));
    }
    try {
        check_group_bounds(v, key);
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    }
    return v;
}

}  // namespace

void check_group_bounds(const std::vector<std::int32_t>& v, const std::string& what) {
    if (v.size() != 3 || v[0] < 1 || v[1] <= v[0] || v[2] <= v[1])
        throw std::invalid_argument(
            what +
            ": expected the largest value of groups 1, 2 and 3, three increasing positive "
            "integers ([Ngubiri07]'s sizes: 1,3,7)");
}

namespace {

// A value the simulator's settings cannot take. They come from the file or
// from a flag, merged before this check, so the message names both: the key
// simulator.K and its flag --k (the same words, dashes for underscores).
[[noreturn]] void refuse(const std::string& key, const std::string& want, const std::string& got) {
    std::string flag = key.rfind("workload.", 0) == 0 ? key.substr(9) : key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    fail("key 'simulator." + key + "' (--" + flag + ") must be " + want + ", not " + got);
}

template <class T>
std::string text(T v) {
    return fmt::format("{}", v);
}

}  // namespace

GeneratedWorkload generate_configured(const GenerateOptions& g) {
    try {
        return generate_workload(g);
    } catch (const GenerateError& e) {
        throw ConfigError("key 'simulator.workload." + e.setting + "' " + e.rule);
    }
}

void check_statistics(const RunConfig& rc) {
    const auto quoted = [](const std::string& v) { return "\"" + v + "\""; };
    if (rc.stop_rel_error < 0 || !(rc.stop_rel_error < 1))
        refuse("stop_rel_error", "a relative error in [0, 1) (0: a fixed number of batches)",
               text(rc.stop_rel_error));
    if (rc.warmup < 0) refuse("warmup", "a number of jobs >= 0", text(rc.warmup));
    if (rc.batch_jobs < 1) refuse("batch_jobs", "a number of jobs >= 1", text(rc.batch_jobs));
    if (rc.min_batches < 2 || rc.min_batches > kMaxMinBatches)
        refuse("min_batches", "a count of batches from 2 to " + std::to_string(kMaxMinBatches),
               text(rc.min_batches));
    if (!(rc.confidence > 0 && rc.confidence < 1))
        refuse("confidence", "a probability in (0, 1), e.g. 0.95", text(rc.confidence));
    if (rc.stop_on != "groups" && rc.stop_on != "stream")
        refuse("stop_on", "\"groups\" or \"stream\"", quoted(rc.stop_on));
    if (rc.procs < 0 || rc.procs > kMaxMachineProcs)
        refuse("procs", "a number of processors from 1 to 1000000 (0: from the trace)",
               text(rc.procs));
    if (rc.max_jumps < 0) refuse("max_jumps", "a count >= 0", text(rc.max_jumps));
    if (rc.interactive_procs < 0)
        refuse("interactive_procs", "a number of processors >= 0", text(rc.interactive_procs));
    if (rc.interactive_time < 0)
        refuse("interactive_time", "a number of seconds >= 0", text(rc.interactive_time));
    if (!(rc.min_pct > 0 && rc.min_pct <= 100))
        refuse("min_pct", "a percentage in (0, 100]", text(rc.min_pct));
    // The engine's own ranges (malleable.*, gang.migration_q), said here in
    // the terms the user wrote rather than by the engine's keys.
    if (rc.mpl_limit < 0 || rc.mpl_limit > 1'000'000'000)
        refuse("mpl_limit", "0 (no limit) or a count up to 1000000000", text(rc.mpl_limit));
    if (rc.exec_model != "linear" && rc.exec_model != "parabolic")
        refuse("exec_model", "\"linear\" or \"parabolic\"", quoted(rc.exec_model));
    if (!(rc.adapt_latency >= 0 && rc.adapt_latency <= 1e9))
        refuse("adapt_latency", "a number of seconds from 0 to 1e9", text(rc.adapt_latency));
    if (!(rc.adapt_per_byte >= 0 && rc.adapt_per_byte <= 1e3))
        refuse("adapt_per_byte", "a number of seconds per byte from 0 to 1000",
               text(rc.adapt_per_byte));
    if (rc.mpl < 1 || rc.mpl > 32) refuse("mpl", "a number of rows from 1 to 32", text(rc.mpl));
    if (rc.migration_q < -1 || rc.migration_q > 1'000'000'000)
        refuse("migration_q", "-1 (unlimited) or a count from 0 to 1000000000",
               text(rc.migration_q));
    if (rc.packing != "first_fit" && rc.packing != "buddy")
        refuse("packing", "\"first_fit\" or \"buddy\"", quoted(rc.packing));
    if (rc.workload.jobs < 1 || rc.workload.jobs > kMaxJobs)
        refuse("workload.jobs", "a number of jobs from 1 to 100000000", text(rc.workload.jobs));
    const bool fitted_rates = rc.workload.model == WorkloadModel::weissman ||
                              rc.workload.model == WorkloadModel::weissman_apps;
    if (!((rc.workload.load >= kMinLoad && rc.workload.load <= kMaxLoad) ||
          (fitted_rates && rc.workload.load == 0)))
        refuse("workload.load",
               std::string("an offered load in [0.001, 1000]") +
                   (fitted_rates ? ", or 0 for the model's own arrival rate" : ""),
               text(rc.workload.load));
    // Numbers that become times or fractions: NaN and infinities would
    // reach float-to-integer conversions.
    if (!(rc.cs_overhead >= 0 && rc.cs_overhead < 1))
        refuse("cs_overhead", "a fraction of the slice in [0, 1)", text(rc.cs_overhead));
    if (!std::isfinite(rc.matrix_at) || rc.matrix_at > 1e12)
        refuse("matrix_at", "a finite time in seconds up to 1e12", text(rc.matrix_at));
    // The engine counts microseconds: a slice that truncates to none is no slice.
    if (!(rc.slice <= 1e9 && static_cast<std::int64_t>(rc.slice * 1e6) >= 1))
        refuse("slice", "a number of seconds from one microsecond (0.000001) to 1e9",
               text(rc.slice));
    // Read only with a trace, but checked always: a typo must not wait for
    // the day a trace is given.
    try {
        parse_memory_source(rc.memory);
    } catch (const std::invalid_argument&) {
        refuse("memory", "none, requested, used or auto", quoted(rc.memory));
    }
    try {
        parse_memory_units(rc.memory_units);
    } catch (const std::invalid_argument&) {
        refuse("memory_units", "kb-per-processor or bytes-per-job", quoted(rc.memory_units));
    }
    if (rc.cycle < 0 || rc.cycle > kMaxSimSeconds)
        refuse("cycle",
               fmt::format("a number of seconds from 0 to {} (0: no cycle)", kMaxSimSeconds),
               text(rc.cycle));
    if (!(rc.migration_cost >= 0 && rc.migration_cost <= 1e9))
        refuse("migration_cost", "a number of seconds from 0 to 1e9", text(rc.migration_cost));
}

const std::vector<std::string>& policy_names() {
    // The engine's presets (rota_preset_name), and the file's own settings.
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (int i = 0; rota_preset_name(i) != nullptr; ++i) v.emplace_back(rota_preset_name(i));
        for (const auto& n : malleable_policy_names()) v.push_back(n);
        v.emplace_back("classes");  // [Feitelson97] (classes.h)
        v.emplace_back("custom");
        return v;
    }();
    return names;
}

std::string policy_list() {
    std::string all;
    for (const auto& n : policy_names()) all += (all.empty() ? "" : ", ") + n;
    return all;
}

void check_policy(const std::string& name) {
    for (const auto& n : policy_names())
        if (n == name) return;
    fail("unknown policy '" + name + "' (expected " + policy_list() + ")");
}

bool is_gang_preset(const std::string& name) {
    return name == "gs" || name == "bgs" || name == "mgs" || name == "mbgs";
}

std::string read_config_file(const std::string& path) {
    try {
        return *read_small_file(path, "configuration file", kMaxConfigBytes);
    } catch (const std::runtime_error& e) {
        fail(e.what());
    }
}

namespace {

const std::set<std::string> kSimulatorKeys = {
    // the run
    "trace", "procs", "policy", "compat", "progress", "cycle",
    // its output files
    "jobs_csv", "summary_json", "batsim_csv", "jobs_npy", "swf_out",
    // the generated workload and its arrivals
    "workload", "queue_length", "arrival_rate", "arrival_seed",
    // the presets' own settings: fpfs, gang, malleable, classes
    "max_jumps", "mpl", "slice", "cs_overhead", "migration_cost", "migration_q", "packing",
    "matrix_at", "min_pct", "mpl_limit", "exec_model", "adapt_latency", "adapt_per_byte",
    "interactive_procs", "interactive_time",
    // how a trace is read
    "memory", "memory_units", "memory_capacity", "positive_use", "dependencies", "partition_names",
    // group-wise metrics and the stopping rule
    "groups", "size_groups", "width_groups", "stop_rel_error", "warmup", "batch_jobs",
    "min_batches", "confidence", "stop_on"};

toml::table parse_config(const std::string& path) {
    const std::string text = read_config_file(path);
    try {
        return toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        fail(path + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
             ": TOML syntax error: " + std::string(e.description()));
    }
}

void read_policies(const toml::table& t, RunConfig& rc) {
    const toml::node* p = t.get("policy");
    if (!p) return;
    if (p->is_string()) {
        rc.policies = {p->as_string()->get()};
    } else if (p->is_array()) {
        for (const auto& e : *p->as_array()) {
            if (!e.is_string()) fail("key 'simulator.policy' must hold strings");
            rc.policies.push_back(e.as_string()->get());
        }
    } else {
        fail("key 'simulator.policy' must be a string or an array of strings");
    }
    if (rc.policies.empty())
        fail(
            "key 'simulator.policy' lists no policy: name one, or leave the key out for "
            "fcfs, easy and conservative");
    for (const auto& n : rc.policies) check_policy(n);
}

// The trace (relative to the file's folder), the machine's size, the
// policies and how the trace's fields are mapped.
void read_run(const toml::table& t, RunConfig& rc) {
    rc.trace = get<std::string>(t, "trace", "simulator", "");
    if (t.get("trace") && rc.trace.empty())
        fail(
            "key 'simulator.trace' is empty: name a trace, or leave the key out for the "
            "generated workload");
    if (!rc.trace.empty() && rc.trace[0] != '/') rc.trace = rc.base_dir + "/" + rc.trace;
    rc.procs = static_cast<std::int32_t>(
        get_between(t, "procs", "simulator", 0, 0, kMaxMachineProcs, " (0: from the trace)"));
    read_policies(t, rc);
    rc.compat = get<std::string>(t, "compat", "simulator", "none");
}

void read_outputs(const toml::table& t, RunConfig& rc) {
    rc.jobs_csv = get<std::string>(t, "jobs_csv", "simulator", "");
    rc.summary_json = get<std::string>(t, "summary_json", "simulator", "");
    rc.batsim_csv = get<std::string>(t, "batsim_csv", "simulator", "");
    rc.swf_out = get<std::string>(t, "swf_out", "simulator", "");
    rc.jobs_npy = get<std::string>(t, "jobs_npy", "simulator", "");
    for (const char* key : {"jobs_csv", "summary_json", "batsim_csv", "jobs_npy", "swf_out"})
        if (t.get(key) && get<std::string>(t, key, "simulator", "").empty())
            fail(std::string("key 'simulator.") + key +
                 "' is empty: name a file, or leave the key out for no file");
}

// [Weissman03]'s policies (malleable.h).
void read_malleable(const toml::table& t, RunConfig& rc) {
    rc.min_pct = get<double>(t, "min_pct", "simulator", rc.min_pct);
    rc.mpl_limit = get<std::int64_t>(t, "mpl_limit", "simulator", rc.mpl_limit);
    rc.exec_model = get<std::string>(t, "exec_model", "simulator", rc.exec_model);
    rc.adapt_latency = get<double>(t, "adapt_latency", "simulator", rc.adapt_latency);
    rc.adapt_per_byte = get<double>(t, "adapt_per_byte", "simulator", rc.adapt_per_byte);
}

// [Feitelson97]'s classes (classes.h): the bounds of class "interactive".
void read_classes(const toml::table& t, RunConfig& rc) {
    rc.interactive_procs =
        get<std::int64_t>(t, "interactive_procs", "simulator", rc.interactive_procs);
    rc.interactive_time =
        get<std::int64_t>(t, "interactive_time", "simulator", rc.interactive_time);
}

// The gang presets' rows ([Zhang00] §5) and the matrix printed of them.
void read_gang(const toml::table& t, RunConfig& rc) {
    rc.mpl = get<std::int64_t>(t, "mpl", "simulator", rc.mpl);
    rc.slice = get<double>(t, "slice", "simulator", rc.slice);
    rc.cs_overhead = get<double>(t, "cs_overhead", "simulator", rc.cs_overhead);
    rc.migration_cost = get<double>(t, "migration_cost", "simulator", rc.migration_cost);
    rc.migration_q = get<std::int64_t>(t, "migration_q", "simulator", rc.migration_q);
    rc.packing = get<std::string>(t, "packing", "simulator", rc.packing);
    if (t.get("matrix_at")) {  // -1, its default, means none: a file must give a time
        rc.matrix_at = get<double>(t, "matrix_at", "simulator", rc.matrix_at);
        if (!(rc.matrix_at >= 0))
            fail("key 'simulator.matrix_at' must be a time >= 0 in seconds, not " +
                 fmt::format("{}", rc.matrix_at));
    }
}

// Memory as a pool (docs/workloads.md): a capacity in KB, or with a unit.
void read_memory(const toml::table& t, RunConfig& rc) {
    rc.memory = get<std::string>(t, "memory", "simulator", rc.memory);
    rc.memory_units = get<std::string>(t, "memory_units", "simulator", rc.memory_units);
    if (const toml::node* c = t.get("memory_capacity")) {
        const char* key = "key 'simulator.memory_capacity'";
        try {
            if (c->is_integer())
                rc.memory_capacity = parse_amount(std::to_string(c->as_integer()->get()), key);
            else if (c->is_string())
                rc.memory_capacity = parse_amount(c->as_string()->get(), key);
            else
                fail(
                    "key 'simulator.memory_capacity' must be an integer (KB) or a string such as "
                    "\"32G\"");
        } catch (const std::invalid_argument& e) {
            fail(e.what());
        }
    }
    rc.positive_use = get<bool>(t, "positive_use", "simulator", rc.positive_use);
}

void read_partition_names(const toml::table& t, RunConfig& rc) {
    const toml::node* n = t.get("partition_names");
    if (!n) return;
    if (!n->is_array()) fail("key 'simulator.partition_names' must be an array of strings");
    for (const auto& e : *n->as_array()) {
        if (!e.is_string()) fail("key 'simulator.partition_names' must hold strings");
        rc.partition_names.push_back(e.as_string()->get());
    }
    try {
        check_partition_names(rc.partition_names);
    } catch (const std::invalid_argument& e) {
        fail("key 'simulator.partition_names': " + std::string(e.what()));
    }
}

// Group-wise metrics and the stopping rule of [Ngubiri07] §4.2.
void read_statistics(const toml::table& t, RunConfig& rc) {
    rc.groups = get<bool>(t, "groups", "simulator", rc.groups);
    rc.size_groups = get_bounds(t, "size_groups");
    rc.width_groups = get_bounds(t, "width_groups");
    rc.stop_rel_error = get<double>(t, "stop_rel_error", "simulator", rc.stop_rel_error);
    rc.warmup = get<std::int64_t>(t, "warmup", "simulator", rc.warmup);
    rc.batch_jobs = get<std::int64_t>(t, "batch_jobs", "simulator", rc.batch_jobs);
    rc.min_batches = get<std::int32_t>(t, "min_batches", "simulator", rc.min_batches);
    rc.confidence = get<double>(t, "confidence", "simulator", rc.confidence);
    rc.stop_on = get<std::string>(t, "stop_on", "simulator", rc.stop_on);
}

// Poisson arrivals replacing the workload's ([Leinberger99] §4.1).
void read_arrivals(const toml::table& t, RunConfig& rc) {
    rc.queue_length = get<double>(t, "queue_length", "simulator", rc.queue_length);
    rc.arrival_rate = get<double>(t, "arrival_rate", "simulator", rc.arrival_rate);
    rc.arrival_seed = get<std::uint64_t>(t, "arrival_seed", "simulator", rc.arrival_seed);
}

void check_arrivals(const RunConfig& rc) {
    // NaN and infinity pass a sign test, and would be reported later as
    // another setting's error (the calibration's target).
    if (!(rc.queue_length >= 0 && std::isfinite(rc.queue_length)))
        refuse("queue_length", "a finite number >= 0 (0: the workload's own arrivals)",
               fmt::format("{}", rc.queue_length));
    if (!(rc.arrival_rate >= 0 && std::isfinite(rc.arrival_rate)))
        refuse("arrival_rate",
               "a finite number of jobs per second >= 0 (0: the workload's own arrivals)",
               fmt::format("{}", rc.arrival_rate));
}

// The keys are read in the order below, which is the order in which a file
// wrong in several of them is told: tests and users match the first message.
void read_simulator(const toml::table& t, RunConfig& rc) {
    only(t, "simulator", kSimulatorKeys);
    read_run(t, rc);
    read_outputs(t, rc);
    rc.max_jumps = get<std::int64_t>(t, "max_jumps", "simulator", 10);
    read_malleable(t, rc);
    read_classes(t, rc);
    rc.progress = get<bool>(t, "progress", "simulator", true);
    read_gang(t, rc);
    read_memory(t, rc);
    rc.dependencies = get<std::string>(t, "dependencies", "simulator", rc.dependencies);
    rc.cycle = get<std::int64_t>(t, "cycle", "simulator", rc.cycle);
    read_partition_names(t, rc);
    try {
        parse_dependency_mode(rc.dependencies);
    } catch (const std::invalid_argument& e) {
        fail("key 'simulator.dependencies': " + std::string(e.what()));
    }
    read_arrivals(t, rc);
    read_statistics(t, rc);
    check_statistics(rc);
    check_arrivals(rc);
    if (const toml::node* w = t.get("workload")) {
        if (!w->is_table()) fail("key 'simulator.workload' must be a table");
        rc.workload_given = true;
        read_workload_table(*w->as_table(), rc.workload);
    }
}

// [[machine.pools]]: the simulator merges them with the workload's pools
// and writes them back for the engine (engine_toml).
void read_machine_pools(toml::table& machine, RunConfig& rc) {
    toml::node* p = machine.get("pools");
    if (!p) return;
    if (!p->is_array()) fail("key 'machine.pools' must be an array of tables ([[machine.pools]])");
    std::size_t i = 0;
    for (const auto& e : *p->as_array()) {
        const std::string where = "machine.pools[" + std::to_string(i++) + "]";
        if (!e.is_table()) fail("key '" + where + "' must be a table");
        const toml::table& pt = *e.as_table();
        only(pt, where, {"name", "capacity"});
        PoolSpec spec;
        spec.name = get<std::string>(pt, "name", where, "");
        spec.capacity = get<std::int64_t>(pt, "capacity", where, 0);
        if (spec.name.empty()) fail("key '" + where + ".name' is required");
        if (spec.capacity <= 0) fail("key '" + where + ".capacity' must be a positive integer");
        for (const auto& q : rc.pools)
            if (q.name == spec.name) fail("pool '" + spec.name + "' is given twice");
        rc.pools.push_back(std::move(spec));
    }
    machine.erase("pools");
}

// [[machine.clusters]]: the simulator needs their sizes (the machine size,
// the default for --clusters) and writes them back.
void read_machine_clusters(toml::table& machine, RunConfig& rc) {
    toml::node* c = machine.get("clusters");
    if (!c) return;
    if (!c->is_array())
        fail("key 'machine.clusters' must be an array of tables ([[machine.clusters]])");
    if (c->as_array()->empty())
        fail(
            "key 'machine.clusters' lists no cluster: give each as a [[machine.clusters]] "
            "table, or leave the key out for one machine");
    std::size_t i = 0;
    for (const auto& e : *c->as_array()) {
        const std::string where = "machine.clusters[" + std::to_string(i++) + "]";
        if (!e.is_table()) fail("key '" + where + "' must be a table");
        const toml::table& ct = *e.as_table();
        only(ct, where, {"name", "nodes"});
        ClusterSpec spec;
        spec.name = get<std::string>(ct, "name", where, "");
        if (!ct.get("nodes")) fail("key '" + where + ".nodes' is missing");
        spec.nodes =
            static_cast<std::int32_t>(get_between(ct, "nodes", where, 0, 1, kMaxMachineProcs));
        rc.clusters.push_back(std::move(spec));
    }
    if (total_nodes(rc.clusters) > kMaxMachineProcs)
        fail("key 'machine.clusters' has " + std::to_string(total_nodes(rc.clusters)) +
             " nodes in all; a machine has at most " + std::to_string(kMaxMachineProcs));
    machine.erase("clusters");
}

}  // namespace

RunConfig load_run_config(const std::string& path) {
    RunConfig rc;
    if (path.empty()) return rc;
    toml::table root = parse_config(path);
    auto slash = path.find_last_of('/');
    rc.base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
    rc.config_file = path;
    if (const toml::node* s = root.get("simulator")) {
        if (!s->is_table()) fail("key 'simulator' must be a table");
        read_simulator(*s->as_table(), rc);
        root.erase("simulator");
    }
    // A [machine] that is not a table is refused by engine_toml, naming it.
    if (toml::table* m = root["machine"].as_table()) {
        read_machine_pools(*m, rc);
        read_machine_clusters(*m, rc);
    }
    rc.engine = std::move(root);
    return rc;
}

void check_machine_procs(const RunConfig& rc, std::int32_t procs) {
    const toml::node* given = nullptr;
    if (const toml::table* m = rc.engine["machine"].as_table()) given = m->get("procs");
    if (given == nullptr) return;
    const auto* v = given->as_integer();
    if (v == nullptr) fail("key 'machine.procs' must be an integer");
    if (v->get() != procs)
        fail("key 'machine.procs' is " + std::to_string(v->get()) +
             ", but the simulated machine has " + std::to_string(procs) +
             " processors (simulator.procs or --procs, else the trace's header or the "
             "generated workload's size): leave machine.procs out, or give that");
}

std::string engine_toml(const RunConfig& rc, const std::string& policy, std::int32_t procs,
                        std::string* note) {
    toml::table t = rc.engine;
    auto sub = [](toml::table& parent, const char* key) -> toml::table& {
        if (!parent.get(key)) parent.insert(key, toml::table{});
        toml::node* n = parent.get(key);
        if (!n->is_table()) fail(std::string("key '") + key + "' must be a table");
        return *n->as_table();
    };
    toml::table& machine = sub(t, "machine");
    check_machine_procs(rc, procs);
    machine.insert_or_assign("procs", static_cast<std::int64_t>(procs));
    if (!rc.clusters.empty()) {
        if (total_nodes(rc.clusters) != procs)
            fail("the clusters have " + std::to_string(total_nodes(rc.clusters)) +
                 " nodes in all and the machine " + std::to_string(procs));
        toml::array clusters;
        for (const auto& c : rc.clusters) {
            toml::table ct{{"nodes", static_cast<std::int64_t>(c.nodes)}};
            if (!c.name.empty()) ct.insert("name", c.name);
            clusters.push_back(std::move(ct));
        }
        machine.insert_or_assign("clusters", std::move(clusters));
    }
    if (!rc.partitions.empty()) {
        try {
            check_partition_nodes(rc.partitions, procs);
        } catch (const std::invalid_argument& e) {
            fail("--partitions: " + std::string(e.what()));
        }
        toml::array parts;
        for (const auto& p : rc.partitions) {
            toml::table pt{{"name", p.name}, {"nodes", p.nodes}};
            if (p.is_default) pt.insert("default", true);
            parts.push_back(std::move(pt));
        }
        machine.insert_or_assign("partitions", std::move(parts));
    }
    if (!rc.pools.empty()) {
        toml::array pools;
        for (const auto& p : rc.pools)
            pools.push_back(toml::table{{"name", p.name}, {"capacity", p.capacity}});
        machine.insert_or_assign("pools", std::move(pools));
    }
    // Like mpl and slice, packing describes the gang presets' [gang] table.
    if (!is_gang_preset(policy) && rc.packing != "first_fit" && note)
        *note = "packing = \"" + rc.packing + "\" (--packing) is for the gang presets gs, bgs, " +
                "mgs and mbgs; '" + policy + "' does not use it" +
                (policy == "custom" ? " (set gang.packing in the file)" : "");
    std::ostringstream os;
    if (policy == "custom") {  // the file's [scheduler] and [policy] as they are
        os << t;
        return os.str();
    }
    if (is_malleable_policy(policy)) {  // [Weissman03]
        malleable_engine(t, rc, policy);
        os << t;
        return os.str();
    }
    if (policy == "classes") {  // [Feitelson97]: the two passes replace the walk
        classes_engine(t);
        os << t;
        return os.str();
    }
    toml::table& sched = sub(t, "scheduler");
    if (sched.get("preset"))
        fail("key 'scheduler.preset' is set by the simulator's policy ('" + policy +
             "'); use policy = \"custom\" to set it yourself");
    sched.insert_or_assign("preset", policy);
    if (is_gang_preset(policy)) {
        // The simulator's gang keys (and flags) describe the rows.
        if (t.get("gang"))
            fail(
                "table [gang] is set by the simulator keys mpl, slice, migration_cost, "
                "migration_q and packing with the preset '" +
                policy + "'; use policy = \"custom\" to set it yourself");
        toml::table g;
        g.insert("mpl", rc.mpl);
        // One row never switches nor migrates: the engine refuses those keys.
        if (rc.mpl > 1) g.insert("slice", rc.slice);
        if (rc.mpl > 1 && (policy == "mgs" || policy == "mbgs")) {
            g.insert("migration_cost", rc.migration_cost);
            g.insert("migration_q", rc.migration_q);
        }
        // Only buddy is written: first fit is the engine's default, and the
        // table stays as it was before the key existed.
        if (rc.packing != "first_fit") g.insert("packing", rc.packing);
        t.insert("gang", std::move(g));
    }
    // A preset that never backfills never calls backfill_select: when the
    // file names a script for the presets that do, it is left out here.
    const bool backfills = policy != "fcfs" && policy != "gs" && policy != "mgs";
    if (toml::node* pol = t.get("policy"); pol && pol->is_table()) {
        if (!backfills && pol->as_table()->get("backfill_select")) {
            pol->as_table()->erase("backfill_select");
            if (note)
                *note += (note->empty() ? "" : "; ") + std::string("preset '") + policy +
                         "' does not backfill: [policy.backfill_select] is not used for it";
        }
    }
    if (policy == "fpfs") {
        toml::table& bf = sub(sub(t, "policy"), "backfill_select");
        if (bf.get("max_jumps"))
            fail(
                "key 'policy.backfill_select.max_jumps' is set by the simulator key max_jumps "
                "(--max-jumps) with the preset 'fpfs'; use policy = \"custom\" to set it "
                "yourself");
        bf.insert("max_jumps", rc.max_jumps);
    }
    os << t;
    return os.str();
}

std::vector<std::string> machine_partition_names(const RunConfig& rc) {
    std::vector<std::string> names;
    if (!rc.partitions.empty()) {
        for (const auto& p : rc.partitions) names.push_back(p.name);
        return names;
    }
    // The file's table as the engine reads it; a malformed one is the
    // engine's to refuse, naming the key.
    const toml::table* m = rc.engine["machine"].as_table();
    const toml::array* parts = m ? m->get_as<toml::array>("partitions") : nullptr;
    if (parts == nullptr) return names;
    for (const auto& e : *parts)
        if (const toml::table* pt = e.as_table())
            if (const auto* name = pt->get_as<std::string>("name")) names.push_back(name->get());
    return names;
}

std::vector<std::string> field16_names(const RunConfig& rc, std::string* from) {
    const std::vector<std::string> machine = machine_partition_names(rc);
    if (rc.partition_names.empty()) {
        if (from) *from = "the machine's partitions, in configuration order";
        return machine;
    }
    if (from) *from = "simulator.partition_names (--partition-names)";
    // A job names partitions separated by commas (rota_job.partition).
    if (!machine.empty())
        for (const auto& entry : rc.partition_names) {
            std::string name;
            std::istringstream in(entry);
            while (std::getline(in, name, ','))
                if (std::find(machine.begin(), machine.end(), name) == machine.end()) {
                    std::string have;
                    for (const auto& n : machine) have += (have.empty() ? "" : ", ") + n;
                    fail("simulator.partition_names (--partition-names): '" + name +
                         "' is not a partition of the machine (" + have + ")");
                }
        }
    return rc.partition_names;
}

LoadOptions load_options(const RunConfig& rc) {
    LoadOptions lo;
    lo.mapping = rc.compat == "pyss" ? Mapping::pyss : Mapping::standard;
    lo.machine_procs = rc.procs;
    lo.memory = parse_memory_source(rc.memory);
    lo.memory_units = parse_memory_units(rc.memory_units);
    lo.memory_capacity = rc.memory_capacity;
    lo.positive_use = rc.positive_use;
    lo.dependencies = parse_dependency_mode(rc.dependencies);
    return lo;
}

std::int32_t trace_procs(const RunConfig& rc, const Trace& t) {
    if (rc.procs > 0) return rc.procs;
    const std::int32_t declared = header_procs(t.header, rc.trace);
    if (declared > 0) return declared;
    if (t.machines) {
        if (t.machines->cpus > kMaxMachineProcs)
            throw std::invalid_argument(fmt::format(
                "{}: {} processors in all, more than the {} a machine may have (--procs sets a "
                "smaller machine)",
                t.machines->path, t.machines->cpus, kMaxMachineProcs));
        return static_cast<std::int32_t>(t.machines->cpus);
    }
    throw std::invalid_argument(
        "the trace header gives neither MaxProcs nor MaxNodes and no .machines file is beside "
        "it: use --procs");
}

}  // namespace rota::sim
