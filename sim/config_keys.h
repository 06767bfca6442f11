// Typed readers of a configuration file's keys, shared by the readers of
// its tables (run_config.cpp, workload_config.cpp). Every fault is a
// ConfigError naming the key as the file writes it, "where.key".
#pragma once

#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "run_config.h"  // ConfigError

namespace rota::sim {

[[noreturn]] void fail(const std::string& m);

// A key of `t` not among `keys` is refused, by its name under `where`.
void only(const toml::table& t, const std::string& where, const std::set<std::string>& keys);

// The key's value, or `dflt` when the key is absent.
template <class T>
T get(const toml::table& t, const char* key, const std::string& where, T dflt) {
    const toml::node* n = t.get(key);
    if (!n) return dflt;
    if constexpr (std::is_same_v<T, bool>) {
        if (!n->is_boolean()) fail("key '" + where + "." + key + "' must be a boolean");
        return n->as_boolean()->get();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!n->is_string()) fail("key '" + where + "." + key + "' must be a string");
        // Paths among these reach C calls, which would stop at a NUL.
        if (n->as_string()->get().find('\0') != std::string::npos)
            fail("key '" + where + "." + key + "' holds a NUL character (\\u0000)");
        return n->as_string()->get();
    } else if constexpr (std::is_floating_point_v<T>) {
        if (n->is_integer()) return static_cast<T>(n->as_integer()->get());
        if (!n->is_floating_point()) fail("key '" + where + "." + key + "' must be a number");
        return static_cast<T>(n->as_floating_point()->get());
    } else {
        if (!n->is_integer()) fail("key '" + where + "." + key + "' must be an integer");
        // A value the field cannot hold would wrap (2^32 + 64 processors
        // would be 64): the field's own range first, the key's after.
        // TOML integers stop at 2^63 - 1: a wider field's range is named
        // as far as a file can write it.
        const std::int64_t v = n->as_integer()->get();
        if (!std::in_range<T>(v))
            fail("key '" + where + "." + key + "' must be between " +
                 std::to_string(std::numeric_limits<T>::min()) + " and " +
                 std::to_string(std::min<std::uint64_t>(
                     std::numeric_limits<T>::max(),
                     static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) +
                 ", got " + std::to_string(v));
        return static_cast<T>(v);
    }
}

// An integer key whose meaningful range is narrower than its field's: the
// message names the key and that range (not the field's, nor a later
// check's key), e.g. a machine's processors.
std::int64_t get_between(const toml::table& t, const char* key, const std::string& where,
                         std::int64_t dflt, std::int64_t lo, std::int64_t hi,
                         const char* note = "");

}  // namespace rota::sim
