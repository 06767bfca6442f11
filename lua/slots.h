// The fixed layout of the bottom of a policy state's main stack. The values
// the hot path needs (message handler, batch and ctx tables, hook functions,
// params) live there for the life of the state, so a hook call finds them
// with lua_pushvalue instead of a registry lookup each.
#pragma once

#include "engine/policy.h"

namespace rota::lua::slot {

inline constexpr int msgh = 1;
inline constexpr int batch = 2;
inline constexpr int ctx = 3;         // what scripts get: a read-only proxy
inline constexpr int ctx_meta = 4;    // its metatable
inline constexpr int ctx_loader = 5;  // its __index until ctx is first read in a call
inline constexpr int fn0 = 6;
inline constexpr int params0 = fn0 + kHookCount;
inline constexpr int top = params0 + kHookCount - 1;

constexpr int fn(Hook h) {
    return fn0 + static_cast<int>(h);
}
constexpr int params(Hook h) {
    return params0 + static_cast<int>(h);
}

}  // namespace rota::lua::slot
