// The params table a hook receives: the script's `defaults` overlaid with
// the config's params (ARCHITECTURE §5). Built once at load, never per call.
#pragma once

#include <lua.hpp>

#include "engine/policy.h"

namespace rota::lua {

// Pushes a new params table. `defaults` is a stack index holding the
// script's defaults table or nil. Runs in protected mode and raises a Lua
// error for a param the script does not declare (when it declares any) or
// one whose type differs from its default's: a typo in a config must not
// silently leave a policy on its default.
void push_params(lua_State* L, int defaults, const Params& params);

}  // namespace rota::lua
