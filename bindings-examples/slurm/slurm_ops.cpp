// slurm_ops.cpp: job controls through libslurm (slurm_ops.h).
#include "slurm_ops.h"

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <cstdio>
#include <ctime>

namespace rota_slurm {

static bool failed(const char* what, uint32_t id) {
    std::fprintf(stderr, "rota-slurm: %s job %u: %s\n", what, id,
                 slurm_strerror(slurm_get_errno()));
    return false;
}

// Slurm's hold is priority 0, and a held job's priority cannot be set to
// a value: the only change accepted is INFINITE, which releases the hold
// (the priority plugin then computes one). Pinning and release go in one
// update so that Slurm's own scheduler never sees the job free to start
// elsewhere.
bool release(uint32_t id, const std::string& hosts, std::time_t begin) {
    job_desc_msg_t d;
    slurm_init_job_desc_msg(&d);
    d.job_id = id;
    d.req_nodes = const_cast<char*>(hosts.c_str());
    d.priority = INFINITE;
    // A requeued job is not eligible until a begin time Slurm set ahead;
    // the engine decided it starts now (or as soon as Slurm can: begin).
    d.begin_time = begin;
    return slurm_update_job(&d) == SLURM_SUCCESS || failed("releasing", id);
}

bool start_at(uint32_t id, std::time_t begin) {
    job_desc_msg_t d;
    slurm_init_job_desc_msg(&d);
    d.job_id = id;
    d.begin_time = begin;
    return slurm_update_job(&d) == SLURM_SUCCESS || failed("making eligible", id);
}

bool hold(uint32_t id, const std::string* req_nodes) {
    job_desc_msg_t d;
    slurm_init_job_desc_msg(&d);
    d.job_id = id;
    d.priority = 0;
    if (req_nodes) d.req_nodes = const_cast<char*>(req_nodes->c_str());
    return slurm_update_job(&d) == SLURM_SUCCESS || failed("holding", id);
}

bool annotate(uint32_t id, const std::string& comment) {
    job_desc_msg_t d;
    slurm_init_job_desc_msg(&d);
    d.job_id = id;
    d.admin_comment = const_cast<char*>(comment.c_str());
    if (slurm_update_job(&d) == SLURM_SUCCESS) return true;
    // Slurm checks the job's request again at any update and says it
    // cannot run here (why it was rejected); the comment is set all the same.
    const int e = slurm_get_errno();
    return e == ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE ||
           e == ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE || failed("annotating", id);
}

Suspend suspend(uint32_t id) {
    if (slurm_suspend(id) == SLURM_SUCCESS) return Suspend::done;
    // Release -> RUNNING takes about a second: a job released at the end
    // of a slice may still be pending when the slice ends.
    if (slurm_get_errno() == ESLURM_JOB_PENDING) return Suspend::pending;
    // Suspended already: an adopted job the engine tells its state.
    if (slurm_get_errno() == ESLURM_JOB_SUSPENDED) return Suspend::done;
    failed("suspending", id);
    return Suspend::failed;
}

bool resume(uint32_t id) {
    // Executing already (ESLURM_JOB_NOT_SUSPENDED): an adopted job the
    // engine tells its state.
    return slurm_resume(id) == SLURM_SUCCESS || slurm_get_errno() == ESLURM_JOB_NOT_SUSPENDED ||
           failed("resuming", id);
}

Suspend requeue_held(uint32_t id) {
    // Held in the same request: between a plain requeue and a hold,
    // Slurm's own scheduler could start the job again on any nodes.
    if (slurm_requeue(id, JOB_REQUEUE_HOLD) == SLURM_SUCCESS) return Suspend::done;
    if (slurm_get_errno() == ESLURM_JOB_PENDING) return Suspend::pending;
    failed("requeueing", id);
    return Suspend::failed;
}

}  // namespace rota_slurm
