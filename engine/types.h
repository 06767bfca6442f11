// Basic vocabulary of the engine: time, ids, resource demands.
#pragma once

#include <cstdint>
#include <limits>

namespace rota {

// Time is an integer count of microseconds so that schedules are exact and
// reproducible (ARCHITECTURE §3); the simulator converts trace seconds.
using Time = std::int64_t;
using JobId = std::int64_t;

inline constexpr Time kNoTime = std::numeric_limits<Time>::min();
inline constexpr Time kForever = std::numeric_limits<Time>::max();
inline constexpr Time kSecond = 1'000'000;
// The last time the engine accepts (clock, submit, hold until): a quarter
// of the range, so a window added to any accepted time cannot overflow.
inline constexpr Time kTimeAxisEnd = kForever / 4;

}  // namespace rota
