// Turning what a hook returned into the engine's types. Whatever a script
// returns is checked here (ARCHITECTURE §5: an invalid answer is an error of
// that hook, never a corrupt state).
//
// Each function reads the value at stack index `idx` and, when it is
// malformed, sets `why` (for "<file> returned <why>") and returns false.
// They use raw accesses only: they run outside protected mode, where a
// metamethod of the script's could neither be budgeted nor caught.
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <string>
#include <vector>

#include "engine/policy.h"

namespace rota::lua {

// An array of 1-based candidate indices, a single index, or nil / {} for
// none. `seen` is scratch space for the duplicate check, kept by the caller
// so that it is not allocated per call.
bool decode_picks(lua_State* L, int idx, std::size_t n, std::vector<std::uint32_t>& picks,
                  std::vector<std::uint8_t>& seen, std::string& why);

// d[i] = nil | true | "accept" | "hold" | {reject = "reason"}.
bool decode_admission(lua_State* L, int idx, std::size_t n, std::vector<Admission>& out,
                      std::string& why);

// An array of exactly n finite numbers (the engine sorts by them).
bool decode_keys(lua_State* L, int idx, std::size_t n, std::vector<double>& keys, std::string& why);

}  // namespace rota::lua
