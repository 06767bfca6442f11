#include "config_keys.h"

namespace rota::sim {

[[noreturn]] void fail(const std::string& m) {
    throw ConfigError(m);
}

void only(const toml::table& t, const std::string& where, const std::set<std::string>& keys) {
    for (const auto& [k, v] : t)
        if (!keys.count(std::string(k.str())))
            fail("unknown key '" + where + "." + std::string(k.str()) + "'");
}

std::int64_t get_between(const toml::table& t, const char* key, const std::string& where,
                         std::int64_t dflt, std::int64_t lo, std::int64_t hi, const char* note) {
    const std::int64_t v = get<std::int64_t>(t, key, where, dflt);
    if (v < lo || v > hi)
        fail("key '" + where + "." + key + "' must be between " + std::to_string(lo) + " and " +
             std::to_string(hi) + note + ", got " + std::to_string(v));
    return v;
}

}  // namespace rota::sim
