// The fixed layout of the bottom of a policy state's main stack. The values
// the hot path needs (message handler, batch tables, context proxies, hook
// functions, params) live there for the life of the state, so a hook call
// finds them with lua_pushvalue instead of a registry lookup each.
#pragma once

#include "engine/vocabulary.h"

namespace rota::lua::slot {

inline constexpr int msgh = 1;
inline constexpr int jobs = 2;   // the batch of jobs (admission, order, backfill_select)
inline constexpr int moves = 3;  // the batch of migrations (migration_option)
inline constexpr int mall = 16;  // the jobs of a harvest or distribution ([Weissman03])
inline constexpr int sets = 20;  // the candidate processor sets of a preempt ([Feitelson97])
// A context: the proxy scripts get, its metatable, and its loader (the
// proxy's __index until ctx is first read in a call).
struct Ctx {
    int proxy, meta, loader;
};
inline constexpr Ctx common{4, 5, 6};
inline constexpr Ctx backfill{7, 8, 9};
inline constexpr Ctx migration{10, 11, 12};
inline constexpr Ctx placement{13, 14, 15};
inline constexpr Ctx malleable{17, 18, 19};
inline constexpr Ctx preempt{21, 22, 23};
inline constexpr int fn0 = 24;
inline constexpr int params0 = fn0 + kHookCount;
inline constexpr int top = params0 + kHookCount - 1;

constexpr int fn(Hook h) {
    return fn0 + static_cast<int>(h);
}
constexpr int params(Hook h) {
    return params0 + static_cast<int>(h);
}

}  // namespace rota::lua::slot
