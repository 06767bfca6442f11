// actions.h: carrying out the engine's decisions on the Slurm controller.
#pragma once

#include <cstdint>

#include "journal.h"
#include "mirror.h"
#include "rota.h"
#include "slurm_view.h"

namespace rota_slurm {

struct Applied {
    uint64_t started = 0, failed = 0, suspended = 0, resumed = 0, preempted = 0;
};

// Pops every pending action of `e` and applies it to Slurm, writing each
// to the journal.
//
// One row: a START pins the held job to the engine's nodes and releases
// it in one slurm_update_job.
//
// More rows (gang scheduling): a START only places the job; it stays held
// until its row is active, when the engine's RESUME releases it. Later
// SUSPENDs and RESUMEs call slurm_suspend and slurm_resume. Slurm shows a
// suspended job's nodes as idle and would let two jobs run on them: what
// keeps them apart is the order of the engine's actions (every SUSPEND of
// a pass before its RESUMEs), applied as they come. A SUSPEND that finds
// the job released but not started yet holds it again.
//
// Job classes (rota-slurm --qos-classes): a SWAP_OUT requeues the job in
// Slurm, held, with the node list its user gave (PreemptMode=REQUEUE: it
// starts over), and the SWAP_IN that loads it again later releases it,
// pinned to the nodes the engine gives then, as a START does.
//
// Failed starts are handed back to the mirror once every action is
// popped, since reporting them to the engine invalidates the actions'
// node lists.
void apply_actions(rota_engine* e, const View& v, Mirror& m, Journal& journal, bool gang,
                   Applied& a);

}  // namespace rota_slurm
