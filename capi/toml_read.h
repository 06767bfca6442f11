// Reading checked values out of a TOML table: every error names the key
// with its full path (docs/config.md). Shared by the configuration's
// parsers (config.cpp, config_classes.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <set>
#include <string>

namespace rota {

// Throws rota::Error(Errc::config, msg).
[[noreturn]] void fail(const std::string& msg);
const char* type_name(const toml::node& n);  // "a string", "an integer", ...
// Fails on a key of `t` not in `allowed`; `where` is t's own path.
void only_keys(const toml::table& t, const std::string& where,
               const std::set<std::string>& allowed);
// The sub-table `key`, null if absent; `where` ends in '.' (or is empty).
const toml::table* table_at(const toml::table& t, const char* key, const std::string& where);
std::int64_t get_int(const toml::table& t, const char* key, const std::string& where,
                     std::int64_t dflt);
bool get_bool(const toml::table& t, const char* key, const std::string& where, bool dflt);
std::string get_string(const toml::table& t, const char* key, const std::string& where);
// An integer or float number of seconds.
double get_seconds(const toml::table& t, const char* key, const std::string& where, double dflt);
// A number as a config refusal quotes it: short form, nan and inf spelt
// as TOML spells them (engine answers use number_text, engine/answers.h).
std::string config_number(double v);

}  // namespace rota
