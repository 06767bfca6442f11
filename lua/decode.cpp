#include "decode.h"

#include <algorithm>
#include <cstring>

#include "engine/answers.h"
#include "text.h"

namespace rota::lua {

namespace {

constexpr std::size_t kReasonMax = 512;

std::string type_of(lua_State* L, int idx) {
    return lua_typename(L, lua_type(L, idx));
}

// A Lua number with an integral value (3 and 3.0 alike; never a string).
// `noun` names the value ("index"), `expected` what was expected ("a
// candidate index").
bool integer_at(lua_State* L, int idx, int type, lua_Integer& out, std::string& why,
                const char* noun, const char* expected) {
    if (type == LUA_TNUMBER) {
        int ok = 0;
        out = lua_tointegerx(L, idx, &ok);
        if (ok != 0) return true;
        why = std::string(noun) + " " + number_text(lua_tonumber(L, idx)) + " is not an integer";
        return false;
    }
    why = "a " + type_of(L, idx) + " where " + expected + " was expected";
    return false;
}

// A script's 1-based index as the engine's 0-based one. The smallest
// integer has no predecessor: it stays as it is, out of every range, so
// the engine's check refuses it like any other bad index.
std::int64_t zero_based(lua_Integer k) {
    return k == LUA_MININTEGER ? static_cast<std::int64_t>(k) : static_cast<std::int64_t>(k) - 1;
}

// Calls f(stack index, type, i) for t[1..len], fetching the elements a
// chunk at a time: one pop per chunk instead of one per element (a third
// of the cost of reading a long answer). Stops when f returns false.
template <class F>
bool for_each_element(lua_State* L, int t, lua_Unsigned len, F&& f) {
    constexpr lua_Unsigned kChunk = 64;
    const int chunk = lua_checkstack(L, static_cast<int>(kChunk)) != 0 ? kChunk : 1;
    const int top = lua_gettop(L);
    for (lua_Unsigned first = 1; first <= len; first += chunk) {
        const lua_Unsigned m = std::min<lua_Unsigned>(chunk, len - first + 1);
        int types[kChunk];
        for (lua_Unsigned j = 0; j < m; ++j) {
            types[j] = lua_rawgeti(L, t, static_cast<lua_Integer>(first + j));
        }
        for (lua_Unsigned j = 0; j < m; ++j) {
            if (!f(top + 1 + static_cast<int>(j), types[j], first + j)) {
                lua_settop(L, top);
                return false;
            }
        }
        lua_settop(L, top);
    }
    return true;
}

bool equals(const char* s, std::size_t len, const char* lit) {
    return len == std::strlen(lit) && std::memcmp(s, lit, len) == 0;
}

// Answers are read by position; "job 2" would read as a job id.
std::string at_position(std::size_t i) {
    return "the job at position " + std::to_string(i);
}

// An answer of one entry per batch element holds no key but 1..n: a longer
// table, or a key of another kind, answers some other batch (an off-by-one
// or a misspelt field), and reading only 1..n would hide it.
// A key as a message shows it, without calling a metamethod: the answer is
// read outside protected mode, where a script's __tostring must not run.
std::string key_text(lua_State* L, int idx) {
    switch (lua_type(L, idx)) {
        case LUA_TNUMBER:
            return lua_isinteger(L, idx) != 0 ? std::to_string(lua_tointeger(L, idx))
                                              : number_text(lua_tonumber(L, idx));
        case LUA_TSTRING: {
            std::size_t len = 0;
            const char* s = lua_tolstring(L, idx, &len);
            return printable(std::string_view(s, len), 64);
        }
        default:
            return "of type " + type_of(L, idx);
    }
}

// The load's dry run asks about an empty batch: what a script answers there
// is not held against it.
bool keys_within(lua_State* L, int t, std::size_t n, const char* entries, std::string& why) {
    if (n == 0) return true;
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_pop(L, 1);
        int ok = 0;
        const lua_Integer k = lua_tointegerx(L, -1, &ok);
        if (lua_type(L, -1) != LUA_TNUMBER || ok == 0 || k < 1 ||
            static_cast<lua_Unsigned>(k) > n) {
            why = "a key " + key_text(L, -1) + " in a table of " + entries + " for " +
                  std::to_string(n) + " (expected keys 1.." + std::to_string(n) + ")";
            lua_pop(L, 1);
            return false;
        }
    }
    return true;
}

// A decision table holds reject or hold, and nothing else.
bool decision_keys_known(lua_State* L, int t, std::size_t i, std::string& why) {
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_pop(L, 1);
        std::size_t len = 0;
        const char* s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : nullptr;
        if (s == nullptr || !(equals(s, len, "reject") || equals(s, len, "hold"))) {
            why = "an unknown key " + key_text(L, -1) + " in the decision for " + at_position(i) +
                  "; expected {reject = \"reason\"} or {hold = time}";
            lua_pop(L, 1);
            return false;
        }
    }
    return true;
}

}  // namespace

