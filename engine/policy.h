// The interface between the engine and whatever makes policy decisions: the
// Lua runtime (lua/), C callbacks registered through the ABI, or the built-in
// defaults. The engine does the scans (which jobs fit, which reservations
// hold) and hands a hook one batch per phase; the hook only chooses. What a
// hook answers is checked in one place, engine/answers.cpp, whoever answered
// (ARCHITECTURE §5).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "vocabulary.h"

namespace rota {

enum class AdmissionKind : std::uint8_t { accept, hold, reject };
struct Admission {
    AdmissionKind kind = AdmissionKind::accept;
    std::string reason;  // required for reject
    // hold only: the engine time by which the policy wants to be asked
    // again (a shift change, say); the engine then wakes up for it. Held
    // jobs are asked again at every pass besides.
    Time until = kForever;
};

// `ok == false` means the policy broke (raised an error, ran over its
// budget, answered something that is not an answer); the engine counts and
// logs it and applies the hook's fallback. A policy saying "no" is ok.
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
    // backfill_select only: true when the policy decides on candidates in
    // queue order without looking at later ones (first fit, FPFS), so the
    // engine may hand them over a chunk at a time and stop as soon as
    // nothing more can start (docs/design.md, "Streaming candidates").
    virtual bool streams(Hook) const { return false; }
    // order only: true when the keys change with time (an age, a fair
    // share), so the engine re-keys the whole queue at an interval
    // (docs/design.md, "Order keys that change").
    virtual bool ages(Hook) const { return false; }
    // Where the hook's decisions come from, for messages (a script's path).
    virtual std::string source(Hook) const { return "the policy"; }
    // Where the policy's indices count from, for messages: 0 in C and
    // C++, 1 in Lua (which the Lua runtime converts before the engine
    // sees them).
    virtual std::int64_t first_index() const { return 0; }
    // The work of the last call, counted against the pass budget
    // (policy.pass_budget): VM instructions for a Lua script, 0 for a
    // policy that does not count.
    virtual std::int64_t last_work() const { return 0; }

    // One decision per job of `jobs` (new arrivals and held jobs).
    virtual HookOutcome admission(const JobBatch& jobs, const CommonContext& ctx,
                                  std::vector<Admission>& out);
    // One sort key per job; lower keys run first, ties in arrival order.
    // Called with the jobs entering the queue, and with the whole queue to
    // re-key it (after a reload, and at an interval when the keys age).
    virtual HookOutcome order(const JobBatch& jobs, const CommonContext& ctx,
                              std::vector<double>& keys);
    // `cands` fit now without delaying any reservation. Answer the 0-based
    // indices to start, in order; the engine starts each that still fits.
    virtual HookOutcome backfill_select(const JobBatch& cands, const BackfillContext& ctx,
                                        std::vector<std::int64_t>& picks);
    // For each candidate move: 0 (do not migrate), 1 or 2 (the option).
    virtual HookOutcome migration_option(const MigrationBatch& m, const MigrationContext& ctx,
                                         std::vector<std::int64_t>& options);
    // [Ngubiri07] §3: for the jobs starting now, in start order, a cluster
    // (0-based) for every component, job after job (jobs.components(j)
    // entries each). The engine checks that each job's clusters are
    // distinct and have room, and falls back to Worst Fit otherwise.
    virtual HookOutcome placement(const JobBatch& jobs, const PlacementContext& ctx,
                                  std::vector<std::int64_t>& clusters);
    // [Weissman03] §2.2. `victims` are the running jobs that may give up
    // processors; ctx.needed of them must be taken for the arriving job
    // ctx.job_id to reach its min. Answer how many to take from each
    // victim (one entry per victim, summing to ctx.needed, none taking a
    // job below its min), or nothing (an empty answer): cannot harvest.
    virtual HookOutcome harvest(const MalleableBatch& victims, const MalleableContext& ctx,
                                std::vector<std::int64_t>& take);
    // Who gets the ctx.needed processors a termination freed: one amount
    // per job of `jobs` (running jobs grow by it, up to their ideal; a
    // queued job starts on it, between its min and ideal, or gets 0); the
    // sum at most ctx.needed.
    virtual HookOutcome distribution(const MalleableBatch& jobs, const MalleableContext& ctx,
                                     std::vector<std::int64_t>& give);
    // [Feitelson97] §4.3, pass 1: job ctx.job_id waited past its class's
    // maximum wait and needs processors others hold. `sets` are the
    // candidate processor sets; answer the 0-based index of the one to
    // reserve for it (one entry), or nothing: it gets no reservation this
    // pass and the next job past its wait may take it.
    virtual HookOutcome preempt(const PreemptBatch& sets, const PreemptContext& ctx,
                                std::vector<std::int64_t>& pick);
};

// The fallbacks of harvest and distribution (vocabulary.h): never harvest;
// favor queued jobs, FCFS, each at min(free, ideal) while the next one's
// min fits, then grow running jobs one processor at a time, round robin.
void favor_queued(const MalleableBatch& jobs, const MalleableContext& ctx,
                  std::vector<std::int64_t>& give);

// The fallback of preempt, [Feitelson97] §4.3's rule: the set of lowest cost,
// the first listed on a tie; none if there is no set.
// policies/preempt/lowest_cost.lua is the same rule in Lua.
void lowest_cost_set(const PreemptBatch& sets, std::vector<std::int64_t>& pick);

// The paper's rule ([Zhang00] §5.4), what the engine applies when no
// migration_option policy is configured: for each candidate the option of
// least cost (eq. 4, 5; option 1 on a tie), the other one if the cheaper
// migrates more tasks than the budget Q has left, none if neither fits.
// policies/migration/min_cost.lua is the same rule in Lua.
void min_cost_options(const MigrationBatch& m, const MigrationContext& ctx,
                      std::vector<std::int64_t>& out);

}  // namespace rota
