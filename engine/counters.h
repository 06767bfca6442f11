// Counters an embedder can read at any time (ARCHITECTURE §1, queries).
#pragma once

#include <array>
#include <cstdint>

#include "vocabulary.h"

namespace rota {

struct HookStats {
    std::uint64_t calls = 0;
    std::uint64_t failures = 0;
    std::uint64_t nanoseconds = 0;
    std::uint64_t skipped = 0;  // passes its fallback was used without a call (quarantine)
    bool quarantined = false;   // now
};

struct Counters {
    std::uint64_t passes = 0;
    std::uint64_t submitted = 0;
    std::uint64_t started = 0;
    std::uint64_t backfilled = 0;  // started past a blocked job
    std::uint64_t finished = 0;
    std::uint64_t killed = 0;
    std::uint64_t rejected = 0;
    std::uint64_t cancelled = 0;
    std::uint64_t migrations = 0;      // jobs moved to other columns or rows by migration
    std::uint64_t migrated_tasks = 0;  // tasks those migrations moved (counted against Q)
    // Running jobs that outlived their window (estimate x rows) and got one
    // more cycle; the one case where a reservation may move later.
    std::uint64_t window_extensions = 0;
    std::uint64_t requeued = 0;  // running jobs sent back to the queue (a node went down)
    std::uint64_t adopted = 0;   // jobs taken over already running (rota_adopt)
    // [Weissman03] (the iScheduler): arrivals that asked for a harvest, those
    // that got it, and the adaptations of running jobs.
    std::uint64_t harvest_attempts = 0;
    std::uint64_t harvests = 0;
    std::uint64_t grows = 0;
    std::uint64_t shrinks = 0;
    // [Feitelson97] (job classes): jobs swapped out to make room (preemptions),
    // swapped back in, and reservations pass 1 made.
    std::uint64_t preemptions = 0;
    std::uint64_t swap_ins = 0;
    std::uint64_t class_reservations = 0;
    // Whole-queue calls of the order hook that succeeded, and those that
    // changed the queue's order (docs/design.md, "Order keys that change").
    std::uint64_t rekeys = 0;
    std::uint64_t resorts = 0;
    // Reservations a compression moved earlier (docs/design.md, "Reservations
    // persist and are compressed").
    std::uint64_t reservations_moved = 0;
    std::array<HookStats, kHookCount> hooks{};
};

}  // namespace rota
