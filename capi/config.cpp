#include "config.h"

#include <toml++/toml.h>

#include <set>

#include "engine/error.h"

namespace rota {

namespace {

[[noreturn]] void fail(const std::string& msg) {
    throw Error(Errc::config, msg);
}

const char* type_name(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::table:
            return "a table";
        case toml::node_type::array:
            return "an array";
        default:
            return "a date or time";
    }
}

void only_keys(const toml::table& t, const std::string& where, std::set<std::string> allowed) {
    for (const auto& [k, v] : t) {
        if (!allowed.count(std::string(k.str())))
            fail("unknown key '" + (where.empty() ? "" : where + ".") + std::string(k.str()) + "'");
    }
}

const toml::table* table_at(const toml::table& t, const char* key, const std::string& where) {
    const toml::node* n = t.get(key);
    if (!n) return nullptr;
    if (!n->is_table()) fail("key '" + where + key + "' must be a table, got " + type_name(*n));
    return n->as_table();
}

std::int64_t get_int(const toml::table& t, const char* key, const std::string& where,
                     std::int64_t dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if (!n->is_integer())
        fail("key '" + where + key + "' must be an integer, got " + type_name(*n));
    return n->as_integer()->get();
}

bool get_bool(const toml::table& t, const char* key, const std::string& where, bool dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if (!n->is_boolean()) fail("key '" + where + key + "' must be a boolean, got " + type_name(*n));
    return n->as_boolean()->get();
}

std::string get_string(const toml::table& t, const char* key, const std::string& where) {
    const toml::node* n = t.get(key);
    if (!n) return {};
    if (!n->is_string()) fail("key '" + where + key + "' must be a string, got " + type_name(*n));
    return n->as_string()->get();
}

void parse_machine(const toml::table& m, SchedulerConfig& s) {
    only_keys(m, "machine", {"procs", "pools"});
    if (!m.get("procs")) fail("key 'machine.procs' is required");
    std::int64_t procs = get_int(m, "procs", "machine.", 0);
    if (procs <= 0 || procs > 1'000'000)
        fail("key 'machine.procs' must be between 1 and 1000000, got " + std::to_string(procs));
    s.procs = static_cast<std::int32_t>(procs);
    if (const toml::node* p = m.get("pools")) {
        if (!p->is_array_of_tables())
            fail("key 'machine.pools' must be an array of tables ([[machine.pools]])");
        std::size_t i = 0;
        for (const auto& e : *p->as_array()) {
            const auto& t = *e.as_table();
            std::string where = "machine.pools[" + std::to_string(i++) + "].";
            only_keys(t, where.substr(0, where.size() - 1), {"name", "capacity"});
            PoolConfig pc;
            pc.name = get_string(t, "name", where);
            if (pc.name.empty()) fail("key '" + where + "name' is required");
            pc.capacity = get_int(t, "capacity", where, 0);
            if (pc.capacity <= 0) fail("key '" + where + "capacity' must be positive");
            s.pools.push_back(pc);
        }
    }
}

void parse_scheduler(const toml::table& t, SchedulerConfig& s) {
    only_keys(t, "scheduler", {"backfill", "reservation_depth"});
    s.backfill = get_bool(t, "backfill", "scheduler.", true);
    std::int64_t d = get_int(t, "reservation_depth", "scheduler.", 1);
    if (d < -1 || d > 1'000'000)
        fail("key 'scheduler.reservation_depth' must be -1 (unlimited) or 0..1000000, got " +
             std::to_string(d));
    s.reservation_depth = static_cast<std::int32_t>(d);
}

ParamValue param_of(const toml::node& n, const std::string& key) {
    if (n.is_boolean()) return n.as_boolean()->get();
    if (n.is_integer()) return n.as_integer()->get();
    if (n.is_floating_point()) return n.as_floating_point()->get();
    if (n.is_string()) return n.as_string()->get();
    fail("key '" + key + "' must be a boolean, number or string (a policy parameter), got " +
         type_name(n));
}

void parse_policy(const toml::table& t, EngineConfig& c) {
    only_keys(t, "policy", {"admission", "order", "backfill", "migration", "search_path"});
    if (const toml::node* sp = t.get("search_path")) {
        if (!sp->is_array()) fail("key 'policy.search_path' must be an array of strings");
        for (const auto& e : *sp->as_array()) {
            if (!e.is_string()) fail("key 'policy.search_path' must be an array of strings");
            c.search_path.push_back(e.as_string()->get());
        }
    }
    const std::pair<const char*, Hook> hooks[] = {{"admission", Hook::admission},
                                                  {"order", Hook::order},
                                                  {"backfill", Hook::backfill_select},
                                                  {"migration", Hook::migration_option}};
    for (auto [name, hook] : hooks) {
        const toml::table* h = table_at(t, name, "policy.");
        if (!h) continue;
        std::string where = std::string("policy.") + name + ".";
        HookScript hs{hook, get_string(*h, "script", where), {}};
        if (hs.script.empty()) fail("key '" + where + "script' is required");
        for (const auto& [k, v] : *h) {
            if (k.str() == "script") continue;
            hs.params.emplace_back(std::string(k.str()), param_of(v, where + std::string(k.str())));
        }
        c.scripts.push_back(std::move(hs));
    }
}

double get_seconds(const toml::table& t, const char* key, const std::string& where, double dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if (n->is_integer()) return static_cast<double>(n->as_integer()->get());
    if (!n->is_floating_point())
        fail("key '" + where + key + "' must be a number (seconds), got " + type_name(*n));
    return n->as_floating_point()->get();
}

// Gang scheduling (seed 000 §4-5): the table's presence turns it on.
void parse_gang(const toml::table& t, GangConfig& g) {
    only_keys(t, "gang",
              {"mpl", "slice", "backfill", "migration", "migration_cost", "migration_q"});
    g.enabled = true;
    std::int64_t mpl = get_int(t, "mpl", "gang.", 1);
    if (mpl < 1 || mpl > 32)
        fail("key 'gang.mpl' must be between 1 and 32, got " + std::to_string(mpl));
    g.mpl = static_cast<std::int32_t>(mpl);
    double slice = get_seconds(t, "slice", "gang.", 200.0);
    if (!(slice > 0) || slice > 1e9) fail("key 'gang.slice' must be a positive number of seconds");
    g.slice = static_cast<std::int64_t>(slice * 1e6);
    g.backfill = get_bool(t, "backfill", "gang.", false);
    g.migration = get_bool(t, "migration", "gang.", false);
    double cost = get_seconds(t, "migration_cost", "gang.", 0.0);
    if (!(cost >= 0 && cost <= 1e9)) fail("key 'gang.migration_cost' must be 0..1e9 seconds");
    g.migration_cost = static_cast<std::int64_t>(cost * 1e6);
    std::int64_t q = get_int(t, "migration_q", "gang.", -1);
    if (q < -1 || q > 1'000'000'000)
        fail("key 'gang.migration_q' must be -1 (unlimited) or 0..1000000000");
    g.migration_q = static_cast<std::int32_t>(q);
}

void parse_lua(const toml::table& t, EngineConfig& c) {
    only_keys(t, "lua", {"instruction_budget", "memory_limit_mb"});
    c.instruction_budget = get_int(t, "instruction_budget", "lua.", c.instruction_budget);
    c.memory_limit_mb = get_int(t, "memory_limit_mb", "lua.", c.memory_limit_mb);
    if (c.instruction_budget < 1000) fail("key 'lua.instruction_budget' must be at least 1000");
    if (c.memory_limit_mb < 1 || c.memory_limit_mb > 65536)
        fail("key 'lua.memory_limit_mb' must be between 1 and 65536");
}

}  // namespace

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
    only_keys(root, "", {"machine", "scheduler", "policy", "lua", "gang"});
    const toml::table* m = table_at(root, "machine", "");
    if (!m) fail("table [machine] is required (at least machine.procs)");
    parse_machine(*m, c.scheduler);
    if (const toml::table* s = table_at(root, "scheduler", "")) parse_scheduler(*s, c.scheduler);
    if (const toml::table* p = table_at(root, "policy", "")) parse_policy(*p, c);
    if (const toml::table* l = table_at(root, "lua", "")) parse_lua(*l, c);
    if (const toml::table* g = table_at(root, "gang", "")) parse_gang(*g, c.scheduler.gang);
    return c;
}

}  // namespace rota
