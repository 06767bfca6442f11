#include "bounded.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <lua.hpp>

namespace rota::lua {

namespace {

// Skips one single-character class at p (a literal, `.`, `%x` or a
// `[set]`); returns where the item's quantifier, if any, would be.
std::size_t skip_class(std::string_view p, std::size_t i) {
    if (p[i] == '%') return std::min(p.size(), i + 2);
    if (p[i] != '[') return i + 1;
    ++i;
    if (i < p.size() && p[i] == '^') ++i;
    // A ']' right after '[' or '[^' is a member, not the end.
    do {
        if (i >= p.size()) return i;  // malformed: the matcher will say so
        if (p[i] == '%') ++i;
        ++i;
    } while (i < p.size() && p[i] != ']');
    return std::min(p.size(), i + 1);
}

}  // namespace

double pattern_steps(std::string_view p, std::size_t n) {
    std::size_t i = 0;
    bool anchored = false;
    if (!p.empty() && p[0] == '^') {
        anchored = true;
        i = 1;
    }
    int scans = 0, optional = 0;
    while (i < p.size()) {
        const char c = p[i];
        if (c == '(' || c == ')') {
            ++i;
            continue;
        }
        if (c == '%' && i + 1 < p.size()) {
            const char k = p[i + 1];
            if (k == 'b') {  // %bxy: scans to the balancing y
                ++scans;
                i += 4;
                continue;
            }
            if (k == 'f') {  // %f[set]: a frontier, one comparison
                i = skip_class(p, i + 2);
                continue;
            }
            if (k >= '0' && k <= '9') {  // a back reference compares a capture
                ++scans;
                i += 2;
                continue;
            }
        }
        if (c == '$' && i + 1 == p.size()) break;
        i = skip_class(p, i);
        if (i < p.size()) {
            const char q = p[i];
            if (q == '*' || q == '+' || q == '-') {
                ++scans;
                ++i;
            } else if (q == '?') {
                ++optional;
                ++i;
            }
        }
    }
    // C(n + k, k), in floating point: it only has to be compared.
    const double m = static_cast<double>(n);
    double per_start = 1;
    for (int k = 1; k <= scans; ++k) per_start *= (m + k) / k;
    per_start *= std::ldexp(1.0, std::min(optional, 1000));
    return (anchored ? 1.0 : m + 1) * per_start;
}

namespace {

// Refuses a pattern call whose worst case is over the limit. string.match
// tries every position unless the pattern is anchored, like find: the same
// bound serves all four functions.
void check_pattern(lua_State* L, const char* fname, int subject, int pattern, bool plain) {
    std::size_t n = 0, len = 0;
    luaL_checklstring(L, subject, &n);
    const char* p = luaL_checklstring(L, pattern, &len);
    if (plain) return;  // a plain find is a substring search
    const double steps = pattern_steps(std::string_view(p, len), n);
    if (steps > kPatternSteps) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "%s: the pattern could take %.3g steps on a %zu-byte subject (the limit "
                      "is %.0e): use fewer repetitions, an anchor or a plain find",
                      fname, steps, n, kPatternSteps);
        luaL_error(L, "%s", msg);
    }
}

