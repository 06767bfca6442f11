// actions.h: carrying out the engine's decisions on the Slurm controller.
#pragma once

#include <cstdint>

#include "journal.h"
#include "mirror.h"
#include "rota.h"
#include "slurm_view.h"

namespace rota_slurm {

struct Applied {
    uint64_t started = 0, failed = 0;
};

// Pops every pending action of `e` and applies it to Slurm. A START pins
// the held job to the engine's nodes and releases it in one
// slurm_update_job, and goes to the journal.
// Failed starts are handed back to the mirror once every action is
// popped, since reporting them to the engine invalidates the actions'
// node lists.
void apply_actions(rota_engine* e, const View& v, Mirror& m, Journal& journal, Applied& a);

}  // namespace rota_slurm
