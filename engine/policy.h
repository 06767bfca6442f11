// The interface between the engine and whatever makes policy decisions: the
// Lua runtime (lua/), C callbacks registered through the ABI, or the built-in
// defaults. The engine does the scans (which jobs fit, which reservations
// hold) and hands a hook one batch per phase; the hook only chooses.
// Whatever a hook returns is validated by the engine (ARCHITECTURE §5).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "job.h"
#include "types.h"

namespace rota {

enum class Hook : std::uint8_t { admission, order, backfill_select, migration_option };
inline constexpr int kHookCount = 4;
const char* hook_name(Hook h);

// A batch of jobs as parallel arrays, so that building it and handing it to
// a script costs a few stores per job (ARCHITECTURE §5 measured the costs).
struct JobBatch {
    std::vector<JobId> id;
    std::vector<std::int32_t> procs;
    std::vector<Time> estimate;
    std::vector<Time> submit;
    std::vector<std::int32_t> user;
    std::vector<std::int32_t> priority;

    std::size_t size() const { return id.size(); }
    void clear();
    void push(const Job& j);
};

// Candidate migrations of one gang phase (seed 000 §5.4): job `id` would
// leave `from_row` for `to_row`. Option 1 moves the jobs on its columns in
// the target row elsewhere and keeps its columns; option 2 moves the job to
// free columns of the target row. Costs are eq. (4) and (5) in
// processor-seconds; tasks are what each option migrates (against Q).
struct MigrationBatch {
    std::vector<JobId> id;
    std::vector<std::int32_t> procs;
    std::vector<std::int32_t> from_row;
    std::vector<std::int32_t> to_row;
    std::vector<double> cost1;
    std::vector<double> cost2;
    std::vector<std::int32_t> tasks1;
    std::vector<std::int32_t> tasks2;

    std::size_t size() const { return id.size(); }
    void clear();
};

// The paper's rule (§5.4): for each candidate the option with the least
// estimated cost, option 1 on a tie. The migration_option default.
void min_cost_options(const MigrationBatch& m, std::vector<std::uint8_t>& out);

// What every hook call sees about the machine at this pass.
struct PassContext {
    Time now = 0;
    std::int32_t machine_procs = 0;
    std::int32_t free_procs = 0;  // idle processors now
    std::int32_t queue_length = 0;
    // The first job in queue order that could not start ("head"), if any.
    JobId head_id = -1;
    std::int32_t head_procs = 0;
    std::int32_t head_jumps = 0;   // times it was jumped at the head (FPFS)
    Time shadow_time = kNoTime;    // start of the head's reservation
    std::int32_t extra_procs = 0;  // free at the shadow time beyond the head's need
    // Gang migration (seed 000 §5.4): tasks that may still migrate in this
    // slice (-1: no limit) and the cost C of migrating one job, seconds.
    std::int64_t migration_budget = -1;
    double migration_cost = 0;
};

enum class AdmissionKind : std::uint8_t { accept, hold, reject };
struct Admission {
    AdmissionKind kind = AdmissionKind::accept;
    std::string reason;  // required for reject
};

// `ok == false` means the policy broke (raised an error, ran over its
// budget, answered garbage); the engine counts and logs it and applies the
// hook's documented fallback. A policy saying "no" is ok == true.
struct HookOutcome {
    bool ok = true;
    std::string error;
    static HookOutcome failure(std::string e) { return {false, std::move(e)}; }
};

using ParamValue = std::variant<bool, std::int64_t, double, std::string>;
using Params = std::vector<std::pair<std::string, ParamValue>>;

class Policy {
  public:
    virtual ~Policy() = default;
    virtual bool provides(Hook h) const = 0;

    // One decision per job of `jobs` (new arrivals and held jobs); the
    // engine requires out.size() == jobs.size(). Fallback: accept.
    virtual HookOutcome admission(const JobBatch& jobs, const PassContext& ctx,
                                  std::vector<Admission>& out);
    // One sort key per job; lower keys run first, ties in arrival order.
    // Keys are fixed when a job enters the queue. Fallback: FCFS.
    virtual HookOutcome order(const JobBatch& jobs, const PassContext& ctx,
                              std::vector<double>& keys);
    // `cands` fit now without delaying any reservation. Answer the 0-based
    // indices to start, in order; the engine starts each that still fits.
    // Fallback: no backfill this pass.
    virtual HookOutcome backfill_select(const JobBatch& cands, const PassContext& ctx,
                                        std::vector<std::uint32_t>& picks);
    // For each candidate migration: 0 (do not migrate), 1 or 2 (the
    // option); out.size() == m.size(). Fallback: no migration this phase.
    virtual HookOutcome migration_option(const MigrationBatch& m, const PassContext& ctx,
                                         std::vector<std::uint8_t>& out);
};

}  // namespace rota
