// Native helpers of the `rota` library for K-resource backfill selection
// ([Leinberger99] §3, docs/lua-api.md "K-resource selection"): a script keeps its
// greedy loop and its choice of score, and the K-loops over every
// candidate's demand vector run here, on the engine's arrays, instead of
// over the Lua columns c.R and ctx.usage.
#pragma once

#include <lua.hpp>

namespace rota::lua {

// rota.kselect(c, ctx) -> the state's selection object, reset to ctx's
// usage for the batch c of the backfill_select call under way.
int kselect(lua_State* L);

}  // namespace rota::lua
