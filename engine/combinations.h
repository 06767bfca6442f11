// What a configuration combines (docs/config.md, "Combinations"): the
// schedule discipline it runs and the dimensions of its machine, and which
// pairs of them cannot go together, each with its reason from the papers'
// definitions. This is the one place a combination is accepted or refused;
// the engine's check of a configuration (Scheduler's `checked`), the C
// ABI's rota_machine_info and the table of docs/config.md derive from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"

namespace rota {

enum class Part : std::uint8_t {
    classes,       // [classes]: the class passes (class_passes.h)
    malleable,     // [malleable]: the iScheduler (ischeduler.h)
    rows,          // gang.mpl > 1: the matrix's rows
    pools,         // [[machine.pools]]
    clusters,      // [[machine.clusters]]
    partitions,    // [[machine.partitions]]
    buddy,         // gang.packing = "buddy"
    migration,     // gang.migration
    reservations,  // scheduler.reservation_depth other than 0
    backfill,      // scheduler.backfill: jobs pass a blocked one, by backfill_select
};
inline constexpr int kPartCount = 10;

// The configuration key (or table) that brings a part in, and its name.
const char* part_key(Part p);

// Why `a` and `b` cannot go together, or null if they can.
const char* refusal(Part a, Part b);

// The parts a configuration uses.
std::vector<Part> parts_of(const SchedulerConfig& cfg);

// Throws rota::Error(Errc::config) naming the first pair of the
// configuration's parts that cannot go together, and why.
void check_combination(const SchedulerConfig& cfg);

// Whether the configuration calls backfill_select: it backfills, under the
// matrix walk or the class passes; why the iScheduler never does.
bool calls_backfill_select(const SchedulerConfig& cfg);
extern const char* kNeverBackfills;

// The table of refused pairs as Markdown, for docs/config.md.
std::string combination_table();

}  // namespace rota
