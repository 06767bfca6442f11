#include "run_config.h"

#include <set>
#include <sstream>

namespace rota::sim {

namespace {

[[noreturn]] void fail(const std::string& m) {
    throw ConfigError(m);
}

void only(const toml::table& t, const std::string& where, const std::set<std::string>& keys) {
    for (const auto& [k, v] : t)
        if (!keys.count(std::string(k.str())))
            fail("unknown key '" + where + "." + std::string(k.str()) + "'");
}

template <class T>
T get(const toml::table& t, const char* key, const std::string& where, T dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if constexpr (std::is_same_v<T, bool>) {
        if (!n->is_boolean()) fail("key '" + where + "." + key + "' must be a boolean");
        return n->as_boolean()->get();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!n->is_string()) fail("key '" + where + "." + key + "' must be a string");
        return n->as_string()->get();
    } else if constexpr (std::is_floating_point_v<T>) {
        if (n->is_integer()) return static_cast<T>(n->as_integer()->get());
        if (!n->is_floating_point()) fail("key '" + where + "." + key + "' must be a number");
        return static_cast<T>(n->as_floating_point()->get());
    } else {
        if (!n->is_integer()) fail("key '" + where + "." + key + "' must be an integer");
        return static_cast<T>(n->as_integer()->get());
    }
}

}  // namespace

const std::vector<std::string>& policy_names() {
    static const std::vector<std::string> names{"fcfs", "easy", "conservative", "fpfs",  "gs",
                                                "bgs",  "mgs",  "mbgs",         "custom"};
    return names;
}

void check_policy(const std::string& name) {
    for (const auto& n : policy_names())
        if (n == name) return;
    fail("unknown policy '" + name +
         "' (expected fcfs, easy, conservative, fpfs, gs, bgs, mgs, mbgs or custom)");
}

RunConfig load_run_config(const std::string& path) {
    RunConfig rc;
    if (path.empty()) return rc;
    toml::table root;
    try {
        root = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        fail(path + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
             ": TOML syntax error: " + std::string(e.description()));
    }
    auto slash = path.find_last_of('/');
    rc.base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
    if (const toml::node* s = root.get("simulator")) {
        if (!s->is_table()) fail("key 'simulator' must be a table");
        const toml::table& t = *s->as_table();
        only(t, "simulator",
             {"trace", "procs", "policy", "compat", "jobs_csv", "summary_json", "max_jumps",
              "progress", "workload", "mpl", "slice", "cs_overhead", "migration_cost",
              "migration_q", "matrix_at"});
        rc.trace = get<std::string>(t, "trace", "simulator", "");
        if (!rc.trace.empty() && rc.trace[0] != '/') rc.trace = rc.base_dir + "/" + rc.trace;
        rc.procs = get<std::int32_t>(t, "procs", "simulator", 0);
        if (const toml::node* p = t.get("policy")) {
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
            for (const auto& n : rc.policies) check_policy(n);
        }
        rc.compat = get<std::string>(t, "compat", "simulator", "none");
        rc.jobs_csv = get<std::string>(t, "jobs_csv", "simulator", "");
        rc.summary_json = get<std::string>(t, "summary_json", "simulator", "");
        rc.max_jumps = get<std::int64_t>(t, "max_jumps", "simulator", 10);
        rc.progress = get<bool>(t, "progress", "simulator", true);
        rc.mpl = get<std::int64_t>(t, "mpl", "simulator", rc.mpl);
        rc.slice = get<double>(t, "slice", "simulator", rc.slice);
        rc.cs_overhead = get<double>(t, "cs_overhead", "simulator", rc.cs_overhead);
        rc.migration_cost = get<double>(t, "migration_cost", "simulator", rc.migration_cost);
        rc.migration_q = get<std::int64_t>(t, "migration_q", "simulator", rc.migration_q);
        rc.matrix_at = get<double>(t, "matrix_at", "simulator", rc.matrix_at);
        if (const toml::node* w = t.get("workload")) {
            if (!w->is_table()) fail("key 'simulator.workload' must be a table");
            const toml::table& wt = *w->as_table();
            only(wt, "simulator.workload",
                 {"jobs", "procs", "load", "phi", "seed", "users", "model", "factor"});
            auto& g = rc.workload;
            g.jobs = get<std::int64_t>(wt, "jobs", "simulator.workload", g.jobs);
            g.procs = get<std::int32_t>(wt, "procs", "simulator.workload", g.procs);
            g.load = get<double>(wt, "load", "simulator.workload", g.load);
            g.phi = get<double>(wt, "phi", "simulator.workload", g.phi);
            g.seed = get<std::uint64_t>(wt, "seed", "simulator.workload", g.seed);
            g.users = get<std::int32_t>(wt, "users", "simulator.workload", g.users);
            const std::string model = get<std::string>(wt, "model", "simulator.workload", "");
            if (!model.empty()) {
                // seed 000's model: its own defaults (10,000 jobs, 320 nodes, Φ 0.2)
                // unless the keys above were given too.
                GenerateOptions z =
                    zhang_options(get<double>(wt, "factor", "simulator.workload", 1.0), g.seed);
                if (model != "zhang" && model != "standard")
                    fail("key 'simulator.workload.model' must be \"standard\" or \"zhang\"");
                if (model == "zhang") {
                    if (wt.get("jobs")) z.jobs = g.jobs;
                    g = z;
                }
            }
        }
        root.erase("simulator");
    }
    rc.engine = std::move(root);
    return rc;
}

