// The engine configuration, read from TOML. Every key is checked: an
// unknown key or a value of the wrong type is an error naming the key.
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
    std::vector<HookScript> scripts;
    std::vector<std::string> search_path;  // for relative script paths
    std::int64_t instruction_budget = 10'000'000;
    std::int64_t memory_limit_mb = 64;
};

// Throws rota::Error(Errc::config, ...) naming the offending key.
EngineConfig parse_config(const std::string& toml_text, const std::string& source_name);

}  // namespace rota
