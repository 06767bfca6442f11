#include "params.h"

#include <string>
#include <variant>

namespace rota::lua {

namespace {

void push_value(lua_State* L, const ParamValue& v) {
    if (const bool* b = std::get_if<bool>(&v)) {
        lua_pushboolean(L, *b ? 1 : 0);
    } else if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) {
        lua_pushinteger(L, *i);
    } else if (const double* d = std::get_if<double>(&v)) {
        lua_pushnumber(L, *d);
    } else {
        const std::string& s = std::get<std::string>(v);
        lua_pushlstring(L, s.data(), s.size());
    }
}

// A comma-separated list of the declared names, for the error message.
void push_declared(lua_State* L, int defaults) {
    lua_pushliteral(L, "");
    const int list = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, defaults) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) continue;
        const bool more = lua_rawlen(L, list) > 0;
        lua_pushvalue(L, list);
        if (more) lua_pushliteral(L, ", ");
        lua_pushvalue(L, more ? -3 : -2);  // the key
        lua_concat(L, more ? 3 : 2);
        lua_replace(L, list);
    }
}

}  // namespace

void push_params(lua_State* L, int defaults, const Params& params) {
    defaults = lua_absindex(L, defaults);
    const bool declared = lua_type(L, defaults) == LUA_TTABLE;
    lua_newtable(L);
    const int out = lua_gettop(L);
    if (declared) {
        lua_pushnil(L);
        while (lua_next(L, defaults) != 0) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, out);
        }
    }
    for (const auto& [name, value] : params) {
        lua_pushlstring(L, name.data(), name.size());
        push_value(L, value);
        if (declared) {
            lua_pushvalue(L, -2);
            const int expected = lua_rawget(L, defaults);
            if (expected == LUA_TNIL) {
                push_declared(L, defaults);
                luaL_error(L, "unknown param '%s' (the script's defaults declare: %s)",
                           name.c_str(), lua_tostring(L, -1));
            }
            if (expected != lua_type(L, -2)) {
                luaL_error(L, "param '%s' must be a %s like its default, not a %s", name.c_str(),
                           lua_typename(L, expected), luaL_typename(L, -2));
            }
            lua_pop(L, 1);
        }
        lua_rawset(L, out);
    }
}

}  // namespace rota::lua
