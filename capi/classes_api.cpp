// [Feitelson97]'s job classes through the C ABI: the user controls of §4.5
// (suspend, resume, change class) and the classes in force.
#include <cstring>

#include "engine/class_passes.h"
#include "engine/error.h"
#include "handle.h"
#include "rota.h"

using namespace rota;

namespace {

const ClassesConfig& classes_of(const rota_engine* e) {
    return e->sched->config().classes;
}

void check_class(const rota_engine* e, int32_t c) {
    const ClassesConfig& cc = classes_of(e);
    const auto n = static_cast<int32_t>(cc.base.classes.size());
    if (!cc.enabled)
        throw Error(Errc::invalid, "class " + std::to_string(c) + ": there is no [classes]");
    // Numbered from 1, as in rota_job (0 there is the default class).
    if (c < 1 || c > n)
        throw Error(Errc::invalid,
                    "class " + std::to_string(c) + " is outside 1.." + std::to_string(n));
}

}  // namespace

extern "C" {

int rota_job_suspend(rota_engine* e, int64_t id) {
    return capi::guard(e, [&] {
        e->sched->suspend(id);
        capi::note_suspended(e, id);
        return ROTA_OK;
    });
}

int rota_job_resume(rota_engine* e, int64_t id) {
    return capi::guard(e, [&] {
        e->sched->resume(id);
        return ROTA_OK;
    });
}

int rota_job_set_class(rota_engine* e, int64_t id, int32_t job_class) {
    return capi::guard(e, [&] {
        // The state first, as suspend and resume (rota.h: ROTA_ESTATE without [classes]).
        if (!classes_of(e).enabled)
            throw Error(Errc::state, "rota_job_set_class: there is no [classes]");
        check_class(e, job_class);
        e->sched->set_class(id, job_class - 1);
        return ROTA_OK;
    });
}

int rota_class_info_get(const rota_engine* e, int32_t job_class, rota_class_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_class_info_get: out is NULL or its size is not set");
        check_class(e, job_class);
        const auto i = static_cast<std::size_t>(job_class - 1);
        const JobClassConfig& now = e->sched->classes()->class_params().classes[i];
        rota_class_info full{};
        full.size = sizeof(full);
        full.name = classes_of(e).base.classes[i].name.c_str();
        full.priority = now.priority;
        full.max_wait = now.max_wait == kForever ? INT64_MAX : now.max_wait;
        full.dnd = now.dnd;
        full.procs = now.procs;
        full.preemptable = now.preemptable ? 1 : 0;
        full.loaded = static_cast<int32_t>(e->sched->classes()->class_loaded(i));
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_class_find(const rota_engine* e, const char* name, int32_t* out) {
    return capi::guard(e, [&] {
        if (!name || !out) throw Error(Errc::invalid, "rota_class_find: name or out is NULL");
        const auto& cs = classes_of(e).base.classes;
        for (std::size_t i = 0; i < cs.size() && classes_of(e).enabled; ++i)
            if (cs[i].name == name) {
                *out = static_cast<int32_t>(i + 1);
                return ROTA_OK;
            }
        throw Error(Errc::not_found, std::string("no job class named '") + name + "'");
    });
}

const char* rota_class_period(const rota_engine* e) {
    const ClassPasses* c = e && e->sched ? e->sched->classes() : nullptr;
    return c ? c->period_name() : "";
}

}  // extern "C"
