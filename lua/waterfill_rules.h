// The arithmetic of [Weissman03]'s harvest and distribution policies (Weissman
// et al., "Integrated Scheduling", §2.2) over a malleable batch: how many
// processors each job gives up (harvest) or receives (distribution) under
// even, fair, long, short and low-impact harvesting and their inverses.
// Which rule applies, and whether queued jobs are admitted before or after
// running ones grow, is the calling script's choice (lua/waterfill.h).
//
// Every rule works on a Plan's amounts as they stand, so rules combine; the
// operations are those of the Lua loops the shipped scripts had, in the
// same order, so a shipped script's answers did not change.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/vocabulary.h"

namespace rota::lua {

struct Plan {
    const MalleableBatch* batch = nullptr;
    std::vector<std::int64_t> amount;  // per job: taken (harvest) or given (distribution)
    std::int64_t left = 0;             // processors still to take or to give
    // Scratch, kept so that a call allocates nothing once it has grown.
    std::vector<std::size_t> order, heap;
    std::vector<std::int64_t> caps, sorted;
    std::vector<std::int64_t> base, ideal, floor;  // the bulk steps' movable jobs
    std::vector<double> key;

    void reset(const MalleableBatch& b, std::int64_t needed);
};

// Harvest: the victims a rule takes from, in the order it visits them.
enum class Candidates {
    all,        // even: every victim, in batch order
    fair,       // fair: those below the average harvests suffered (all if none is)
    longest,    // long: age above T (T < 0: at least the average age), longest first
    most_left,  // short: time_left above T (T < 0: at least the average), most first
};
void take_in_turn(Plan& p, Candidates c, double T = -1);
// low_impact: each processor from the victim keeping the largest share of
// its ideal after giving it up, ties to the earlier in the batch.
void take_by_share(Plan& p);

// Distribution. Queued jobs FCFS, each on min(left, ideal) while the next
// one's min fits; queued jobs already given some are passed over.
void admit(Plan& p);
// One processor at a time to each running job below its ideal, in batch
// order (the inverse of even_harvest).
void give_in_turn(Plan& p);
// Each processor to the running job holding the smallest share of its
// ideal, ties to the first in the batch (the inverse of low_impact).
void give_by_share(Plan& p);
// Each processor to the running job harvested most, then given least, then
// first in the batch (the inverse of fair_harvest).
void give_most_harvested(Plan& p);

}  // namespace rota::lua
