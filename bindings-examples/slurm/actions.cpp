// actions.cpp: the engine's actions applied through libslurm (actions.h).
#include "actions.h"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <cstdio>

namespace rota_slurm {

static std::vector<int32_t> nodes_of(const rota_action& a) {
    std::vector<int32_t> nodes;
    for (int32_t r = 0; r < a.nruns; ++r)
        for (int32_t k = 0; k < a.runs[r].count; ++k) nodes.push_back(a.runs[r].first + k);
    return nodes;
}

// Slurm's hold is priority 0, and a held job's priority cannot be set to
// a value: the only change accepted is INFINITE, which releases the hold
// (the priority plugin then computes one). Pinning and release go in one
// update so that Slurm's own scheduler never sees the job free to start
// elsewhere.
static bool release(uint32_t id, const std::string& hosts) {
    job_desc_msg_t d;
    slurm_init_job_desc_msg(&d);
    d.job_id = id;
    d.req_nodes = const_cast<char*>(hosts.c_str());
    d.priority = INFINITE;
    if (slurm_update_job(&d) == SLURM_SUCCESS) return true;
    std::fprintf(stderr, "rota-slurm: releasing job %u on %s: %s\n", id, hosts.c_str(),
                 slurm_strerror(slurm_get_errno()));
    return false;
}

void apply_actions(rota_engine* e, const View& v, Mirror& m, Journal& journal, Applied& a) {
    std::vector<uint32_t> failed;
    rota_action act = {};
    act.size = sizeof act;
    while (rota_next_action(e, &act) == ROTA_OK) {
        uint32_t id = (uint32_t)act.job;
        switch (act.type) {
            case ROTA_ACTION_START: {
                std::string hosts = node_list(v, nodes_of(act));
                if (!release(id, hosts)) {
                    failed.push_back(id);
                    ++a.failed;
                    break;
                }
                m.started(id);
                ++a.started;
                journal.line("START %lld %u %s", (long long)act.time, id, hosts.c_str());
                break;
            }
            case ROTA_ACTION_KILL:
                // Slurm enforces the same time limit itself and reports the
                // end; the engine has freed the nodes already.
                std::fprintf(stderr, "rota-slurm: job %u reached its walltime\n", id);
                break;
            case ROTA_ACTION_REJECT:
                std::fprintf(stderr, "rota-slurm: job %u rejected, left held: %s\n", id,
                             act.reason ? act.reason : "");
                m.rejected(id);
                break;
            default:
                // Only one row is supported (main.cpp): no other action comes.
                break;
        }
    }
    for (uint32_t id : failed) m.start_failed(id);
}

}  // namespace rota_slurm
