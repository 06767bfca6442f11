#include "sandbox.h"

#include <cstdint>

#include "bounded.h"
#include "budget.h"
#include "kselect.h"
#include "waterfill.h"

#ifndef ROTA_VERSION_STRING
#define ROTA_VERSION_STRING "0.1.0"
#endif

namespace rota::lua {

namespace {

// Registry keys (their addresses are unique).
const char kTemplateKey = 0;  // table: name -> value every env starts from
const char kRotaMetaKey = 0;  // metatable of each env's read-only `rota`
const char kLockMetaKey = 0;  // metatable of a locked env

constexpr const char* kBaseFunctions[] = {
    "assert", "error",  "ipairs", "next",     "pairs",    "pcall", "rawequal",
    "rawget", "rawlen", "select", "tonumber", "tostring", "type",  "getmetatable",
};
constexpr const char* kLibraries[] = {"string", "table", "math", "utf8"};

void deliver(const LogSink* log, const char* s, std::size_t len) noexcept {
    try {
        if (log != nullptr && *log) (*log)(std::string_view(s, len));
    } catch (...) {
        // A broken log sink must not break the policy that printed.
    }
}

// print(...): like the standard one, but to the embedder's log.
int sandbox_print(lua_State* L) {
    const auto* log = static_cast<const LogSink*>(lua_touserdata(L, lua_upvalueindex(1)));
    const int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; ++i) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, nullptr);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    std::size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    deliver(log, s, len);
    return 0;
}

// load(chunk [, chunkname [, mode [, env]]]): text chunks only, in the
// calling script's environment unless an env is given. Reader functions are
// refused: a string is all a policy ever needs.
int sandbox_load(lua_State* L) {
    if (lua_type(L, 1) != LUA_TSTRING) {
        return luaL_error(L, "load: a policy script may only load a string chunk");
    }
    std::size_t len = 0;
    const char* s = lua_tolstring(L, 1, &len);
    const char* name = luaL_optstring(L, 2, s);
    const int env = lua_isnone(L, 4) ? lua_upvalueindex(1) : 4;
    if (luaL_loadbufferx(L, s, len, name, "t") != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushvalue(L, env);
    if (lua_setupvalue(L, -2, 1) == nullptr) lua_pop(L, 1);
    return 1;
}

// setmetatable(t, mt): refuses __gc, because a finalizer would run script
// code at any allocation, outside the hook call and its budget.
int sandbox_setmetatable(lua_State* L) {
    const int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        const bool has_gc = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (has_gc) return luaL_error(L, "__gc metamethods are not allowed in policy scripts");
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) {
        return luaL_error(L, "cannot change a protected metatable");
    }
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

// xpcall's message handler, run only while the budget holds. Lua runs a
// handler inside the count hook that raised the budget's error, where no
// hook fires: a handler that looped there would never be stopped. Once
// the budget is out the message goes through untouched.
int guarded_handler(lua_State* L) {
    if (budget_tripped(L)) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// xpcall(f, msgh, ...): the standard one with its handler guarded.
int sandbox_xpcall(lua_State* L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));  // the standard xpcall
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

int refuse_global(lua_State* L) {
    return luaL_error(L,
                      "assignment to undeclared global '%s' (hooks keep no state between "
                      "calls; use a local)",
                      luaL_tolstring(L, 2, nullptr));
}

// rota.sequence(n) -> {1, 2, ..., n}: "every candidate in queue order",
// built at C speed in a table sized once, a third of the cost of growing
// one from Lua.
int sequence(lua_State* L) {
    const lua_Integer n = luaL_checkinteger(L, 1);
    luaL_argcheck(L, n >= 0 && n <= INT32_MAX, 1, "out of range");
    lua_createtable(L, static_cast<int>(n), 0);
    for (lua_Integer i = 1; i <= n; ++i) {
        lua_pushinteger(L, i);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

int refuse_rota_write(lua_State* L) {
    return luaL_error(L, "the rota table is read-only");
}

// Whether the table at `t` has the metatable kept in the registry at `key`.
bool has_meta(lua_State* L, int t, const char* key) {
    if (lua_getmetatable(L, t) == 0) return false;
    lua_rawgetp(L, LUA_REGISTRYINDEX, key);
    const bool same = lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 2);
    return same;
}

// rawset(t, k, v): the standard one, except on the tables the sandbox
// makes read-only, which rawset would write past their metatables: the
// `rota` table, and a locked environment, where only the globals the
// chunk defined may change (as an assignment would).
int sandbox_rawset(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (has_meta(L, 1, &kRotaMetaKey)) return luaL_error(L, "rawset: the rota table is read-only");
    if (has_meta(L, 1, &kLockMetaKey)) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, 1) == LUA_TNIL)
            return luaL_error(L,
                              "rawset: assignment to undeclared global '%s' (hooks keep no "
                              "state between calls; use a local)",
                              luaL_tolstring(L, 2, nullptr));
        lua_pop(L, 1);
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

void open_library(lua_State* L, const char* name, lua_CFunction open) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
}

