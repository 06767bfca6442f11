// A job as the engine sees it. The actual runtime is deliberately absent:
// only the simulator (or the real machine) knows when a job ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nodes.h"
#include "types.h"

namespace rota {

enum class JobState : std::uint8_t {
    pending,  // submitted, not yet through admission
    held,     // admission said "hold": asked again at every pass
    queued,   // waiting in the queue (possibly holding a reservation)
    running,
    finished,  // ended by the embedder (rota_job_end)
    killed,    // reached its estimate (walltime) while running
    rejected,  // refused by admission or impossible; has a reason
    cancelled,
};

const char* job_state_name(JobState s);

// What the embedder submits.
struct JobSpec {
    JobId id = 0;
    Time estimate = 0;  // requested time (walltime), > 0
    std::int32_t procs = 0;
    std::int32_t user = -1;
    std::int32_t priority = 0;
    // Demand on each pooled resource (seed 002's K resources), in the order
    // the machine's pools are configured. Empty when the machine has none.
    std::vector<std::int64_t> pools;
};

struct Job {
    JobSpec spec;
    Time submit = kNoTime;          // engine time of rota_submit
    Time start = kNoTime;           // when it started running
    Time reserved_start = kNoTime;  // start of its reservation, if any
    std::uint64_t seq = 0;          // arrival order, the FCFS tie-breaker
    double order_key = 0.0;         // from the order hook; lower runs first
    std::int32_t jumps = 0;         // times jumped while at the head (FPFS)
    // The time the job holds its place for: its estimate, times the MPL
    // under gang scheduling (seed 000 §5.2).
    Time window = 0;
    std::int16_t home_row = -1;      // gang: the row it belongs to
    std::int16_t reserved_row = -1;  // gang: the row of its reservation
    std::uint32_t row_mask = 0;      // gang: every row it occupies
    JobState state = JobState::pending;
    std::vector<NodeRun> nodes;  // nodes held while running, as runs
    std::string reason;          // why rejected

    bool reserved() const { return reserved_start != kNoTime; }
    Time estimated_end() const { return start + window; }
};

}  // namespace rota