// The original function is upvalue 1; its name upvalue 2.
int call_original(lua_State* L) {
    const int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

int bounded_find(lua_State* L) {
    // find's 4th argument asks for a plain search.
    check_pattern(L, "string.find", 1, 2, lua_toboolean(L, 4) != 0);
    return call_original(L);
}

int bounded_match(lua_State* L) {
    check_pattern(L, lua_tostring(L, lua_upvalueindex(2)), 1, 2, false);
    return call_original(L);
}

// string.rep with an empty result copies nothing n times: Lua's loop runs n
// times all the same, so such a call returns at once here.
int bounded_rep(lua_State* L) {
    std::size_t l = 0, lsep = 0;
    luaL_checklstring(L, 1, &l);
    luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    return call_original(L);
}

// table.move(a1, f, e, t [, a2]) touches e - f + 1 elements, even absent
// ones, which allocate nothing: the memory cap cannot stop it.
int bounded_move(lua_State* L) {
    const lua_Integer f = luaL_checkinteger(L, 2);
    const lua_Integer e = luaL_checkinteger(L, 3);
    const auto span = static_cast<lua_Unsigned>(e) - static_cast<lua_Unsigned>(f);
    if (e >= f && span >= static_cast<lua_Unsigned>(kMoveElements)) {
        char msg[128];
        std::snprintf(msg, sizeof msg, "table.move: %llu elements (the limit is %lld)",
                      static_cast<unsigned long long>(span) + 1, kMoveElements);
        return luaL_error(L, "%s", msg);
    }
    return call_original(L);
}

// table.sort(list [, comp]) makes about n log2 n comparisons inside C,
// where only a Lua function (a comparator, an __lt metamethod) runs VM
// instructions that the budget and the watchdog reach. So a comparator
// must be a Lua function; without one, an element whose comparison would
// call a metamethod must have a Lua __lt, the list must be a plain table
// (its own __index or __newindex would run at every access), and the
// comparisons of numbers and strings, whose time is that of C, are
// bounded: n log2 n of them, each counted as 1 + the longest string's
// length / 16 steps (strcmp's pace), at most kSortSteps.
int bounded_sort(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TFUNCTION);
        if (lua_iscfunction(L, 2))
            return luaL_error(L,
                              "table.sort: the comparator must be a Lua function (a C function "
                              "would run every comparison out of the budget's reach)");
        return call_original(L);
    }
    if (lua_getmetatable(L, 1) != 0)
        return luaL_error(L,
                          "table.sort: a list with a metatable needs a Lua comparator (its "
                          "metamethods would run at every access, out of the budget's reach)");
    const lua_Unsigned n = lua_rawlen(L, 1);
    if (n < 2) return call_original(L);
    if (n > static_cast<lua_Unsigned>(kSortElements)) {
        char msg[128];
        std::snprintf(msg, sizeof msg, "table.sort: %llu elements (the limit is %lld)",
                      static_cast<unsigned long long>(n), kSortElements);
        return luaL_error(L, "%s", msg);
    }
    std::size_t longest = 0;
    for (lua_Unsigned i = 1; i <= n; ++i) {
        const int t = lua_rawgeti(L, 1, static_cast<lua_Integer>(i));
        if (t == LUA_TSTRING) {
            longest = std::max(longest, static_cast<std::size_t>(lua_rawlen(L, -1)));
        } else if (t != LUA_TNUMBER && luaL_getmetafield(L, -1, "__lt") != LUA_TNIL) {
            const bool lua_lt = lua_type(L, -1) == LUA_TFUNCTION && !lua_iscfunction(L, -1);
            lua_pop(L, 1);
            if (!lua_lt)
                return luaL_error(L,
                                  "table.sort: element %I has an __lt that is not a Lua function "
                                  "(give a Lua comparator)",
                                  static_cast<lua_Integer>(i));
        }
        lua_pop(L, 1);
    }
    const double m = static_cast<double>(n);
    const double steps = m * std::ceil(std::log2(m)) * (1.0 + static_cast<double>(longest) / 16);
    if (steps > kSortSteps) {
        char strings[64] = "";
        if (longest > 0)
            std::snprintf(strings, sizeof strings, " with strings of up to %zu bytes", longest);
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "table.sort: %llu elements%s could take %.3g steps (the limit is %.0e): "
                      "sort fewer or shorter keys, or give a Lua comparator",
                      static_cast<unsigned long long>(n), strings, steps, kSortSteps);
        return luaL_error(L, "%s", msg);
    }
    return call_original(L);
}

void wrap(lua_State* L, int lib, const char* name, lua_CFunction f, const char* label) {
    lua_getfield(L, lib, name);
    lua_pushstring(L, label);
    lua_pushcclosure(L, f, 2);
    lua_setfield(L, lib, name);
}

}  // namespace

void bound_library_calls(lua_State* L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    const int str = lua_gettop(L);
    wrap(L, str, "find", bounded_find, "string.find");
    wrap(L, str, "match", bounded_match, "string.match");
    wrap(L, str, "gmatch", bounded_match, "string.gmatch");
    wrap(L, str, "gsub", bounded_match, "string.gsub");
    wrap(L, str, "rep", bounded_rep, "string.rep");
    lua_getglobal(L, LUA_TABLIBNAME);
    wrap(L, lua_gettop(L), "move", bounded_move, "table.move");
    wrap(L, lua_gettop(L), "sort", bounded_sort, "table.sort");
    lua_pop(L, 2);
}

}  // namespace rota::lua
