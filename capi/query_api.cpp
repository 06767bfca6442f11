// Read-only queries of the C ABI.
#include <algorithm>
#include <cstring>

#include "engine/class_passes.h"
#include "engine/combinations.h"
#include "handle.h"

using namespace rota;

namespace {

template <class T>
int copy_out(const std::vector<T>& v, T* out, size_t cap, size_t* n) {
    if (!n) throw Error(Errc::invalid, "the count pointer n is NULL");
    *n = v.size();
    if (cap > 0 && !out) throw Error(Errc::invalid, "out is NULL but cap > 0");
    std::copy_n(v.begin(), std::min(cap, v.size()), out);
    return cap > 0 && cap < v.size() ? ROTA_ERANGE : ROTA_OK;  // cap 0: a count query
}

int state_code(JobState s) {
    switch (s) {
        case JobState::pending:
            return ROTA_JOB_PENDING;
        case JobState::held:
            return ROTA_JOB_HELD;
        case JobState::queued:
            return ROTA_JOB_QUEUED;
        case JobState::running:
            return ROTA_JOB_RUNNING;
        case JobState::suspended:
            return ROTA_JOB_SUSPENDED;
        case JobState::waiting:
            return ROTA_JOB_WAITING;
        default:
            throw Error(Errc::internal, "a job in a final state is still indexed");
    }
}

void check_row(const SchedulerConfig& c, int32_t row) {
    const int32_t rows = c.rows;
    if (row < 0 || row >= rows)
        throw Error(Errc::invalid,
                    "row " + std::to_string(row) + " is outside 0.." + std::to_string(rows - 1));
}

}  // namespace

extern "C" {

int rota_job_info_get(const rota_engine* e, int64_t id, rota_job_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_job_info_get: out is NULL or its size is not set");
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        rota_job_info full{};
        full.size = sizeof(full);
        full.id = j->spec.id;
        full.state = state_code(j->state);
        full.submit = j->submit;
        full.start = j->state == JobState::running ? j->start : -1;
        full.reserved_start = j->reserved() ? j->reserved_start : -1;
        full.estimate = j->spec.estimate;
        full.procs = j->spec.procs;
        full.jumps = j->jumps;
        full.nodes = j->state == JobState::running ? executing_nodes(*j) : 0;
        full.min_procs = j->min_procs();
        full.harvests = j->harvests;
        full.progress = e->sched->progress(*j);
        const bool classes = e->sched->config().classes.enabled;
        const bool running = j->state == JobState::running;
        const bool waiting = j->state == JobState::queued;
        full.job_class = classes ? j->cls + 1 : 0;
        full.preemptions = j->preemptions;
        full.on_disk = j->swapped ? 1 : 0;
        full.reserved = classes && e->sched->classes()->class_reserved_job() == j->spec.id ? 1 : 0;
        full.executed = j->used;
        full.dnd_end = classes && running ? j->dnd_end : -1;
        full.wait_since = classes && waiting ? j->wait_from : -1;
        full.swapping_until =
            j->swapped && j->swapping_until > e->sched->now() ? j->swapping_until : -1;
#define ROTA_X(field, type, value, doc) full.field = e->sched->names().c_str(j->field);
        ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
        full.begin = j->spec.begin;
        full.unmet = j->state == JobState::waiting ? j->unmet : 0;
        full.eligible = j->state == JobState::waiting && j->unmet == 0 ? j->eligible : -1;
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_queue(const rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->queue_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_held(const rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->held_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_running(const rota_engine* e, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        e->ids.clear();
        e->sched->running_ids(e->ids);
        return copy_out<int64_t>(e->ids, out, cap, n);
    });
}

int rota_job_nodes(const rota_engine* e, int64_t id, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        if (j->state != JobState::running)
            throw Error(Errc::state, "job " + std::to_string(id) + " is not running");
        std::vector<NodeRun> runs;
        executing_runs(*j, runs);
        std::vector<int32_t> nodes;
        NodePool::expand(runs, nodes);
        // In increasing order (rota.h): a set of the class passes keeps
        // its victim order inside.
        std::sort(nodes.begin(), nodes.end());
        return copy_out<int32_t>(nodes, out, cap, n);
    });
}

int rota_free_nodes(const rota_engine* e, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        std::vector<int32_t> idle;
        e->sched->idle_nodes(idle);
        return copy_out<int32_t>(idle, out, cap, n);
    });
}

