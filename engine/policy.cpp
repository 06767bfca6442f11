#include "policy.h"

namespace rota {

const char* hook_name(Hook h) {
    switch (h) {
        case Hook::admission:
            return "admission";
        case Hook::order:
            return "order";
        case Hook::backfill_select:
            return "backfill_select";
        case Hook::migration_option:
            return "migration_option";
    }
    return "?";
}

const char* job_state_name(JobState s) {
    switch (s) {
        case JobState::pending:
            return "pending";
        case JobState::held:
            return "held";
        case JobState::queued:
            return "queued";
        case JobState::running:
            return "running";
        case JobState::finished:
            return "finished";
        case JobState::killed:
            return "killed";
        case JobState::rejected:
            return "rejected";
        case JobState::cancelled:
            return "cancelled";
    }
    return "?";
}

void JobBatch::clear() {
    id.clear();
    procs.clear();
    estimate.clear();
    submit.clear();
    user.clear();
    priority.clear();
}

void JobBatch::push(const Job& j) {
    id.push_back(j.spec.id);
    procs.push_back(j.spec.procs);
    estimate.push_back(j.spec.estimate);
    submit.push_back(j.submit);
    user.push_back(j.spec.user);
    priority.push_back(j.spec.priority);
}

// A Policy that does not provide a hook is never asked for it; these bodies
// only make the interface usable for partial implementations.
HookOutcome Policy::admission(const JobBatch& jobs, const PassContext&,
                              std::vector<Admission>& out) {
    out.assign(jobs.size(), Admission{});
    return {};
}

HookOutcome Policy::order(const JobBatch& jobs, const PassContext&, std::vector<double>& keys) {
    keys.assign(jobs.size(), 0.0);
    return {};
}

HookOutcome Policy::backfill_select(const JobBatch& cands, const PassContext&,
                                    std::vector<std::uint32_t>& picks) {
    picks.clear();
    for (std::uint32_t i = 0; i < cands.size(); ++i) picks.push_back(i);
    return {};
}

void MigrationBatch::clear() {
    id.clear();
    procs.clear();
    from_row.clear();
    to_row.clear();
    cost1.clear();
    cost2.clear();
    tasks1.clear();
    tasks2.clear();
}

void min_cost_options(const MigrationBatch& m, std::vector<std::uint8_t>& out) {
    out.resize(m.size());
    for (std::size_t i = 0; i < m.size(); ++i) out[i] = m.cost1[i] <= m.cost2[i] ? 1 : 2;
}

HookOutcome Policy::migration_option(const MigrationBatch& m, const PassContext&,
                                     std::vector<std::uint8_t>& out) {
    min_cost_options(m, out);
    return {};
}

}  // namespace rota
