// Actions the engine asks the embedder to carry out (ARCHITECTURE §1).
#pragma once

#include <cstdint>

#include "types.h"

namespace rota {

enum class ActionType : std::uint8_t {
    start = 1,
    kill = 2,
    reject = 3,
    replicate = 4,    // gang: the job also runs in `row`, same columns
    unreplicate = 5,  // gang: the job leaves `row` (not its home row)
    move = 6,         // gang: the job's home row is now `row`, same columns
    switch_row = 7,   // gang: `row` is the active row from `time` on
    suspend = 8,      // gang: stop executing the job (context switch out)
    resume = 9,       // gang: execute the job (context switch in)
    migrate = 10,     // gang: the job holds new columns (runs) in `row`; idle for `delay`
    requeue = 11,     // the job was stopped (a node went down) and waits again
    grow = 12,        // [Weissman03]: the job also holds `runs`; idle for `delay`
    shrink = 13,      // [Weissman03]: the job gives up `runs`; idle for `delay`
    swap_out = 14,    // [Feitelson97]: the job's state goes to disk, freeing `runs` after `delay`
    swap_in = 15,     // [Feitelson97]: the job's state is loaded onto `runs`; idle for `delay`
};

struct Action {
    ActionType type;
    JobId job;
    Time time;                     // when it takes effect
    std::int32_t row = 0;          // matrix row (0 under space sharing)
    std::uint32_t run_offset = 0;  // into the engine's run arena
    std::uint32_t run_count = 0;
    std::int32_t nodes = 0;     // nodes in those runs
    std::int32_t reason = -1;   // into the engine's reason arena
    std::int8_t option = 0;     // migrate: 1 or 2 ([Zhang00] §5.4)
    Time delay = 0;             // migrate, grow, shrink: time the job cannot make progress
    std::int32_t from_row = 0;  // migrate: the row it held before
};

}  // namespace rota
