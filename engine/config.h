// What the engine needs to know about the machine and the scheduling pass.
// Parsing it from TOML is the C ABI's job (capi/config.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rota {

struct PoolConfig {
    std::string name;
    std::int64_t capacity = 0;
};

// Gang scheduling on the Ousterhout matrix (seed 000 §4-5). Present
// (enabled) even with one row, so that GS-1 and BGS-1 run the gang phases.
struct GangConfig {
    bool enabled = false;
    std::int32_t mpl = 1;             // rows of the matrix
    std::int64_t slice = 0;           // time-slice length, microseconds
    bool backfill = false;            // BGS: backfilling in each row, with reservations
    bool migration = false;           // MGS / MBGS
    std::int64_t migration_cost = 0;  // C, microseconds (checkpoint C/2 + restart C/2)
    std::int32_t migration_q = -1;    // Q: most tasks migrated per slice; -1 unlimited
};

struct SchedulerConfig {
    std::int32_t procs = 0;         // nodes of the machine, one processor each
    std::vector<PoolConfig> pools;  // seed 002's pooled resources
    // false: FCFS, stop at the first job that does not fit.
    bool backfill = true;
    // Jobs that hold a reservation when they cannot start: 1 is EASY,
    // kUnlimited is conservative, 0 reserves nothing (FPFS) (Flux's
    // reservation-depth; seed 002 §2.1, seed 001 §3).
    std::int32_t reservation_depth = 1;
    static constexpr std::int32_t kUnlimited = -1;
    GangConfig gang;
};

}  // namespace rota
