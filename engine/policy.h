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

    // One method per hook of ROTA_HOOKS (vocabulary.h says what each
    // answers). The bodies here are what the engine does without a policy
    // (HookSpec<H>::unset, hooks.h); a Policy that does not provide a hook
    // is never asked for it.
#define ROTA_X(hook, id, Batch, Context, Answer, fallback) \
    virtual HookOutcome hook(const Batch& batch, const Context& ctx, Answer& answer);
    ROTA_HOOKS(ROTA_X)
#undef ROTA_X
};

// What hook H is handed and answers, and the Policy method that answers.
template <Hook H>
struct HookSignature;
#define ROTA_X(hook, id, B, C, A, fallback)           \
    template <>                                       \
    struct HookSignature<Hook::hook> {                \
        static constexpr Hook kHook = Hook::hook;     \
        using Batch = B;                              \
        using Context = C;                            \
        using Answer = A;                             \
        static constexpr auto method = &Policy::hook; \
    };
ROTA_HOOKS(ROTA_X)
#undef ROTA_X

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
