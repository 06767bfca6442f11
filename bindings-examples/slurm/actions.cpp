// actions.cpp: the engine's actions applied through libslurm (actions.h).
#include "actions.h"

#include <cstdio>
#include <ctime>
#include <vector>

#include "slurm_ops.h"

namespace rota_slurm {

static std::vector<int32_t> nodes_of(const rota_action& a) {
    std::vector<int32_t> nodes;
    for (int32_t r = 0; r < a.nruns; ++r)
        for (int32_t k = 0; k < a.runs[r].count; ++k) nodes.push_back(a.runs[r].first + k);
    return nodes;
}

static void suspend_job(uint32_t id, Mirror::Placement& p, Applied& a) {
    if (!p.released) return;  // never ran: nothing to stop
    Suspend s = suspend(id);
    if (s == Suspend::pending) {
        if (hold(id)) {
            p.released = false;  // its next RESUME releases it again
            ++a.suspended;
            return;
        }
        s = suspend(id);  // it started between the two calls
    }
    if (s == Suspend::done) ++a.suspended;
}

static void resume_job(uint32_t id, Mirror::Placement& p, Applied& a) {
    if (!p.released) {
        if (release(id, p.hosts, std::time(nullptr))) {
            p.released = true;
            ++a.resumed;
        }
    } else if (resume(id)) {
        ++a.resumed;
    }
}

// The job back to Slurm's queue, held there with its user's node list in
// place of the pin of its last start, as the engine has it waiting again.
static void hold_as_queued(uint32_t id, const View& v, const Mirror& m) {
    const std::vector<int32_t>* user = m.user_nodes(id);
    const std::string hosts = user ? node_list(v, *user) : std::string();
    hold(id, &hosts);
}

// SWAP_OUT: preempted. A job Slurm has not started yet is only held again.
static void swap_out_job(uint32_t id, const View& v, Mirror& m, Applied& a) {
    const Mirror::Placement* p = m.placement(id);
    if (p && p->released && requeue_held(id) != Suspend::failed) ++a.preempted;
    hold_as_queued(id, v, m);
    m.requeued(id);
}

void apply_actions(rota_engine* e, const View& v, Mirror& m, Journal& journal, bool gang,
                   Applied& a) {
    std::vector<uint32_t> failed;
    rota_action act = {};
    act.size = sizeof act;
    while (rota_next_action(e, &act) == ROTA_OK) {
        uint32_t id = (uint32_t)act.job;
        Mirror::Placement* p = m.placement(id);
        switch (act.type) {
            case ROTA_ACTION_START: {
                std::string hosts = node_list(v, nodes_of(act));
                if (!gang && !release(id, hosts, m.startable(id))) {
                    failed.push_back(id);
                    ++a.failed;
                    break;
                }
                m.started(id, hosts, !gang);
                ++a.started;
                journal.line("START %lld %u %s", (long long)act.time, id, hosts.c_str());
                break;
            }
            case ROTA_ACTION_SUSPEND:
                if (!p) break;
                suspend_job(id, *p, a);
                journal.line("SUSPEND %lld %u", (long long)act.time, id);
                break;
            case ROTA_ACTION_RESUME:
                if (!p) break;
                resume_job(id, *p, a);
                journal.line("RESUME %lld %u", (long long)act.time, id);
                break;
            case ROTA_ACTION_KILL:
                // Slurm enforces the same time limit itself and reports the
                // end; the engine has freed the nodes already.
                std::fprintf(stderr, "rota-slurm: job %u reached its walltime\n", id);
                break;
            case ROTA_ACTION_REQUEUE:
                // Slurm requeued it as pending and eligible: held at once,
                // or Slurm's own scheduler would start it.
                std::fprintf(stderr, "rota-slurm: job %u requeued: %s\n", id,
                             act.reason ? act.reason : "");
                hold_as_queued(id, v, m);
                m.requeued(id);
                journal.line("REQUEUE %lld %u", (long long)act.time, id);
                break;
            case ROTA_ACTION_SWAP_OUT:
                std::fprintf(stderr,
                             "rota-slurm: job %u preempted: requeued in Slurm, held until the "
                             "engine loads it again\n",
                             id);
                swap_out_job(id, v, m, a);
                journal.line("SWAP_OUT %lld %u %s", (long long)act.time, id,
                             node_list(v, nodes_of(act)).c_str());
                break;
            case ROTA_ACTION_SWAP_IN: {
                // Loaded again, anywhere: a START on the engine's nodes now.
                std::string hosts = node_list(v, nodes_of(act));
                if (!release(id, hosts, m.startable(id))) {
                    failed.push_back(id);
                    ++a.failed;
                    break;
                }
                m.started(id, hosts, true);
                ++a.resumed;
                journal.line("SWAP_IN %lld %u %s", (long long)act.time, id, hosts.c_str());
                break;
            }
            case ROTA_ACTION_REJECT:
                std::fprintf(stderr, "rota-slurm: job %u rejected, left held: %s\n", id,
                             act.reason ? act.reason : "");
                m.rejected(id, act.reason);
                break;
            default:
                // SWITCH and the matrix's bookkeeping (REPLICATE, MOVE, ...)
                // need nothing from Slurm: a job keeps its nodes in every row.
                break;
        }
    }
    for (uint32_t id : failed) m.start_failed(id);
}

}  // namespace rota_slurm
