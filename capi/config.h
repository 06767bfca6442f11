// The engine configuration, read from TOML (docs/config.md). Every key is
// checked: an unknown key, a value of the wrong type, or a key the
// configured mode would never read is an error naming the key.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/policy.h"

namespace rota {

struct HookScript {
    Hook hook;
    std::string script;
    Params params;
};

struct EngineConfig {
    SchedulerConfig scheduler;
    std::string preset;                 // scheduler.preset, if given
    bool rekey_interval_given = false;  // only an order policy whose keys age reads it
    std::vector<HookScript> scripts;
    std::vector<std::string> search_path;  // for relative script paths
    std::int64_t instruction_budget = 10'000'000;
    double time_limit = 10.0;  // seconds a hook call may run; 0: none
    std::int64_t memory_limit_mb = 64;
};

// A policy preset: what `scheduler.preset = "<name>"` sets (docs/config.md,
// "Presets"). Space sharing and gang scheduling differ only in the rows.
struct Preset {
    const char* name;
    bool backfill;
    std::int32_t reservation_depth;
    bool gang;                     // time sharing: rows from [gang], kPresetMpl by default
    bool migration;                // MGS, MBGS
    const char* backfill_script;   // default backfill_select script, or null
    bool owns_backfill_script;     // fpfs: the script is the policy
    const char* migration_script;  // default migration_option script, or null
};
inline constexpr std::int32_t kPresetMpl = 5;
inline constexpr Time kPresetSlice = 200 * kSecond;

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& name);
std::string preset_names();  // "fcfs, easy, ..."

// Throws rota::Error(Errc::config, ...) naming the offending key.
EngineConfig parse_config(const std::string& toml_text, const std::string& source_name);

// The schema: every table of the configuration and the keys it accepts,
// the very sets the parser checks each table against (only_keys). `path`
// is the table's as messages name it, "" for the root and "[]" after an
// array of tables ("machine.pools[]"). A [policy.<hook>] table takes
// `script` and any parameter of its script, which the script checks.
// tests/capi/test_config_schema.cpp walks every key with its extremes and
// fails for a key it has no range for.
struct ConfigTable {
    std::string path;
    std::set<std::string> keys;
};
const std::vector<ConfigTable>& config_tables();
// The keys of table `path`; throws std::logic_error for a path not in the schema.
const std::set<std::string>& config_keys(const std::string& path);

}  // namespace rota
