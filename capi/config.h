// The engine configuration, read from TOML (docs/config.md). Every key is
// checked: an unknown key, a value of the wrong type, or a key the
// configured mode would never read is an error naming the key.
#pragma once

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

}  // namespace rota