int rota_reservations(const rota_engine* e, rota_reservation* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        std::vector<ReservationInfo> rs;
        e->sched->reservations(rs);
        if (!n) throw Error(Errc::invalid, "the count pointer n is NULL");
        *n = rs.size();
        if (cap == 0) return ROTA_OK;  // a count query
        if (!out) throw Error(Errc::invalid, "rota_reservations: out is NULL but cap > 0");
        // 0 means the struct as this header declares it.
        const std::size_t stride = out[0].size == 0 ? sizeof(rota_reservation) : out[0].size;
        if (stride < sizeof(size_t))
            throw Error(Errc::invalid, "rota_reservations: out[0].size is too small");
        auto* bytes = reinterpret_cast<unsigned char*>(out);
        for (std::size_t i = 0; i < std::min(cap, rs.size()); ++i) {
            rota_reservation full{sizeof(rota_reservation),
                                  rs[i].job,
                                  rs[i].start,
                                  rs[i].end,
                                  rs[i].procs,
                                  rs[i].row};
            auto* el = reinterpret_cast<rota_reservation*>(bytes + i * stride);
            el->size = stride;
            capi::copy_sized(full, el);
        }
        return cap < rs.size() ? ROTA_ERANGE : ROTA_OK;
    });
}

int rota_job_pools(const rota_engine* e, int64_t id, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        return copy_out<int64_t>(j->spec.pools, out, cap, n);
    });
}

int rota_pool_profile(const rota_engine* e, int32_t pool, rota_time* times, int64_t* free,
                      size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const auto& c = e->sched->config();
        if (pool < 0 || static_cast<std::size_t>(pool) >= c.pools.size())
            throw Error(Errc::invalid, "pool " + std::to_string(pool) + " is outside 0.." +
                                           std::to_string(static_cast<int>(c.pools.size()) - 1));
        if (!n) throw Error(Errc::invalid, "the count pointer n is NULL");
        if (cap > 0 && (!times || !free))
            throw Error(Errc::invalid, "rota_pool_profile: times or free is NULL but cap > 0");
        std::vector<std::pair<Time, std::int64_t>> steps;
        e->sched->machine().pool_profile()->steps_of(e->sched->now(),
                                                     static_cast<std::size_t>(pool), steps);
        *n = steps.size();
        for (std::size_t i = 0; i < std::min(cap, steps.size()); ++i) {
            times[i] = steps[i].first;
            free[i] = steps[i].second;
        }
        return cap > 0 && cap < steps.size() ? ROTA_ERANGE : ROTA_OK;
    });
}

int rota_machine_info_get(const rota_engine* e, rota_machine_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_machine_info_get: out is NULL or its size is not set");
        const auto& c = e->sched->config();
        rota_machine_info full{};
        full.size = sizeof(full);
        full.procs = c.procs;
        full.rows = c.rows;
        full.npools = static_cast<int32_t>(c.pools.size());
        full.reservation_depth = c.reservation_depth;
        full.backfill = calls_backfill_select(c) ? 1 : 0;
        full.migration = c.migration ? 1 : 0;
        full.slice = c.rows > 1 ? c.slice : 0;
        full.nclusters = static_cast<int32_t>(c.clusters.size());
        full.nclasses = c.classes.enabled ? static_cast<int32_t>(c.classes.base.classes.size()) : 0;
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_cluster_info_get(const rota_engine* e, int32_t c, rota_cluster_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_cluster_info_get: out is NULL or its size is not set");
        const Machine& m = e->sched->machine();
        if (c < 0 || c >= m.clusters())
            throw Error(
                Errc::invalid,
                "cluster " + std::to_string(c) +
                    (m.clusters() == 0 ? " does not exist: the machine has no clusters"
                                       : " is outside 0.." + std::to_string(m.clusters() - 1)));
        rota_cluster_info full{};
        full.size = sizeof(full);
        full.first = m.cluster_first(c);
        full.nodes = m.cluster_nodes(c);
        full.idle = m.cluster_idle(e->sched->active_row(), c);
        full.name = e->sched->config().clusters[static_cast<std::size_t>(c)].name.c_str();
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_job_clusters(const rota_engine* e, int64_t id, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        if (j->clusters.empty())
            throw Error(Errc::state, "job " + std::to_string(id) +
                                         (e->sched->machine().clusters() == 0
                                              ? ": the machine has no clusters"
                                              : " is neither running nor holding a reservation"));
        const std::vector<int32_t> cs(j->clusters.begin(), j->clusters.end());
        return copy_out<int32_t>(cs, out, cap, n);
    });
}

int rota_active_row(const rota_engine* e, int32_t* row) {
    return capi::guard(e, [&] {
        if (!row) throw Error(Errc::invalid, "rota_active_row: row is NULL");
        *row = e->sched->active_row();
        return ROTA_OK;
    });
}

