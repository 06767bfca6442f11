// [Feitelson97] §4.3, pass 1: which candidate processor set a job past its
// class's maximum wait gets reserved. The engine lists the sets
// (candidate_sets, classes.cpp) and prices them; the preempt hook chooses,
// and without a policy (or when a call fails) the lowest cost wins, as in
// the paper.
#include <algorithm>

#include "answers.h"
#include "class_passes.h"

namespace rota {

PreemptContext ClassPasses::preempt_context(const Job& j) const {
    PreemptContext c;
    static_cast<CommonContext&>(c) = common_context();
    c.job_id = j.spec.id;
    c.job_procs = j.spec.procs;
    c.job_class = j.cls + 1;
    c.job_priority = job_class(j).priority;
    c.waited = now() - j.wait_from;
    c.job_user = j.spec.user;
#define ROTA_X(field, type, value, doc) c.job_##field = j.field;
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    for (const Victims& set : sets_)
        for (Slot s : set.jobs) {
            const Job& v = job(s);
            c.victim_id.push_back(v.spec.id);
            c.victim_procs.push_back(v.alloc.procs);
            c.victim_class.push_back(v.cls + 1);
            c.victim_priority.push_back(job_class(v).priority);
            c.victim_user.push_back(v.spec.user);
#define ROTA_X(field, type, value, doc) c.victim_##field.push_back(v.field);
            ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
            c.victim_dnd_left.push_back(std::max<Time>(0, v.dnd_end - now()));
            c.victim_elapsed.push_back(now() - v.start);
            c.victim_preemptions.push_back(v.preemptions);
        }
    return c;
}

// The index in sets_ of the set to reserve for job `s`, or -1: none this
// pass.
std::ptrdiff_t ClassPasses::choose_set(Slot s) {
    preempt_sets_.clear();
    std::int32_t first = 1;
    for (const Victims& set : sets_) {
        std::int64_t victim_procs = 0;
        for (Slot v : set.jobs) victim_procs += job(v).alloc.procs;
        const auto victims = static_cast<std::int32_t>(set.jobs.size());
        preempt_sets_.procs.push_back(static_cast<std::int32_t>(set.procs));
        preempt_sets_.idle.push_back(static_cast<std::int32_t>(set.procs - victim_procs));
        preempt_sets_.victims.push_back(victims);
        preempt_sets_.first.push_back(first);
        preempt_sets_.cost.push_back(set.cost);
        preempt_sets_.dnd_left.push_back(set.ready - now());
        first += victims;
    }
    ask<Hook::preempt>(
        preempt_sets_, [&] { return preempt_context(job(s)); }, pick_);
    return pick_.empty() ? -1 : static_cast<std::ptrdiff_t>(pick_[0]);
}

}  // namespace rota
