// What a policy script can reach (ARCHITECTURE §5, docs/lua-api.md): its own
// _ENV holding only side-effect-free functions, text-only `load`, `print`
// routed to the embedder's log, and a read-only `rota` table. Nothing that
// touches files, the process, the debugger or the collector.
#pragma once

#include <functional>
#include <lua.hpp>
#include <string_view>

namespace rota::lua {

using LogSink = std::function<void(std::string_view)>;

// Once per state, before any script: opens the libraries the sandbox copies
// from into the hidden global table and takes out of them what must not be
// reachable even through a string's metatable. `log` must outlive the state.
void prepare_sandbox(lua_State* L, const LogSink* log);

// Pushes a new environment table for one script.
void push_sandbox_env(lua_State* L);

// After the script's chunk has run: assigning a new global is an error from
// then on, because hooks must keep no state of their own between calls.
void lock_sandbox_env(lua_State* L, int env);

}  // namespace rota::lua
