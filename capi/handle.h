// What a rota_engine handle holds, and the guard that turns C++ exceptions
// into status codes at the ABI boundary.
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "capi/include/rota.h"
#include "config.h"
#include "engine/error.h"
#include "engine/scheduler.h"
#include "lua/lua_policy.h"

struct rota_engine {
    std::unique_ptr<rota::Scheduler> sched;  // null if creation failed
    std::shared_ptr<rota::LuaPolicy> lua;    // null if no script is configured
    rota::EngineConfig config;
    std::string base_dir;
    // Diagnostics and scratch, written by read-only (const) queries too.
    mutable std::string err;
    rota_log_fn log_fn = rota_log_stderr;
    void* log_ud = nullptr;
    int log_level = ROTA_LOG_INFO;
    rota_alloc_fn alloc = nullptr;  // every Lua state's memory, if set
    void* alloc_ud = nullptr;
    std::uint64_t reloads = 0;
    std::uint64_t reload_failures = 0;
    // C policies installed with rota_set_policy (or
    // rota_set_backfill_select), by hook: each wins over the
    // configuration's script, reloads included.
    std::array<std::shared_ptr<rota::Policy>, rota::kHookCount> native{};
    mutable std::vector<rota::JobId> ids;  // scratch for list queries
    mutable std::string script;            // rota_hook_script's answer
    // Jobs rota_job_suspend()ed, which no engine list holds, for
    // rota_top(); ids no longer suspended are dropped on the way.
    mutable std::vector<rota::JobId> suspended;
    // Inside a call: a callback (log, native policy) calling back into the
    // same engine would change or read it mid-pass; it gets ROTA_ESTATE.
    mutable bool busy = false;

    void log(int level, const std::string& line);
    void install_policies();  // configured Lua hooks into the scheduler
};

namespace rota::capi {

int status_of(Errc c);

// An engine from the configuration `text` (its name `source` for messages)
// as rota_engine_new makes it (engine_api.cpp); *out is set even on
// failure, carrying the error.
int create(const std::string& text, const std::string& source, const std::string& base_dir,
           const rota_engine_options* opt, rota_engine** out);

// A handle that only carries `why` (*out is set even on failure, as
// create does): ROTA_EINVAL, or ROTA_ENOMEM when none can be allocated.
int failed_handle(const std::string& why, rota_engine** out);

// Records a job rota_job_suspend() suspended, for rota_top() (top.cpp).
void note_suspended(rota_engine* e, JobId id);

// Copies `full` into the caller's struct, only as many bytes as the size
// the caller declared (at least the size field itself), so that callers
// built against an older, smaller struct keep working.
template <class T>
void copy_sized(const T& full, T* out) {
    const std::size_t n = out->size < sizeof(T) ? out->size : sizeof(T);
    const std::size_t keep = out->size;
    std::memcpy(static_cast<void*>(out), &full, n);
    out->size = keep;
}

// Runs `f` and maps what it throws to a status code and e->err.
template <class F>
int guard(const rota_engine* e, F&& f) {
    if (!e) return ROTA_EINVAL;
    if (!e->sched) {
        // Keep the creation error readable: say it once, whatever the call.
        static const std::string prefix = "engine was not created: ";
        if (e->err.compare(0, prefix.size(), prefix) != 0) e->err = prefix + e->err;
        return ROTA_ESTATE;
    }
    if (e->busy) {
        e->err =
            "called from inside a callback of the same engine (rota.h: callbacks must not "
            "call into the engine that called them)";
        return ROTA_ESTATE;
    }
    struct Busy {
        bool& b;
        explicit Busy(bool& f) : b(f) { b = true; }
        ~Busy() { b = false; }
    } busy(e->busy);
    try {
        int rc = f();
        if (rc == ROTA_OK || rc == ROTA_DONE) e->err.clear();
        // The answers fill `out` as far as it goes and return no message
        // of their own: an earlier call's must not stand for this one.
        if (rc == ROTA_ERANGE)
            e->err = "the output buffer is too small: the count returned is what it needs";
        return rc;
    } catch (const Error& x) {
        e->err = x.what();
        return status_of(x.code());
    } catch (const std::bad_alloc&) {
        e->err = "out of memory";
        return ROTA_ENOMEM;
    } catch (const std::exception& x) {
        e->err = std::string("internal error: ") + x.what();
        return ROTA_EINTERNAL;
    } catch (...) {
        e->err = "internal error: unknown exception";
        return ROTA_EINTERNAL;
    }
}

}  // namespace rota::capi
