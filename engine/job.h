// A job as the engine sees it. The actual runtime is deliberately absent:
// only the simulator (or the real machine) knows when a job ends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "names.h"
#include "nodes.h"
#include "types.h"
#include "vocabulary.h"

namespace rota {

enum class JobState : std::uint8_t {
    pending,  // submitted, not yet through admission
    held,     // admission said "hold": asked again at every pass
    waiting,  // its dependencies are not met yet
    queued,   // waiting in the queue (possibly holding a reservation)
    running,
    suspended,  // [Feitelson97] §4.5: stopped by its user (state on disk), until resumed
    finished,   // ended by the embedder (rota_job_end)
    killed,     // reached its estimate (walltime) while running
    rejected,   // refused by admission or impossible; has a reason
    cancelled,
};

const char* job_state_name(JobState s);

// A job this one waits for (Slurm's --dependency): after it ends
// (afterany), or after it ends successfully (afterok, reported by
// rota_job_end), then `delay` more (a think time, SWF field 18).
enum class DependencyKind : std::uint8_t { after_any, after_ok };
struct Dependency {
    JobId job = 0;
    DependencyKind kind = DependencyKind::after_any;
    Time delay = 0;
};

// What the embedder submits.
struct JobSpec {
    JobId id = 0;
    Time estimate = 0;  // requested time (walltime), > 0
    std::int32_t procs = 0;
    std::int32_t user = -1;
    // When it was submitted, if before the engine's now (0: now).
    Time submitted = 0;
    std::int32_t priority = 0;
    // [Weissman03]: a malleable job runs on anything from min_procs to procs
    // (its ideal); 0 means procs (a rigid job). Only the iScheduler phase
    // ([malleable]) uses it; every other mode runs the job on procs.
    std::int32_t min_procs = 0;
    // Data an adaptation redistributes (§4.1), bytes; see MalleableConfig.
    std::int64_t adapt_bytes = 0;
    // [Feitelson97]: its job class ([classes] order); -1: the default class.
    std::int32_t job_class = -1;
    // Demand on each pooled resource ([Leinberger99]'s K resources), in the order
    // the machine's pools are configured. Empty when the machine has none.
    std::vector<std::int64_t> pools;
    // [Ngubiri07]'s components on a multi-cluster machine: widths summing to
    // procs, each to run in a cluster of its own. The engine makes it {procs}
    // on such a machine when none are given; empty otherwise.
    std::vector<std::int32_t> components;
    // What production tells a scheduler besides the user ("" for none):
    // the account charged, the partition asked for, the quality of
    // service. Kept as given; the engine interns them into Job's names.
    // `partition` may name several partitions, separated by commas (as
    // Slurm's --partition): the job runs in one of them. One string per
    // row of ROTA_JOB_COLUMNS_NAMES (vocabulary.h).
#define ROTA_X(field, type, value, doc) std::string field;
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    // Constraints a batch system hands its scheduler (docs/design.md,
    // "Constraints"): the earliest engine time the job may start (0: none);
    // nodes its allocation must include and nodes it must avoid (Slurm's
    // --nodelist and --exclude); and the jobs it waits for.
    Time begin = 0;
    std::vector<NodeRun> include, exclude;
    std::vector<Dependency> after;
};

// Where a running job is on the machine (docs/design.md, "The machine
// model"): its columns, as node runs, in its home row and in every row it
// is replicated into ([Zhang00] §4: a job keeps its columns in every row).
// With one row (space sharing) the home row is 0 and the mask 1.
// Under buddy packing (gang.packing = "buddy") the columns held are the
// job's whole buddy block, more than it runs on: executing_runs below.
struct Allocation {
    std::vector<NodeRun> runs;
    std::int32_t procs = 0;  // columns held, the sum of the runs
    std::int16_t home_row = -1;
    std::uint32_t row_mask = 0;
};

struct Job {
    // The fields a pass reads for every job it looks at come first, with
    // the spec's scalars right after them: two cache lines, not four (the
    // malleable phase walks every running and queued job at each end).
    JobState state = JobState::pending;
    bool waited = false;        // [Weissman03], below
    std::int32_t harvests = 0;  // [Weissman03], below
    Time start = kNoTime;       // when it started running
    // The time the job holds its place for: its estimate, times the MPL
    // under gang scheduling ([Zhang00] §5.2: at least one slice in MPL).
    Time window = 0;
    std::uint64_t seq = 0;  // arrival order, the FCFS tie-breaker
    Allocation alloc;       // while running
    JobSpec spec;
    Time submit = kNoTime;           // engine time of rota_submit
    Time reserved_start = kNoTime;   // start of its reservation, if any
    double order_key = 0.0;          // from the order hook; lower runs first
    std::int32_t jumps = 0;          // times jumped while at the head (FPFS)
    std::int16_t reserved_row = -1;  // the row of its reservation
    // The gain epoch (Scheduler::gained) at which its reservation was last
    // found at its earliest slot: only rows that gained since can offer an
    // earlier one.
    std::uint64_t settled = 0;
    // On a multi-cluster machine, the cluster of each component: where it
    // runs, or where its reservation holds it. Empty otherwise.
    std::vector<std::int16_t> clusters;
    std::string reason;  // why rejected
    // [Weissman03], while running under the iScheduler: the share of its work
    // still to do as of `resized` (its last start, grow or shrink), the end
    // of the suspension of its last adaptation, and how often it was
    // harvested. `waited`: it went through Figure 3(a)'s arrival step and
    // was queued, so only a distribution starts it.
    double work_left = 1.0;
    Time resized = kNoTime;
    Time paused_until = kNoTime;
    // [Feitelson97], under [classes]: its class; execution time of its earlier
    // loads; when the current load computes from (after swapping in, or
    // after its processors' former jobs swapped out); when its
    // do-not-disturb time ends; since when it waits to be loaded; when
    // its state is on disk (swapped out or suspended) and until when it is
    // still being written there.
    std::int16_t cls = 0;
    Time used = 0;
    Time exec_from = kNoTime;
    Time dnd_end = kNoTime;
    Time wait_from = kNoTime;
    Time swapping_until = kNoTime;
    std::int32_t preemptions = 0;
    bool swapped = false;
    bool counted_large = false;  // loaded as a large job (§4.2's large limit)
    // The spec's names (account, partition, qos) interned
    // (Scheduler::names()).
#define ROTA_X(field, type, value, doc) Name field;
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    // On a machine that keeps which nodes are free (node_space.h): the
    // partitions the job may run in, by index (none: any node), its
    // exclusions as a bitset, and the nodes its reservation holds.
    std::vector<std::int16_t> parts;
    std::shared_ptr<const std::vector<std::uint64_t>> excluded;
    std::vector<NodeRun> reserved_runs;
    // Dependencies not met yet (JobState::waiting); when they all are, the
    // time it may enter admission.
    std::int32_t unmet = 0;
    Time eligible = kNoTime;

    Job() = default;
    // A job made from its checked spec, in place: no default spec to move over.
    explicit Job(JobSpec&& s) : spec(std::move(s)) {}

    bool reserved() const {
        return reserved_start != kNoTime;
    }
    std::int32_t min_procs() const {
        return spec.min_procs > 0 ? spec.min_procs : spec.procs;
    }
    Time estimated_end() const {
        return start + window;
    }
};

// The nodes a running job executes on, as runs appended to `out`: the
// first spec.procs of the columns it holds. Only a job placed by buddy
// packing holds more (its block); under the iScheduler it may hold fewer.
inline void executing_runs(const Job& j, std::vector<NodeRun>& out) {
    NodePool::first(j.alloc.runs, j.spec.procs, out);
}
inline std::int32_t executing_nodes(const Job& j) {
    return j.alloc.procs < j.spec.procs ? j.alloc.procs : j.spec.procs;
}

}  // namespace rota
