// The disciplines' defaults, and the one that runs a configuration.
#include "discipline.h"

#include <algorithm>
#include <memory>

#include "class_passes.h"
#include "ischeduler.h"
#include "snapshot_io.h"
#include "walk.h"

namespace rota {

// Without a model of its speed, a job's progress is the share of its
// window that has passed.
double Discipline::progress(const Job& j) const {
    if (j.state != JobState::running) return 0.0;
    double left = j.work_left;
    if (j.window > 0)
        left = 1.0 - static_cast<double>(now() - j.start) / static_cast<double>(j.window);
    return std::clamp(1.0 - left, 0.0, 1.0);
}

// Read by policies; the walltime stays the estimate.
void Discipline::progress_reported(Slot s, double done) {
    job(s).work_left = 1.0 - done;
}

void Discipline::check_job(const Job& j, const std::string& who) const {
    const JobSpec& sp = j.spec;
    // Under gang scheduling a window grows by a cycle each time the job
    // overruns it (extend_overrun_windows); otherwise it is the estimate.
    if (time_sharing() ? j.window < sp.estimate * cfg().rows : j.window != sp.estimate)
        snap::bad(who + ": window " + std::to_string(j.window) + " does not fit estimate " +
                  std::to_string(sp.estimate) + " on " + std::to_string(cfg().rows) + " rows");
    if (j.state == JobState::suspended) snap::bad(who + ": suspended without [classes]");
    if (j.state != JobState::running) return;
    // Under buddy packing a job the engine placed holds its block.
    const bool block = machine().buddy() && j.alloc.runs.size() == 1 &&
                       NodePool::is_buddy_block(j.alloc.runs[0], sp.procs, cfg().procs);
    if (j.alloc.procs != sp.procs && !block)
        snap::bad(who + ": running on " + std::to_string(j.alloc.procs) + " nodes for " +
                  std::to_string(sp.procs));
}

void Discipline::set_head(BackfillContext& c, const Job* h) {
    c.head_id = -1;
    c.head_row = -1;
    c.head_user = -1;
    if (!h) return;
    c.head_id = h->spec.id;
    c.head_procs = h->spec.procs;
    c.head_jumps = h->jumps;
    c.head_user = h->spec.user;
#define ROTA_X(field, type, value, doc) c.head_##field = h->field;
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
}

std::unique_ptr<Discipline> make_discipline(Scheduler& core) {
    const SchedulerConfig& c = core.config();
    if (c.malleable.enabled) return std::make_unique<IScheduler>(core);
    if (c.classes.enabled) return std::make_unique<ClassPasses>(core);
    return std::make_unique<MatrixWalk>(core);
}

}  // namespace rota
