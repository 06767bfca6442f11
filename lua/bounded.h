// Library functions whose time a script could make unbounded while inside
// C, where the instruction budget's count hook never runs (lua/budget.h):
// pattern matching that backtracks, string.rep of an empty string and
// table.move over a huge range. Each is wrapped so that a call that could
// exceed a fixed amount of work fails with an error instead, in the
// script's own call (docs/lua-api.md, "Budgets").
#pragma once

#include <cstddef>
#include <string_view>

struct lua_State;

namespace rota::lua {

// The most matcher steps a pattern call may take in the worst case (a call
// at the bound ran 0.4 s on the 2-core test machine; 10^9 ran 3.7 s, which
// no deadline could cut short: docs/reliability.md), and the most elements
// table.move may touch.
inline constexpr double kPatternSteps = 1e8;
inline constexpr long long kMoveElements = 1LL << 26;
// table.sort without a Lua comparator: at most this many elements, and
// this many steps (a comparison of numbers, or 16 bytes of strings).
inline constexpr long long kSortElements = 1LL << 24;
inline constexpr double kSortSteps = 1e8;

// The worst-case number of steps of Lua's backtracking matcher for
// `pattern` on a subject of `n` bytes, tried from every position unless
// the pattern is anchored (`whole` false: string.match from one position
// and anchored patterns). Each repetition (`*`, `+`, `-`), balance (`%b`)
// or back reference may scan the rest of the subject; k of them choose k
// split points among n + k, so the bound is C(n + k, k) per start, times 2
// per optional item (`?`).
double pattern_steps(std::string_view pattern, std::size_t n);

// Replaces string.find, match, gmatch, gsub, rep, table.move and sort in the
// state's global libraries (before they are copied into script
// environments; strings' methods are the same functions).
void bound_library_calls(lua_State* L);

}  // namespace rota::lua
