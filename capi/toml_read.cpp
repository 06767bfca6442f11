#include "toml_read.h"

#include <cstdio>

#include "engine/error.h"

namespace rota {

namespace {

// Keys that moved, with where they went: a config written for an older
// rota gets a pointer instead of a bare "unknown key".
std::string moved_hint(const std::string& key) {
    if (key == "gang.backfill")
        return " (backfilling in every row is scheduler.backfill with "
               "scheduler.reservation_depth, or the preset bgs)";
    if (key == "policy.backfill")
        return " (the hook is named backfill_select: [policy.backfill_select])";
    if (key == "policy.migration")
        return " (the hook is named migration_option: [policy.migration_option])";
    return "";
}

}  // namespace

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

void only_keys(const toml::table& t, const std::string& where,
               const std::set<std::string>& allowed) {
    for (const auto& [k, v] : t) {
        if (allowed.count(std::string(k.str()))) continue;
        const std::string key = (where.empty() ? "" : where + ".") + std::string(k.str());
        fail("unknown key '" + key + "'" + moved_hint(key));
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
    // Script paths reach C calls, which would stop at a NUL.
    if (n->as_string()->get().find('\0') != std::string::npos)
        fail("key '" + where + key + "' holds a NUL character (\\u0000)");
    return n->as_string()->get();
}

double get_seconds(const toml::table& t, const char* key, const std::string& where, double dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if (n->is_integer()) return static_cast<double>(n->as_integer()->get());
    if (!n->is_floating_point())
        fail("key '" + where + key + "' must be a number (seconds), got " + type_name(*n));
    return n->as_floating_point()->get();
}

std::string config_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace rota