namespace {

// nil (none) or one 1-based number into `out`, 0-based; false for any
// other type, with `why` saying what was expected: `expected_all`.
bool none_or_one(lua_State* L, int idx, std::vector<std::int64_t>& out, std::string& why,
                 const char* noun, const char* expected_one, const std::string& expected_all) {
    lua_Integer k = 0;
    switch (lua_type(L, idx)) {
        case LUA_TNIL:
            return true;
        case LUA_TNUMBER:
            if (!integer_at(L, idx, LUA_TNUMBER, k, why, noun, expected_one)) return false;
            out.push_back(zero_based(k));
            return true;
        default:
            why = "a " + type_of(L, idx) + "; expected " + expected_all;
            return false;
    }
}

}  // namespace

bool decode_picks(lua_State* L, int idx, std::vector<std::int64_t>& picks, std::string& why) {
    picks.clear();
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE)
        return none_or_one(L, idx, picks, why, "index", "a candidate index",
                           "an array of candidate indices, an index or nil");
    lua_Integer k = 0;
    return for_each_element(L, idx, lua_rawlen(L, idx), [&](int at, int type, lua_Unsigned i) {
        if (!integer_at(L, at, type, k, why, "index", "a candidate index")) {
            why += " (at position " + std::to_string(i) + ")";
            return false;
        }
        picks.push_back(zero_based(k));
        return true;
    });
}

bool decode_set(lua_State* L, int idx, std::vector<std::int64_t>& pick, std::string& why) {
    pick.clear();
    return none_or_one(L, lua_absindex(L, idx), pick, why, "set", "a set number",
                       "a set number (1..sets.n) or nil");
}

bool decode_admission(lua_State* L, int idx, std::size_t n, std::vector<Admission>& out,
                      std::string& why) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TNIL && n == 0) {  // nothing to decide
        out.clear();
        return true;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected a table of decisions";
        return false;
    }
    if (!keys_within(L, idx, n, "decisions", why)) return false;
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        Admission& a = out[i];
        a.reason.clear();
        a.until = kForever;
        const int t = lua_rawgeti(L, idx, static_cast<lua_Integer>(i + 1));
        bool ok = true;
        if (t == LUA_TNIL || (t == LUA_TBOOLEAN && lua_toboolean(L, -1))) {
            a.kind = AdmissionKind::accept;
        } else if (t == LUA_TSTRING) {
            std::size_t len = 0;
            const char* s = lua_tolstring(L, -1, &len);
            if (equals(s, len, "accept")) {
                a.kind = AdmissionKind::accept;
            } else if (equals(s, len, "hold")) {
                a.kind = AdmissionKind::hold;
            } else {
                why = "the decision \"" + std::string(s, len) + "\" for " + at_position(i + 1) +
                      "; expected \"accept\", \"hold\" or {reject = reason}";
                ok = false;
            }
        } else if (t == LUA_TTABLE) {
            lua_pushliteral(L, "reject");
            const int rt = lua_rawget(L, -2);
            lua_pushliteral(L, "hold");
            const int ht = lua_rawget(L, -3);
            lua_Integer until = 0;
            if (!decision_keys_known(L, lua_absindex(L, -3), i + 1, why)) {
                ok = false;
            } else if (rt != LUA_TNIL && ht != LUA_TNIL) {
                why = "both reject and hold in the decision for " + at_position(i + 1) +
                      "; expected one of them";
                ok = false;
            } else if (rt == LUA_TNIL && ht != LUA_TNIL) {
                a.kind = AdmissionKind::hold;
                if (!integer_at(L, -1, ht, until, why, "hold time",
                                "an engine time in microseconds")) {
                    why += " (for " + at_position(i + 1) + ")";
                    ok = false;
                } else {
                    a.until = static_cast<Time>(until);
                }
            } else if (rt == LUA_TSTRING) {
                std::size_t len = 0;
                const char* s = lua_tolstring(L, -2, &len);
                a.kind = AdmissionKind::reject;
                // Bounded and printable: reasons reach logs, terminals,
                // JSON and CSV (the engine refuses an empty one).
                a.reason = printable(std::string_view(s, len), kReasonMax);
            } else {
                why = "a reject without a non-empty reason for " + at_position(i + 1) +
                      "; expected {reject = \"reason\"} or {hold = time}";
                ok = false;
            }
            lua_pop(L, 2);
        } else {
            why = "a " + type_of(L, -1) + " as the decision for " + at_position(i + 1) +
                  "; expected nil, true, \"accept\", \"hold\", {hold = time} or {reject = reason}";
            ok = false;
        }
        lua_pop(L, 1);
        if (!ok) return false;
    }
    return true;
}

