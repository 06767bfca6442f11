// Read-only queries of the C ABI.
#include <algorithm>
#include <cstring>

#include "handle.h"

using namespace rota;

namespace {

template <class T>
int copy_out(const std::vector<T>& v, T* out, size_t cap, size_t* n) {
    if (!n) throw Error(Errc::invalid, "the count pointer n is NULL");
    *n = v.size();
    if (cap > 0 && !out) throw Error(Errc::invalid, "out is NULL but cap > 0");
    std::copy_n(v.begin(), std::min(cap, v.size()), out);
    return cap < v.size() ? ROTA_ERANGE : ROTA_OK;
}

int state_code(JobState s) {
    switch (s) {
        case JobState::pending: return ROTA_JOB_PENDING;
        case JobState::held: return ROTA_JOB_HELD;
        case JobState::queued: return ROTA_JOB_QUEUED;
        case JobState::running: return ROTA_JOB_RUNNING;
        default: throw Error(Errc::internal, "a job in a final state is still indexed");
    }
}

}  // namespace

extern "C" {

int rota_job_info_get(rota_engine* e, int64_t id, rota_job_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(rota_job_info))
            throw Error(Errc::invalid, "rota_job_info_get: out is NULL or its size is not set");
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        out->id = j->spec.id;
        out->state = state_code(j->state);
        out->submit = j->submit;
        out->start = j->state == JobState::running ? j->start : -1;
        out->reserved_start = j->reserved() ? j->reserved_start : -1;
        out->estimate = j->spec.estimate;
        out->procs = j->spec.procs;
        out->jumps = j->jumps;
        return ROTA_OK;
    });
}

int rota_queue(rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->queue_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_held(rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->held_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_running(rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->running_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_job_nodes(rota_engine* e, int64_t id, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        if (j->state != JobState::running)
            throw Error(Errc::state, "job " + std::to_string(id) + " is not running");
        std::vector<int32_t> nodes;
        NodePool::expand(j->nodes, nodes);
        return copy_out<int32_t>(nodes, out, cap, n);
    });
}

int rota_free_nodes(rota_engine* e, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        std::vector<int32_t> idle;
        e->sched->nodes().idle_nodes(idle);
        return copy_out<int32_t>(idle, out, cap, n);
    });
}

int rota_reservations(rota_engine* e, rota_reservation* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        std::vector<ReservationInfo> rs;
        e->sched->reservations(rs);
        std::vector<rota_reservation> v;
        for (const auto& r : rs) v.push_back({sizeof(rota_reservation), r.job, r.start, r.end, r.procs, 0});
        return copy_out<rota_reservation>(v, out, cap, n);
    });
}

int rota_machine(rota_engine* e, rota_machine_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(rota_machine_info))
            throw Error(Errc::invalid, "rota_machine: out is NULL or its size is not set");
        const auto& c = e->sched->config();
        out->procs = c.procs;
        out->rows = 1;
        out->npools = static_cast<int32_t>(c.pools.size());
        out->reservation_depth = c.reservation_depth;
        out->backfill = c.backfill ? 1 : 0;
        return ROTA_OK;
    });
}

int rota_counters_get(rota_engine* e, rota_counters* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(rota_counters))
            throw Error(Errc::invalid, "rota_counters_get: out is NULL or its size is not set");
        const Counters& c = e->sched->counters();
        out->passes = c.passes;
        out->submitted = c.submitted;
        out->started = c.started;
        out->backfilled = c.backfilled;
        out->finished = c.finished;
        out->killed = c.killed;
        out->rejected = c.rejected;
        out->cancelled = c.cancelled;
        for (int h = 0; h < ROTA_HOOK_COUNT; ++h) {
            out->hook_calls[h] = c.hooks[h].calls;
            out->hook_failures[h] = c.hooks[h].failures;
            out->hook_nanoseconds[h] = c.hooks[h].nanoseconds;
        }
        out->reloads = e->reloads;
        out->reload_failures = e->reload_failures;
        return ROTA_OK;
    });
}

}  // extern "C"
