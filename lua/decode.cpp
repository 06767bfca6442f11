#include "decode.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace rota::lua {

namespace {

std::string type_of(lua_State* L, int idx) {
    return lua_typename(L, lua_type(L, idx));
}

// A Lua number with an integral value (3 and 3.0 alike; never a string).
bool to_index(lua_State* L, int idx, int type, lua_Integer& out) {
    if (type != LUA_TNUMBER) return false;
    int ok = 0;
    out = lua_tointegerx(L, idx, &ok);
    return ok != 0;
}

std::string number_text(double v) {
    if (std::isnan(v)) return "NaN";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.14g", v);
    return buf;
}

bool add_pick(lua_State* L, int idx, int type, std::size_t n, std::vector<std::uint32_t>& picks,
              std::vector<std::uint8_t>& seen, std::string& why) {
    lua_Integer k = 0;
    if (!to_index(L, idx, type, k)) {
        why = type == LUA_TNUMBER
                  ? "index " + number_text(lua_tonumber(L, idx)) + " is not an integer"
                  : "a " + type_of(L, idx) + " where a candidate index was expected";
        return false;
    }
    if (k < 1 || static_cast<std::uint64_t>(k) > n) {
        why = "index " + std::to_string(k) + " is outside the candidates 1.." + std::to_string(n);
        return false;
    }
    if (seen[k - 1] != 0) {
        why = "index " + std::to_string(k) + " appears twice";
        return false;
    }
    seen[k - 1] = 1;
    picks.push_back(static_cast<std::uint32_t>(k - 1));
    return true;
}

// Calls f(stack index, type, i) for t[1..len], fetching the elements a chunk at a
// time: one pop per chunk instead of one per element (a third of the cost
// of reading a long answer). Stops when f returns false.
template <class F>
void for_each_element(lua_State* L, int t, lua_Unsigned len, F&& f) {
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
                return;
            }
        }
        lua_settop(L, top);
    }
}

bool equals(const char* s, std::size_t len, const char (&lit)[7]) {
    return len == sizeof lit - 1 && std::memcmp(s, lit, len) == 0;
}

}  // namespace

bool decode_picks(lua_State* L, int idx, std::size_t n, std::vector<std::uint32_t>& picks,
                  std::vector<std::uint8_t>& seen, std::string& why) {
    picks.clear();
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
        case LUA_TNIL:
            return true;
        case LUA_TNUMBER:
            if (seen.size() < n) seen.resize(n);
            if (!add_pick(L, idx, LUA_TNUMBER, n, picks, seen, why)) return false;
            seen[picks.front()] = 0;
            return true;
        case LUA_TTABLE:
            break;
        default:
            why = "a " + type_of(L, idx) +
                  "; expected an array of candidate indices, an index or nil";
            return false;
    }
    const lua_Unsigned len = lua_rawlen(L, idx);
    if (len > n) {
        why = std::to_string(len) + " indices for " + std::to_string(n) + " candidates";
        return false;
    }
    if (seen.size() < n) seen.resize(n);
    bool ok = true;
    for_each_element(L, idx, len, [&](int at, int type, lua_Unsigned i) {
        ok = add_pick(L, at, type, n, picks, seen, why);
        if (!ok) why += " (at position " + std::to_string(i) + ")";
        return ok;
    });
    for (std::uint32_t p : picks) seen[p] = 0;  // leave the scratch clean for the next call
    if (!ok) picks.clear();
    return ok;
}

bool decode_admission(lua_State* L, int idx, std::size_t n, std::vector<Admission>& out,
                      std::string& why) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected a table of decisions";
        return false;
    }
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        Admission& a = out[i];
        a.reason.clear();
        const int t = lua_rawgeti(L, idx, static_cast<lua_Integer>(i + 1));
        bool ok = true;
        if (t == LUA_TNIL || (t == LUA_TBOOLEAN && lua_toboolean(L, -1))) {
            a.kind = AdmissionKind::accept;
        } else if (t == LUA_TSTRING) {
            std::size_t len = 0;
            const char* s = lua_tolstring(L, -1, &len);
            if (equals(s, len, "accept")) {
                a.kind = AdmissionKind::accept;
            } else if (len == 4 && std::memcmp(s, "hold", 4) == 0) {
                a.kind = AdmissionKind::hold;
            } else {
                why = "the decision \"" + std::string(s, len) + "\" for job " +
                      std::to_string(i + 1) +
                      "; expected \"accept\", \"hold\" or {reject = reason}";
                ok = false;
            }
        } else if (t == LUA_TTABLE) {
            lua_pushliteral(L, "reject");
            std::size_t len = 0;
            const char* s = lua_rawget(L, -2) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : nullptr;
            if (s != nullptr && len > 0) {
                a.kind = AdmissionKind::reject;
                a.reason.assign(s, len);
            } else {
                why = "a reject without a non-empty reason for job " + std::to_string(i + 1) +
                      "; expected {reject = \"reason\"}";
                ok = false;
            }
            lua_pop(L, 1);
        } else {
            why = "a " + type_of(L, -1) + " as the decision for job " + std::to_string(i + 1) +
                  "; expected nil, true, \"accept\", \"hold\" or {reject = reason}";
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
    if (lua_type(L, idx) != LUA_TTABLE) {
        why = "a " + type_of(L, idx) + "; expected an array of sort keys";
        return false;
    }
    const lua_Unsigned len = lua_rawlen(L, idx);
    if (len != n) {
        why = std::to_string(len) + " keys for " + std::to_string(n) + " jobs";
        return false;
    }
    keys.resize(n);
    bool ok = true;
    for_each_element(L, idx, len, [&](int at, int type, lua_Unsigned i) {
        const double k = type == LUA_TNUMBER ? lua_tonumber(L, at) : 0.0;
        if (type != LUA_TNUMBER || !std::isfinite(k)) {
            why = type == LUA_TNUMBER ? number_text(k) + " as the key of job " + std::to_string(i)
                                      : "a " + type_of(L, at) + " as the key of job " +
                                            std::to_string(i) + "; expected a number";
            ok = false;
        }
        keys[i - 1] = k;
        return ok;
    });
    return ok;
}

}  // namespace rota::lua
