// Events and actions of the C ABI.
#include <cstdio>
#include <cstring>
#include <span>
#include <string_view>

#include "handle.h"

using namespace rota;

extern "C" {

int rota_advance(rota_engine* e, rota_time t) {
    return capi::guard(e, [&] {
        e->sched->advance(t);
        return ROTA_OK;
    });
}

rota_time rota_now(const rota_engine* e) {
    return e && e->sched ? e->sched->now() : 0;
}

}  // extern "C"

namespace {

// A rota_job as the engine's JobSpec; `fn` names the call in messages.
// npools 0 is no demand on any of the machine's `machine_pools` pools.
// Every submission passes through here: messages are built only for an
// error, so a job without constraints costs no allocation beyond its own.

// The `n` entries of a caller's array, as a span: none for 0, refused
// for a negative count, a count past `most` or a NULL array.
template <class T>
std::span<const T> array_of(const T* p, std::int64_t n, std::int64_t most, std::string_view fn,
                            std::string_view what) {
    if (n == 0) return {};
    const auto name = [&] { return std::string(fn) + std::string(what); };
    if (n < 0 || n > most)
        throw Error(Errc::invalid, name() + ": the count must be 0.." + std::to_string(most) +
                                       ", got " + std::to_string(n));
    if (!p) throw Error(Errc::invalid, name() + ": a count of " + std::to_string(n) + " but NULL");
    return {p, static_cast<std::size_t>(n)};
}

std::vector<NodeRun> runs_of(std::span<const rota_node_run> in) {
    std::vector<NodeRun> out;
    out.reserve(in.size());
    for (const rota_node_run& r : in) out.push_back({r.first, r.count});
    return out;
}

// The constraints of ABI 10; the engine checks them against the machine.
void constraints_of(const rota_job& job, std::string_view fn, JobSpec& s) {
    s.begin = job.begin;
    // Most jobs carry none of the lists: a submission's hot path.
    if (job.ninclude == 0 && job.nexclude == 0 && job.ndepends == 0) return;
    constexpr std::int64_t most_runs = std::int64_t{1} << 24;
    s.include = runs_of(array_of(job.include, job.ninclude, most_runs, fn, ".include"));
    s.exclude = runs_of(array_of(job.exclude, job.nexclude, most_runs, fn, ".exclude"));
    const auto depends = array_of(job.depends, job.ndepends, 1024, fn, ".depends");
    s.after.reserve(depends.size());
    for (const rota_dependency& d : depends) {
        if (d.type != ROTA_AFTER_ANY && d.type != ROTA_AFTER_OK)
            throw Error(Errc::invalid, std::string(fn) + ".depends: type " +
                                           std::to_string(d.type) +
                                           " is neither ROTA_AFTER_ANY nor ROTA_AFTER_OK");
        s.after.push_back(
            {d.job, d.type == ROTA_AFTER_OK ? DependencyKind::after_ok : DependencyKind::after_any,
             d.delay});
    }
}

JobSpec spec_of(const rota_job* job, const char* fn, std::size_t machine_pools) {
    if (!job) throw Error(Errc::invalid, std::string(fn) + ": job is NULL");
    if (job->size < offsetof(rota_job, priority))
        throw Error(Errc::invalid, std::string(fn) + ": job.size is " + std::to_string(job->size) +
                                       "; set it to sizeof(rota_job) (at least " +
                                       std::to_string(offsetof(rota_job, priority)) + ")");
    JobSpec s;
    s.id = job->id;
    s.estimate = job->estimate;
    s.procs = job->procs;
    s.user = job->user;
    s.priority = job->size >= offsetof(rota_job, npools) ? job->priority : 0;
    // Fields a caller's older, smaller struct has not got are absent.
    auto has = [&](std::size_t end) { return job->size >= end; };
    const bool pools_known = has(offsetof(rota_job, pools) + sizeof(job->pools));
    if (pools_known && job->npools < 0)
        throw Error(Errc::invalid,
                    std::string(fn) + ": npools must be 0 or the machine's pool count (" +
                        std::to_string(machine_pools) + "), got " + std::to_string(job->npools));
    if (pools_known && job->npools > 0) {
        if (!job->pools)
            throw Error(Errc::invalid, std::string(fn) + ": npools > 0 but pools is NULL");
        s.pools.assign(job->pools, job->pools + job->npools);
    } else {
        s.pools.assign(machine_pools, 0);
    }
    if (has(offsetof(rota_job, components) + sizeof(job->components)) && job->ncomponents != 0) {
        if (job->ncomponents < 0 || job->ncomponents > 256)
            throw Error(Errc::invalid, std::string(fn) + ": ncomponents must be 0..256, got " +
                                           std::to_string(job->ncomponents));
        if (!job->components)
            throw Error(Errc::invalid,
                        std::string(fn) + ": ncomponents > 0 but components is NULL");
        s.components.assign(job->components, job->components + job->ncomponents);
    }
    if (has(offsetof(rota_job, submitted) + sizeof(job->submitted))) s.submitted = job->submitted;
    if (has(offsetof(rota_job, min_procs) + sizeof(job->min_procs))) s.min_procs = job->min_procs;
    if (has(offsetof(rota_job, adapt_bytes) + sizeof(job->adapt_bytes)))
        s.adapt_bytes = job->adapt_bytes;
    // Class numbers start at 1; 0, a zeroed struct's, is the default class.
    if (has(offsetof(rota_job, job_class) + sizeof(job->job_class))) {
        if (job->job_class < 0)
            throw Error(Errc::invalid,
                        std::string(fn) +
                            ": job_class must be 0 (the default) or a class number, got " +
                            std::to_string(job->job_class));
        s.job_class = job->job_class - 1;
    }
    // Read no further than one byte past the longest name allowed, so that
    // a string without its NUL is refused by the engine, not overrun.
    auto name = [](const char* p) {
        return p ? std::string(p, strnlen(p, kMaxNameBytes + 1)) : std::string();
    };
#define ROTA_X(field, type, value, doc) \
    if (has(offsetof(rota_job, field) + sizeof(job->field))) s.field = name(job->field);
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    if (has(offsetof(rota_job, depends) + sizeof(job->depends))) constraints_of(*job, fn, s);
    return s;
}

}  // namespace

