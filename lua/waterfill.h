// Native helper of the `rota` library for seed 004's malleable policies
// (docs/lua-api.md "Harvest and distribution amounts (`rota.waterfill`)"):
// the harvest and distribution scripts choose the rule and the order in
// which queued and running jobs are served; the per-processor arithmetic
// (lua/waterfill_rules.h) runs here on the engine's arrays instead of in
// Lua loops over the batch columns.
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <vector>

#include "engine/vocabulary.h"

namespace rota::lua {

// rota.waterfill(b, ctx) -> the state's plan object, reset for the batch b
// and context ctx of the harvest or distribution call under way.
int waterfill(lua_State* L);

// Whether the value at `idx` is this state's plan for `batch` in the call
// under way; if so, its amounts are copied to `out`. A hook may return its
// plan as its answer instead of a table of amounts.
bool waterfill_answer(lua_State* L, int idx, const MalleableBatch& batch,
                      std::vector<std::int64_t>& out);

}  // namespace rota::lua
