#include "policy.h"

#include <algorithm>

#include "hooks.h"

namespace rota {

#define ROTA_X(hook, id, Batch, Context, Answer, fallback)                             \
    HookOutcome Policy::hook(const Batch& batch, const Context& ctx, Answer& answer) { \
        HookSpec<Hook::hook>::unset(batch, ctx, answer);                               \
        return {};                                                                     \
    }
ROTA_HOOKS(ROTA_X)
#undef ROTA_X

void lowest_cost_set(const PreemptBatch& sets, std::vector<std::int64_t>& pick) {
    pick.clear();
    if (sets.size() == 0) return;
    std::size_t best = 0;
    for (std::size_t k = 1; k < sets.size(); ++k)
        if (sets.cost[k] < sets.cost[best]) best = k;
    pick.push_back(static_cast<std::int64_t>(best));
}

void favor_queued(const MalleableBatch& jobs, const MalleableContext& ctx,
                  std::vector<std::int64_t>& give) {
    give.assign(jobs.size(), 0);
    std::int64_t avail = ctx.needed;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (!jobs.queued[i]) continue;
        if (jobs.min[i] > avail) break;  // FCFS: nothing passes the first that cannot start
        give[i] = std::min<std::int64_t>(avail, jobs.ideal[i]);
        avail -= give[i];
    }
    // Round robin over the running jobs that can still grow.
    for (bool grew = true; avail > 0 && grew;) {
        grew = false;
        for (std::size_t i = 0; i < jobs.size() && avail > 0; ++i) {
            if (jobs.queued[i] || jobs.procs[i] + give[i] >= jobs.ideal[i]) continue;
            ++give[i];
            --avail;
            grew = true;
        }
    }
}

void min_cost_options(const MigrationBatch& m, const MigrationContext& ctx,
                      std::vector<std::int64_t>& out) {
    out.resize(m.size());
    const std::int64_t budget = ctx.migration_budget;
    for (std::size_t i = 0; i < m.size(); ++i) {
        const bool two_first = m.cost2[i] < m.cost1[i];
        const std::int64_t first = two_first ? 2 : 1, second = two_first ? 1 : 2;
        const std::int64_t tasks_first = two_first ? m.tasks2[i] : m.tasks1[i];
        const std::int64_t tasks_second = two_first ? m.tasks1[i] : m.tasks2[i];
        if (budget < 0 || tasks_first <= budget)
            out[i] = first;
        else if (tasks_second <= budget)
            out[i] = second;
        else
            out[i] = 0;
    }
}

}  // namespace rota
