// mirror.h: keeps a rota engine in step with Slurm. Each pass it compares a
// fresh snapshot of the controller (slurm_view.h) with what it told the
// engine so far and reports the difference through rota.h: new held jobs
// are submitted, jobs running without the engine (there at start-up, or
// started by someone else) are adopted, finished jobs are ended, withdrawn
// ones cancelled, and nodes leave and rejoin service.
#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "journal.h"
#include "rota.h"
#include "slurm_view.h"

namespace rota_slurm {

class Mirror {
  public:
    Mirror(rota_engine* e, rota_time default_walltime, Journal& journal)
        : e_(e), default_walltime_(default_walltime), journal_(journal) {
        rota_machine_info mi = {};
        mi.size = sizeof mi;
        rota_machine_info_get(e, &mi);
        npools_ = mi.npools;
    }

    // Reports to the engine what changed in Slurm since the last call. The
    // engine's clock must already be at the snapshot's time.
    void sync(const View& v);

    // The engine started a job on `hosts`: it is now the engine's until
    // Slurm ends it. `released`: Slurm was told to run it (always with one
    // row; under gang scheduling only at its first RESUME).
    void started(uint32_t id, const std::string& hosts, bool released);

    // Where a started job runs and whether Slurm holds it at the moment
    // (NULL for any other job). Gang scheduling releases and holds it.
    struct Placement {
        std::string hosts;
        bool released = false;
        uint32_t restarts = 0;  // Slurm's restart count when it was started
    };
    Placement* placement(uint32_t id);
    // Slurm refused a START: the engine forgets the job, and the next pass
    // submits it again (it is still held), with its original submit time.
    void start_failed(uint32_t id);
    // The engine rejected a job: it stays held in Slurm, its Comment says
    // why ("rota: rejected: ..."), and it is not offered again, by this
    // daemon or a restarted one.
    void rejected(uint32_t id, const char* reason);
    // The nodes the user named for job `id` (--nodelist), as first seen
    // held; NULL if it was never seen held. A REQUEUE holds the job with
    // these again in place of the pin of its last start.
    const std::vector<int32_t>* user_nodes(uint32_t id) const;
    // After a pass: each job waiting in the engine gets why as its
    // AdminComment ("rota: reserved to start at 14:05:10", "rota: waiting
    // for 1 dependency", "rota: not before 14:07:00 (--begin)"), set only
    // when it changed.
    void tell_reasons();
    // The engine sent a started job back to its queue (a node of it went
    // down): it waits there again, held in Slurm, until a new START.
    void requeued(uint32_t id);
    // When Slurm can start job `id`: now, or a moment after its last
    // requeue. (Slurm refuses a job credential made in the second its last
    // one was revoked, "Job credential revoked", which is why it delays a
    // requeued job itself; two seconds are enough.)
    std::time_t startable(uint32_t id) const;

    // Jobs the engine started that have ended, for the status line.
    uint64_t ended() const { return ended_; }

  private:
    static constexpr const char* kRejected = "rota: rejected: ";
    enum class Is { queued, started, rejected, foreign };
    struct Submission;
    void job_of(const Job& j, rota_time now, Submission& s) const;
    int32_t npools_ = 0;
    std::map<uint32_t, std::vector<int32_t>> user_include_;  // --nodelist, by job
    std::map<uint32_t, std::string> told_;                   // the reason last set, by job
    std::map<uint32_t, std::time_t> requeued_at_;
    void submit(const Job& j);
    void adopt(const Job& j);
    void forget(uint32_t id, Is was, bool finished, bool succeeded = false);
    void sync_nodes(const View& v);
    const View* view_ = nullptr;  // the snapshot being synced, for node names

    rota_engine* e_;
    rota_time default_walltime_;
    Journal& journal_;
    std::map<uint32_t, Is> jobs_;           // every job the engine was told about
    std::map<uint32_t, Placement> placed_;  // the started ones
    std::map<int32_t, Service> service_;    // nodes the engine was told are out of service
    uint64_t ended_ = 0;
};

// Logs a failed rota call with the engine's message; returns rc.
int report(rota_engine* e, int rc, const char* what, int64_t id);

}  // namespace rota_slurm