extern "C" {

int rota_submit(rota_engine* e, const rota_job* job) {
    return capi::guard(e, [&] {
        e->sched->submit(spec_of(job, "rota_submit", e->sched->config().pools.size()));
        return ROTA_OK;
    });
}

int rota_adopt(rota_engine* e, const rota_job* job, rota_time start, const rota_node_run* runs,
               int32_t nruns) {
    return capi::guard(e, [&] {
        const JobSpec s = spec_of(job, "rota_adopt", e->sched->config().pools.size());
        if (nruns <= 0 || !runs)
            throw Error(Errc::invalid, "rota_adopt: a running job needs its nodes (nruns > 0)");
        std::vector<NodeRun> r;
        for (int32_t i = 0; i < nruns; ++i) r.push_back({runs[i].first, runs[i].count});
        e->sched->adopt(s, start, r);
        return ROTA_OK;
    });
}

int rota_job_end(rota_engine* e, int64_t id) {
    return rota_job_exit(e, id, 0);
}

int rota_job_exit(rota_engine* e, int64_t id, int status) {
    return capi::guard(e, [&] {
        e->sched->job_end(id, status == 0);
        return ROTA_OK;
    });
}

int rota_cancel(rota_engine* e, int64_t id) {
    return capi::guard(e, [&] {
        e->sched->cancel(id);
        return ROTA_OK;
    });
}

int rota_node_down(rota_engine* e, int32_t node, int fate) {
    return capi::guard(e, [&] {
        if (fate != ROTA_NODE_KILL && fate != ROTA_NODE_REQUEUE && fate != ROTA_NODE_DEFAULT)
            throw Error(Errc::invalid,
                        "rota_node_down: fate must be ROTA_NODE_KILL, ROTA_NODE_REQUEUE or "
                        "ROTA_NODE_DEFAULT, not " +
                            std::to_string(fate));
        const bool requeue = fate == ROTA_NODE_DEFAULT ? e->sched->config().node_down_requeues
                                                       : fate == ROTA_NODE_REQUEUE;
        e->sched->node_down(node, requeue);
        return ROTA_OK;
    });
}

int rota_job_requeue(rota_engine* e, int64_t id, const char* reason) {
    return capi::guard(e, [&] {
        std::string why = reason ? reason : "";
        if (why.size() > 1000) why.resize(1000);  // a reason, not a payload
        e->sched->job_requeue(id, why);
        return ROTA_OK;
    });
}

int rota_node_drain(rota_engine* e, int32_t node) {
    return capi::guard(e, [&] {
        e->sched->node_drain(node);
        return ROTA_OK;
    });
}

int rota_node_up(rota_engine* e, int32_t node) {
    return capi::guard(e, [&] {
        e->sched->node_up(node);
        return ROTA_OK;
    });
}

int rota_job_progress(rota_engine* e, int64_t id, double done) {
    return capi::guard(e, [&] {
        e->sched->report_progress(id, done);
        return ROTA_OK;
    });
}

int rota_schedule(rota_engine* e) {
    return capi::guard(e, [&] {
        if (e->log_level < ROTA_LOG_DEBUG || !e->log_fn) {
            e->sched->schedule();
            return ROTA_OK;
        }
        const Counters before = e->sched->counters();
        e->sched->schedule();
        const Counters& c = e->sched->counters();
        char line[200];
        std::snprintf(line, sizeof line,
                      "pass %llu at %.6f s: %llu started (%llu backfilled), %llu rejected; "
                      "%zu waiting, %zu running",
                      static_cast<unsigned long long>(c.passes),
                      static_cast<double>(e->sched->now()) / 1e6,
                      static_cast<unsigned long long>(c.started - before.started),
                      static_cast<unsigned long long>(c.backfilled - before.backfilled),
                      static_cast<unsigned long long>(c.rejected - before.rejected),
                      e->sched->queue_length(), e->sched->running_count());
        e->log(ROTA_LOG_DEBUG, line);
        return ROTA_OK;
    });
}

int rota_next_wakeup(const rota_engine* e, rota_time* t) {
    return capi::guard(e, [&] {
        if (!t) throw Error(Errc::invalid, "rota_next_wakeup: t is NULL");
        auto w = e->sched->next_wakeup();
        if (!w) {
            *t = INT64_MAX;
            return ROTA_DONE;
        }
        *t = *w;
        return ROTA_OK;
    });
}

int rota_next_action(rota_engine* e, rota_action* out) {
    return capi::guard(e, [&] {
        if (!out || out->size < offsetof(rota_action, type) + sizeof(int))
            throw Error(Errc::invalid,
                        "rota_next_action: out is NULL or its size field is not set");
        Action a;
        if (!e->sched->next_action(a)) return ROTA_DONE;
        static_assert(sizeof(rota_node_run) == sizeof(NodeRun));
        const auto fill = [&](rota_action& to) {
            to.type = static_cast<int>(a.type);
            to.job = a.job;
            to.time = a.time;
            to.row = a.row;
            to.nnodes = a.nodes;
            to.nruns = static_cast<int32_t>(a.run_count);
            to.runs = reinterpret_cast<const rota_node_run*>(e->sched->action_runs(a));
            to.reason = e->sched->action_reason(a);
            to.option = a.option;
            to.delay = a.delay;
            to.from_row = a.from_row;
            to.run_cluster = e->sched->action_run_clusters(a);
        };
        // A caller built against this header gets every field written in
        // place (the simulator pops one action per start, grow and shrink);
        // an older, smaller struct gets the prefix it knows.
        if (out->size >= sizeof(rota_action)) {
            fill(*out);
            return ROTA_OK;
        }
        rota_action full{};
        full.size = sizeof(full);
        fill(full);
        capi::copy_sized(full, out);
        return ROTA_OK;
    });
}

}  // extern "C"
