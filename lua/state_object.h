// One object of a C++ type per Lua state, as a full userdata kept in the
// registry: the `rota` library's helpers (kselect, waterfill) reuse theirs
// from call to call instead of allocating one per hook call.
#pragma once

#include <lua.hpp>
#include <new>

namespace rota::lua {

// The state's object of type T under the registry key `key`, made on first
// use with the metatable `meta`: `methods` as its __index, a __gc that runs
// ~T, and __metatable locked so scripts cannot reach or replace it. Leaves
// the object on the stack.
template <class T>
T& state_object(lua_State* L, const void* key, const char* meta, const luaL_Reg* methods) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TUSERDATA)
        return *static_cast<T*>(lua_touserdata(L, -1));
    lua_pop(L, 1);
    void* mem = lua_newuserdatauv(L, sizeof(T), 0);
    if (luaL_newmetatable(L, meta)) {
        lua_newtable(L);
        luaL_setfuncs(L, methods, 0);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, [](lua_State* S) {
            static_cast<T*>(lua_touserdata(S, 1))->~T();
            return 0;
        });
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    auto* object = new (mem) T{};
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
    return *object;
}

}  // namespace rota::lua