bool decode_keys(lua_State* L, int idx, std::size_t n, std::vector<double>& keys,
                 std::string& why) {
    idx = lua_absindex(L, idx);
    keys.clear();
    if (lua_type(L, idx) == LUA_TNIL) return true;  // no keys: right only for an empty batch
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected an array of sort keys";
        return false;
    }
    // A named field or a key past n beside the entries is a mistake the
    // length would hide (lua-api.md, "When a script fails").
    if (!keys_within(L, idx, n, "sort keys", why)) return false;
    return for_each_element(L, idx, lua_rawlen(L, idx), [&](int at, int type, lua_Unsigned i) {
        if (type != LUA_TNUMBER) {
            why =
                "a " + type_of(L, at) + " as the key of " + at_position(i) + "; expected a number";
            return false;
        }
        keys.push_back(lua_tonumber(L, at));
        return true;
    });
}

bool decode_options(lua_State* L, int idx, std::size_t n, std::vector<std::int64_t>& out,
                    std::string& why) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TNIL && n == 0) {
        out.clear();
        return true;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected a table of options";
        return false;
    }
    if (!keys_within(L, idx, n, "options", why)) return false;
    out.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const int type = lua_rawgeti(L, idx, static_cast<lua_Integer>(i + 1));
        lua_Integer v = 0;
        const bool ok = type == LUA_TNIL || integer_at(L, -1, type, v, why, "option", "an option");
        lua_pop(L, 1);
        if (!ok) {
            why += " (move " + std::to_string(i + 1) + ")";
            return false;
        }
        out[i] = static_cast<std::int64_t>(v);
    }
    return true;
}

bool decode_placement(lua_State* L, int idx, const JobBatch& jobs, std::vector<std::int64_t>& out,
                      std::string& why) {
    idx = lua_absindex(L, idx);
    out.clear();
    if (lua_type(L, idx) == LUA_TNIL && jobs.size() == 0) return true;
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected a table with the clusters of each job";
        return false;
    }
    if (!keys_within(L, idx, jobs.size(), "placements", why)) return false;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const std::string job = " (" + at_position(j + 1) + ")";
        if (lua_rawgeti(L, idx, static_cast<lua_Integer>(j + 1)) != LUA_TTABLE) {
            why = "a " + type_of(L, -1) + " where an array of clusters was expected" + job;
            lua_pop(L, 1);
            return false;
        }
        const int t = lua_gettop(L);
        const auto want = static_cast<lua_Unsigned>(jobs.components(j));
        if (lua_rawlen(L, t) != want) {
            why = std::to_string(lua_rawlen(L, t)) + " clusters for " + std::to_string(want) +
                  " components" + job;
            lua_pop(L, 1);
            return false;
        }
        if (!keys_within(L, t, want, "clusters", why)) {  // {1, 2, x = 1}: no named fields
            why += job;
            lua_pop(L, 1);
            return false;
        }
        for (lua_Unsigned i = 1; i <= want; ++i) {
            const int type = lua_rawgeti(L, t, static_cast<lua_Integer>(i));
            lua_Integer v = 0;
            const bool ok = integer_at(L, -1, type, v, why, "cluster", "a cluster number");
            lua_pop(L, 1);
            if (!ok) {
                why += job;
                lua_pop(L, 1);
                return false;
            }
            out.push_back(zero_based(v));
        }
        lua_pop(L, 1);
    }
    return true;
}

bool decode_amounts(lua_State* L, int idx, std::size_t n, std::vector<std::int64_t>& out,
                    std::string& why) {
    idx = lua_absindex(L, idx);
    out.clear();
    const int t = lua_type(L, idx);
    if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, idx))) return true;
    if (t != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected a table of processor counts, or nil";
        return false;
    }
    if (!keys_within(L, idx, n, "processor counts", why)) return false;
    out.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const int type = lua_rawgeti(L, idx, static_cast<lua_Integer>(i + 1));
        lua_Integer v = 0;
        const bool ok =
            type == LUA_TNIL || integer_at(L, -1, type, v, why, "amount", "a processor count");
        lua_pop(L, 1);
        if (!ok) {
            why += " (" + at_position(i + 1) + ")";
            return false;
        }
        out[i] = static_cast<std::int64_t>(v);
    }
    return true;
}

}  // namespace rota::lua