void push_template(lua_State* L, const LogSink* log) {
    lua_newtable(L);
    lua_pushglobaltable(L);
    for (const char* name : kBaseFunctions) {
        lua_getfield(L, -1, name);
        lua_setfield(L, -3, name);
    }
    for (const char* name : kLibraries) {
        lua_getfield(L, -1, name);
        lua_setfield(L, -3, name);
    }
    lua_pop(L, 1);
    lua_pushlightuserdata(L, const_cast<LogSink*>(log));
    lua_pushcclosure(L, sandbox_print, 1);
    lua_setfield(L, -2, "print");
    lua_pushcfunction(L, sandbox_setmetatable);
    lua_setfield(L, -2, "setmetatable");
    lua_pushcfunction(L, sandbox_rawset);
    lua_setfield(L, -2, "rawset");
    lua_getglobal(L, "xpcall");
    lua_pushcclosure(L, sandbox_xpcall, 1);
    lua_setfield(L, -2, "xpcall");
}

void push_rota_meta(lua_State* L) {
    lua_createtable(L, 0, 3);
    lua_createtable(L, 0, 5);  // the fields every script sees
    lua_pushliteral(L, ROTA_VERSION_STRING);
    lua_setfield(L, -2, "version");
    lua_pushinteger(L, 1'000'000);  // times are integer microseconds
    lua_setfield(L, -2, "second");
    lua_pushcfunction(L, sequence);
    lua_setfield(L, -2, "sequence");
    lua_pushcfunction(L, kselect);
    lua_setfield(L, -2, "kselect");
    lua_pushcfunction(L, waterfill);
    lua_setfield(L, -2, "waterfill");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, refuse_rota_write);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
}

}  // namespace

void prepare_sandbox(lua_State* L, const LogSink* log) {
    open_library(L, LUA_GNAME, luaopen_base);
    open_library(L, LUA_STRLIBNAME, luaopen_string);
    open_library(L, LUA_TABLIBNAME, luaopen_table);
    open_library(L, LUA_MATHLIBNAME, luaopen_math);
    open_library(L, LUA_UTF8LIBNAME, luaopen_utf8);
    bound_library_calls(L);

    // Every string shares this table as its __index, so dump must go from
    // the table itself, and the metatable must not be reachable.
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    // The same inputs must give the same schedule: no time-based seed.
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    push_template(L, log);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
    push_rota_meta(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kRotaMetaKey);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, refuse_global);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kLockMetaKey);
}

void push_sandbox_env(lua_State* L) {
    lua_createtable(L, 0, 32);
    const int env = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        // Libraries are copied, so a script that changes its `string`
        // changes nobody else's.
        if (lua_type(L, -1) == LUA_TTABLE) {
            lua_newtable(L);
            lua_pushnil(L);
            while (lua_next(L, -3) != 0) {
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_rawset(L, -4);
            }
            lua_replace(L, -2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, env);
    }
    lua_pop(L, 1);

    lua_pushvalue(L, env);
    lua_pushcclosure(L, sandbox_load, 1);
    lua_setfield(L, env, "load");

    lua_newtable(L);  // each script its own empty proxy: rawset on it stays private
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kRotaMetaKey);
    lua_setmetatable(L, -2);
    lua_setfield(L, env, "rota");
}

void lock_sandbox_env(lua_State* L, int env) {
    env = lua_absindex(L, env);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kLockMetaKey);
    lua_setmetatable(L, env);
}

}  // namespace rota::lua