int rota_matrix_row(const rota_engine* e, int32_t row, int64_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        const auto& c = e->sched->config();
        check_row(c, row);
        std::vector<int64_t> ids(static_cast<std::size_t>(c.procs), -1);
        const Matrix& m = e->sched->machine().matrix();
        if (m.has_cells()) {
            for (int32_t col = 0; col < m.cols(); ++col) {
                Matrix::Slot s = m.at(row, col);
                if (s != Matrix::kEmpty) ids[static_cast<std::size_t>(col)] = e->sched->job_at(s);
            }
        } else {  // one row: the running jobs' nodes
            e->ids.clear();
            e->sched->running_ids(e->ids);
            for (int64_t id : e->ids)
                for (const NodeRun& r : e->sched->find(id)->alloc.runs)
                    for (int32_t col = r.first; col < r.first + r.count; ++col)
                        ids[static_cast<std::size_t>(col)] = id;
        }
        return copy_out<int64_t>(ids, out, cap, n);
    });
}

int rota_row_free_nodes(const rota_engine* e, int32_t row, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        check_row(e->sched->config(), row);
        std::vector<int32_t> cols;
        e->sched->machine().matrix().free_columns(row, cols);
        return copy_out<int32_t>(cols, out, cap, n);
    });
}

int rota_job_rows(const rota_engine* e, int64_t id, int32_t* home, uint32_t* mask) {
    return capi::guard(e, [&] {
        if (!home || !mask) throw Error(Errc::invalid, "rota_job_rows: home or mask is NULL");
        const Job* j = e->sched->find(id);
        if (!j) throw Error(Errc::not_found, "no job " + std::to_string(id));
        if (j->state != JobState::running)
            throw Error(Errc::state, "job " + std::to_string(id) + " is not running");
        *home = j->alloc.home_row;
        *mask = j->alloc.row_mask;
        return ROTA_OK;
    });
}

int rota_counters_get(const rota_engine* e, rota_counters* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_counters_get: out is NULL or its size is not set");
        const Counters& c = e->sched->counters();
        rota_counters full{};
        full.size = sizeof(full);
        full.passes = c.passes;
        full.submitted = c.submitted;
        full.started = c.started;
        full.backfilled = c.backfilled;
        full.finished = c.finished;
        full.killed = c.killed;
        full.rejected = c.rejected;
        full.cancelled = c.cancelled;
        full.reloads = e->reloads;
        full.reload_failures = e->reload_failures;
        full.migrations = c.migrations;
        full.migrated_tasks = c.migrated_tasks;
        full.window_extensions = c.window_extensions;
        full.requeued = c.requeued;
        full.adopted = c.adopted;
        full.harvest_attempts = c.harvest_attempts;
        full.harvests = c.harvests;
        full.grows = c.grows;
        full.shrinks = c.shrinks;
        full.preemptions = c.preemptions;
        full.swap_ins = c.swap_ins;
        full.class_reservations = c.class_reservations;
        full.rekeys = c.rekeys;
        full.resorts = c.resorts;
        full.reservations_moved = c.reservations_moved;
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_user_info_get(const rota_engine* e, int32_t user, rota_user_info* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_user_info_get: out is NULL or its size is not set");
        const UsageBook& u = e->sched->usage();
        rota_user_info full{};
        full.size = sizeof(full);
        full.usage = u.usage(user, e->sched->now());
        full.procs = u.procs(user);
        full.running = u.running(user);
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

int rota_users(const rota_engine* e, int32_t* out, size_t cap, size_t* n) {
    return capi::guard(e, [&] {
        std::vector<int32_t> ids = e->sched->usage().ids();
        std::sort(ids.begin(), ids.end());
        return copy_out<int32_t>(ids, out, cap, n);
    });
}

int rota_hook_stats_get(const rota_engine* e, int hook, rota_hook_stats* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < sizeof(size_t))
            throw Error(Errc::invalid, "rota_hook_stats_get: out is NULL or its size is not set");
        if (hook < 0 || hook >= kHookCount)
            throw Error(Errc::invalid, "rota_hook_stats_get: no hook " + std::to_string(hook));
        const HookStats& h = e->sched->counters().hooks[static_cast<std::size_t>(hook)];
        rota_hook_stats full{};
        full.size = sizeof(full);
        full.calls = h.calls;
        full.failures = h.failures;
        full.nanoseconds = h.nanoseconds;
        full.skipped = h.skipped;
        full.quarantined = h.quarantined ? 1 : 0;
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

const char* rota_hook_script(const rota_engine* e, int hook) {
    if (!e || !e->sched || !e->lua || hook < 0 || hook >= kHookCount) return nullptr;
    const auto h = static_cast<Hook>(hook);
    if (e->native[static_cast<std::size_t>(h)]) return nullptr;
    e->script = e->lua->resolved_path(h);
    return e->script.empty() ? nullptr : e->script.c_str();
}

}  // extern "C"
