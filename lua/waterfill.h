// Native helper of the `rota` library for [Weissman03]'s malleable policies
// (docs/lua-api.md "Harvest and distribution amounts (`rota.waterfill`)"):
// the harvest and distribution scripts choose the rule and the order in
// which queued and running jobs are served; the per-processor arithmetic
// (lua/waterfill_rules.h) runs here on the engine's arrays instead of in
// Lua loops over the batch columns.
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <string>
#include <vector>

#include "engine/vocabulary.h"

namespace rota::lua {

// rota.waterfill(b, ctx) -> the state's plan object, reset for the batch b
// and context ctx of the harvest or distribution call under way.
int waterfill(lua_State* L);

// What the value at `idx` is as a hook's answer: not a plan of
// rota.waterfill (then it is read as a table of amounts), this call's plan
// in the hook's direction (its amounts copied to `out`), or a plan the
// hook cannot return (`why` says why): one from an earlier call, or one
// that gives processors as a harvest's answer or takes them as a
// distribution's.
enum class PlanAnswer { not_a_plan, plan, bad_plan };
PlanAnswer waterfill_answer(lua_State* L, int idx, const MalleableBatch& batch, bool takes,
                            std::vector<std::int64_t>& out, std::string& why);

}  // namespace rota::lua
