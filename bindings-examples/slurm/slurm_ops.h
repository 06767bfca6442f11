// slurm_ops.h: the job controls the daemon uses, each one libslurm call
// whose failure is logged with Slurm's message.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace rota_slurm {

// Pins a held job to `hosts` ("n1,n2") and releases it, in one update,
// eligible from `begin` (seconds since the epoch).
bool release(uint32_t id, const std::string& hosts, std::time_t begin);
// Makes a released, pending job eligible from `begin`.
bool start_at(uint32_t id, std::time_t begin);
// Holds a released job that has not started yet (priority 0). With
// `req_nodes`, its required nodes become those ("" for none): a job the
// engine sends back to its queue loses the pin of its last start.
bool hold(uint32_t id, const std::string* req_nodes = nullptr);
// Sets the job's AdminComment, which users see in `scontrol show job`
// and `sacct -o AdminComment`, and cannot change; their own Comment
// (--comment) stays theirs.
bool annotate(uint32_t id, const std::string& comment);

enum class Suspend { done, pending, failed };
// Stops a running job's processes (slurm_suspend). `pending`: the job was
// released but Slurm has not started it yet.
Suspend suspend(uint32_t id);
// Continues a suspended job (slurm_resume).
bool resume(uint32_t id);
// Sends a running job back to Slurm's queue held (slurm_requeue with
// JOB_REQUEUE_HOLD): its processes are killed and it starts over when it is
// released again. `pending`: released but not started yet, nothing to kill.
Suspend requeue_held(uint32_t id);

}  // namespace rota_slurm
