// Turning what a hook returned into the engine's types. Only the shape is
// checked here (a number where a number belongs, an integer where an index
// belongs); whether the values make a valid answer (ranges, duplicates,
// counts, reasons) is checked by the engine for every kind of policy alike
// (engine/answers.cpp).
//
// Each function reads the value at stack index `idx` and, when it cannot be
// converted, sets `why` (for "<file> returned an invalid answer: <why>")
// and returns false. They use raw accesses only: they run outside
// protected mode, where a metamethod of the script's could neither be
// budgeted nor caught.
#pragma once

#include <cstdint>
#include <lua.hpp>
#include <string>
#include <vector>

#include "engine/policy.h"

namespace rota::lua {

// An array of 1-based candidate indices, a single index, or nil for none;
// `picks` gets them 0-based.
bool decode_picks(lua_State* L, int idx, std::vector<std::int64_t>& picks, std::string& why);

// One 1-based set number, or nil for none (preempt); `pick` gets it
// 0-based. A table is no answer here, not even an array of one.
bool decode_set(lua_State* L, int idx, std::vector<std::int64_t>& pick, std::string& why);

// d[i] for i in 1..n: nil | true | "accept" | "hold" | {reject = "reason"}.
bool decode_admission(lua_State* L, int idx, std::size_t n, std::vector<Admission>& out,
                      std::string& why);

// An array of numbers (the engine sorts by them), one per job of a batch
// of n: no key but 1..n.
bool decode_keys(lua_State* L, int idx, std::size_t n, std::vector<double>& keys, std::string& why);

// o[i] for i in 1..n: nil (0) or an integer option.
bool decode_options(lua_State* L, int idx, std::size_t n, std::vector<std::int64_t>& out,
                    std::string& why);

// p[j] for j in 1..n: an array of 1-based cluster numbers, one per
// component of job j; `out` gets them 0-based, job after job.
bool decode_placement(lua_State* L, int idx, const JobBatch& jobs, std::vector<std::int64_t>& out,
                      std::string& why);

// a[i] for i in 1..n: nil (0) or a non-negative integer amount of
// processors (harvest, distribution; [Weissman03]). nil or false for the whole
// answer is no amounts at all: `out` is left empty.
bool decode_amounts(lua_State* L, int idx, std::size_t n, std::vector<std::int64_t>& out,
                    std::string& why);

}  // namespace rota::lua
