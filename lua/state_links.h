// What the C functions that scripts call must find at once, behind one
// pointer in the state's extra space (lua_getextraspace). A look-up in the
// registry or in a metatable hashes its key, and rota.waterfill, w:take and
// the answer's decoder each made one or two per hook call; reading a
// pointer costs nothing. Threads made by scripts copy the extra space, so
// coroutines see the same links.
#pragma once

#include <cstring>
#include <lua.hpp>

namespace rota::lua {

struct InstructionBudget;
class BatchView;
class ContextView;

struct StateLinks {
    InstructionBudget* budget = nullptr;
    // The batch and the context of the hook call running (null between
    // calls), known by their tables' addresses, which a script cannot give
    // a table of its own. The tables serve call after call (one a script
    // kept is the current call's again) until a failed call has them made
    // anew.
    const void* batch_table = nullptr;
    const BatchView* batch = nullptr;
    const void* context_table = nullptr;
    const ContextView* context = nullptr;
    // The state's plan and selection (state_object.h), once made.
    const void* waterfill = nullptr;
    const void* kselect = nullptr;
};

inline StateLinks* links(lua_State* L) {
    StateLinks* p;
    std::memcpy(&p, lua_getextraspace(L), sizeof p);
    return p;
}

inline void set_links(lua_State* L, StateLinks* p) {
    std::memcpy(lua_getextraspace(L), &p, sizeof p);
}

}  // namespace rota::lua