std::string engine_toml(const RunConfig& rc, const std::string& policy, std::int32_t procs) {
    toml::table t = rc.engine;
    auto sub = [](toml::table& parent, const char* key) -> toml::table& {
        if (!parent.get(key)) parent.insert(key, toml::table{});
        toml::node* n = parent.get(key);
        if (!n->is_table()) fail(std::string("key '") + key + "' must be a table");
        return *n->as_table();
    };
    toml::table& machine = sub(t, "machine");
    machine.insert_or_assign("procs", static_cast<std::int64_t>(procs));
    std::ostringstream os;
    if (policy == "custom") {  // the file's [scheduler] and [policy] as they are
        os << t;
        return os.str();
    }
    const bool gang = policy == "gs" || policy == "bgs" || policy == "mgs" || policy == "mbgs";
    if (gang) {
        if (t.get("gang"))
            fail("table [gang] is set by the policy preset '" + policy +
                 "'; use policy = \"custom\" to set it yourself");
        toml::table g;
        g.insert("mpl", rc.mpl);
        g.insert("slice", rc.slice);
        g.insert("backfill", policy == "bgs" || policy == "mbgs");
        g.insert("migration", policy == "mgs" || policy == "mbgs");
        g.insert("migration_cost", rc.migration_cost);
        g.insert("migration_q", rc.migration_q);
        t.insert("gang", std::move(g));
        if (policy == "mgs" || policy == "mbgs") {
            toml::table& mig = sub(sub(t, "policy"), "migration");
            if (!mig.get("script")) mig.insert("script", "migration/min_cost.lua");
        }
        os << t;
        return os.str();
    }
    if (t.get("gang"))
        fail("table [gang] needs a gang preset (gs, bgs, mgs, mbgs) or policy = \"custom\"");
    toml::table& sched = sub(t, "scheduler");
    toml::table& pol = sub(t, "policy");
    // A preset owns these keys; setting them too would silently lose one.
    for (const char* k : {"backfill", "reservation_depth"})
        if (sched.get(k))
            fail(std::string("key 'scheduler.") + k + "' is set by the policy preset '" + policy +
                 "'; use policy = \"custom\" to set it yourself");
    // Presets (docs/config.md): FCFS never backfills, EASY reserves for the
    // head only, conservative for every waiting job, FPFS for none.
    std::int64_t depth = 1;
    if (policy == "fcfs") depth = 0;
    if (policy == "conservative") depth = -1;
    if (policy == "fpfs") depth = 0;
    sched.insert_or_assign("backfill", policy != "fcfs");
    sched.insert_or_assign("reservation_depth", depth);
    toml::table& bf = sub(pol, "backfill");
    if (policy == "fpfs") {
        if (bf.get("script"))
            fail(
                "key 'policy.backfill.script' is set by the policy preset 'fpfs'; use policy = "
                "\"custom\" to set it yourself");
        bf.insert_or_assign("script", "backfill/fpfs.lua");
        bf.insert_or_assign("max_jumps", rc.max_jumps);
    } else if (!bf.get("script")) {
        bf.insert_or_assign("script", "backfill/first_fit.lua");
    }
    os << t;
    return os.str();
}

}  // namespace rota::sim
