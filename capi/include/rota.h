/*
** rota.h — the public C interface of rota, an embeddable parallel-job
** scheduling engine. This header is the reference: what it does not
** document is not API.
**
** The model (see docs/c-api.md for a walk-through):
**
**   - An engine (rota_engine) holds the state of one machine: its nodes, the
**     queue, the running jobs and the reservations. Create it from a TOML
**     configuration, destroy it with rota_engine_free().
**   - The machine is an Ousterhout matrix: rows are time slices, columns
**     are nodes ([Zhang00] §4). One row, the default, is space sharing; more
**     rows ([gang] mpl) is gang scheduling. Every mode runs the same
**     scheduling pass, configured by one key (scheduler.preset: fcfs, easy,
**     conservative, fpfs, gs, bgs, mgs, mbgs) or by its parts.
**   - The embedder (a batch system, or rota's own simulator) feeds it
**     events: rota_advance() sets the time, rota_submit(), rota_job_end() and
**     rota_cancel() report what happened, and rota_schedule() runs one
**     scheduling pass over everything reported since the last one.
**   - The engine answers with actions (start job J on nodes ..., kill J at
**     its walltime, reject J with a reason), pulled with rota_next_action().
**   - Queries read the state at any time: queue, running jobs, idle nodes,
**     reservations, the matrix, counters and per-hook statistics.
**
** Rules that hold for every function:
**
**   - Every function taking an engine returns a status code (ROTA_OK on
**     success). On failure, rota_errmsg() gives a message for the last error
**     on that engine and the engine state is unchanged.
**   - Time is an int64 count of microseconds (rota_time). It never goes
**     backwards: rota_advance() to an earlier time is an error.
**   - The same inputs give the same actions, bit for bit.
**   - An engine is not thread-safe; use one per thread. Any number of engines
**     may live in one process.
**   - Structs passed in or out start with a `size` field that the caller sets
**     to sizeof(the struct) as it knows it. The library reads and writes only
**     the fields that fit in that size, so callers compiled against an older,
**     smaller struct keep working when fields are added at the end.
**   - Callbacks (rota_set_backfill_select, rota_set_log) run on the thread
**     that called into the engine, in the middle of that call: they must not
**     call into the same engine (such a call returns ROTA_ESTATE and does
**     nothing; rota_errmsg stays available). Their `ud` must outlive the engine or the
**     next call replacing the callback.
**   - "The next event call" means the next call on the engine of exactly
**     these, which can change its state or queue actions, whether it
**     succeeds or fails:
**     rota_advance, rota_submit, rota_job_end, rota_cancel, rota_schedule,
**     rota_adopt, rota_node_down, rota_node_drain, rota_node_up,
**     rota_job_requeue, rota_job_progress, rota_job_suspend,
**     rota_job_resume, rota_job_set_class, rota_reload_policies and
**     rota_reconfigure. Queries (rota_job_info_get, rota_queue, ...) are
**     not event calls.
**   - No C++ exception ever crosses this interface.
*/
#ifndef ROTA_H
#define ROTA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ROTA_API __attribute__((visibility("default")))
#else
#define ROTA_API
#endif

/* Compile-time version, written here only: CMake reads these three lines
** for the project version, the library's file name and rota.pc. Compare
** with rota_version() and rota_version_number() at run time. */
#define ROTA_VERSION_MAJOR 0
#define ROTA_VERSION_MINOR 2
#define ROTA_VERSION_PATCH 0
#define ROTA_VERSION_STR_(x) #x
#define ROTA_VERSION_STR(x) ROTA_VERSION_STR_(x)
#define ROTA_VERSION                     \
    ROTA_VERSION_STR(ROTA_VERSION_MAJOR) \
    "." ROTA_VERSION_STR(ROTA_VERSION_MINOR) "." ROTA_VERSION_STR(ROTA_VERSION_PATCH)
/* major * 1000000 + minor * 1000 + patch: ordered, for #if and comparisons. */
#define ROTA_VERSION_NUMBER \
    (ROTA_VERSION_MAJOR * 1000000 + ROTA_VERSION_MINOR * 1000 + ROTA_VERSION_PATCH)
/* Bumped whenever a compiled caller could break. 2: per-hook statistics
** through rota_hook_stats_get(), the native backfill callback's batch and
** context structs, rota_machine_info.migration. 3: [Leinberger99]'s K resources
** in the batch (resources, R) and the backfill context (capacity, usage,
** head_demand, extra); rota_job_pools(), rota_pool_profile(). 4: seed
** 001's multi-cluster co-allocation: rota_job.components,
** rota_action.run_cluster, rota_machine_info.nclusters, rota_cluster_info_get(),
** rota_job_clusters(), the placement hook. 5: [Weissman03]'s malleable jobs:
** rota_job.min_procs and .adapt_bytes, the GROW and SHRINK actions,
** rota_job_progress(), rota_job_info's nodes, min_procs, harvests and
** progress, the harvest counters, the harvest and distribution hooks. 6:
** [Feitelson97]'s job classes: rota_job.job_class, the SWAP_OUT and SWAP_IN
** actions and START's delay, ROTA_JOB_SUSPENDED, rota_job_suspend(),
** rota_job_resume(), rota_job_set_class(), rota_class_info_get(),
** rota_class_find(), rota_class_period(), rota_job_info's class fields,
** rota_machine_info.nclasses, the preemption counters, rota_top(), the
** preempt hook. 7: what a production controller needs: the read-only
** queries take a const engine; rota_machine_info_get,
** rota_cluster_info_get, rota_class_info_get, rota_user_info_get and
** rota_row_free_nodes (renamed from rota_machine, rota_cluster_get,
** rota_class_get, rota_user_get, rota_row_free: one pattern, the struct's
** name then _get); rota_version_number(); rota_reconfigure(); log levels
** (rota_set_log_level()); rota_engine_new_v2() and its options (log sink
** and level from creation on, an allocator for the scripts' memory);
** rota_job_requeue(); the account, partition and qos of rota_job,
** rota_job_info and rota_batch; rota_snapshot() and rota_restore(), and
** ROTA_EABORT. 8: rota_counters.reservations_moved. 9: rota_hook_script(). 10: the
** constraints of rota_job (begin, include, exclude, depends) and
** [[machine.partitions]], rota_job_exit(), ROTA_JOB_WAITING, and their
** fields in rota_job_info. */
#define ROTA_ABI_VERSION 10

/* Status codes. */
#define ROTA_OK 0        /* success */
#define ROTA_DONE 1      /* nothing more: no action left, no wakeup pending */
#define ROTA_EINVAL 2    /* bad argument or malformed input */
#define ROTA_ECONFIG 3   /* bad configuration: unknown key, wrong type, bad value */
#define ROTA_ENOTFOUND 4 /* unknown job id */
#define ROTA_EEXIST 5    /* job id already submitted */
#define ROTA_ETIME 6     /* time went backwards */
#define ROTA_ESCRIPT 7   /* a policy script failed to load or compile */
#define ROTA_ESTATE 8    /* call not valid in the job's or engine's state */
#define ROTA_EINTERNAL 9 /* broken invariant inside rota: a bug, please report */
#define ROTA_ENOMEM 10   /* out of memory */
#define ROTA_ERANGE 11   /* output buffer too small; the needed count is returned */
#define ROTA_EABORT 12   /* a callback of the caller (rota_writer_fn) asked to stop (ABI 7) */

typedef int64_t rota_time; /* microseconds */
typedef struct rota_engine rota_engine;

/* ------------------------------------------------------------------------ */
/* Versions and errors                                                       */

/* The library's version string, e.g. "0.2.0". */
ROTA_API const char* rota_version(void);
/* The library's ROTA_VERSION_NUMBER, e.g. 2000 for 0.2.0. Added in ABI 7. */
ROTA_API int rota_version_number(void);
/* The library's ROTA_ABI_VERSION; refuse to run if it differs from yours. */
ROTA_API int rota_abi_version(void);
/* A short constant name for a status code ("ROTA_ETIME"). Never NULL. */
ROTA_API const char* rota_status_name(int status);
/* A one-line English description of a status code. Never NULL. */
ROTA_API const char* rota_strerror(int status);
/* The message of the last failed call on `e` ("" if none). The pointer stays
** valid until the next call on `e`. Accepts NULL (returns a message saying
** the engine could not be allocated). */
ROTA_API const char* rota_errmsg(const rota_engine* e);

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                */

/* Log levels (ABI 7), most severe first; a line's level says what it is:
**   ERROR    a reload or reconfiguration failed (the running policies stay);
**   WARNING  a hook call failed or was cut short (its fallback decided), a
**            hook was quarantined, a pass spent its budget;
**   INFO     a policy's print(), a hook called again after quarantine, a
**            reload or reconfiguration that succeeded;
**   DEBUG    one line per scheduling pass (its time, starts, backfills,
**            queue and running counts). */
#define ROTA_LOG_ERROR 1
#define ROTA_LOG_WARNING 2
#define ROTA_LOG_INFO 3
#define ROTA_LOG_DEBUG 4
/* A log sink: one line, without its newline, valid during the call only.
** (ABI 7 added `level`.) */
typedef void (*rota_log_fn)(void* ud, int level, const char* line);

/* An allocator with lua_Alloc's contract (Lua 5.4 manual §4.6): free `ptr`
** when nsize is 0 (returning NULL), else allocate or resize to nsize bytes
** and return the block, or NULL on failure (the old block stays valid).
** When ptr is NULL, osize is the kind of object, not a size. ABI 7. */
typedef void* (*rota_alloc_fn)(void* ud, void* ptr, size_t osize, size_t nsize);

/* Options for rota_engine_new_v2 (ABI 7). Zero-initialise, then set size
** and what you need:
**
**   rota_engine_options o = {0};
**   o.size = sizeof o;
**   o.log_level = ROTA_LOG_WARNING;
*/
typedef struct rota_engine_options {
    size_t size;
    /* Where log lines go from creation on (so that a policy's print()
    ** during the dry run at load is seen). NULL: rota_log_stderr. */
    rota_log_fn log;
    void* log_ud;
    /* As rota_set_log_level; 0 here means the default, ROTA_LOG_INFO. */
    int log_level;
    /* Where the policy scripts' memory comes from: every Lua state of the
    ** engine, including those a reload or rota_reconfigure() creates, is
    ** made with lua_newstate(alloc, ...) through it, the per-state cap
    ** (lua.memory_limit_mb) still applying. NULL: realloc and free. The
    ** engine's own tables use the C++ heap; their size is bounded by the
    ** input limits (docs/reliability.md). `alloc_ud` must outlive the
    ** engine. */
    rota_alloc_fn alloc;
    void* alloc_ud;
} rota_engine_options;

/* Create an engine from a TOML configuration held in a string (see
** docs/config.md for every key). `base_dir` is where relative policy script
** paths are looked up first (NULL: the current directory); the shipped
** policies directory is always searched last.
**
** Like sqlite3_open(), *out is set even on failure (unless memory ran out),
** to a handle that only answers rota_errmsg() and must be passed to
** rota_engine_free(). Returns ROTA_ECONFIG for a bad configuration (the
** message names the key), ROTA_ESCRIPT when a policy script does not load
** (the message names file and line). */
ROTA_API int rota_engine_new(const char* config_toml, const char* base_dir, rota_engine** out);
/* Same, reading the configuration from a file; relative script paths are
** looked up first beside that file. */
ROTA_API int rota_engine_new_file(const char* path, rota_engine** out);
/* As rota_engine_new, with options (NULL: all defaults). ROTA_EINVAL for
** options whose size is not set or whose log_level is outside 0..4.
** Added in ABI 7. */
ROTA_API int rota_engine_new_v2(const char* config_toml, const char* base_dir,
                                const rota_engine_options* options, rota_engine** out);
/* Destroy an engine. Passing NULL is a no-op. Called from one of the
** engine's own callbacks, it does nothing (the engine is in the middle of
** the call that ran the callback) and sets rota_errmsg(), which the
** callback can read (the outer call's own outcome replaces it); free the
** engine after that call returns. */
ROTA_API void rota_engine_free(rota_engine* e);

/* The name of policy preset number `i` ("easy"), the values of the
** configuration key scheduler.preset (docs/config.md, "Presets"); NULL
** past the last. */
ROTA_API const char* rota_preset_name(int i);

/* ------------------------------------------------------------------------ */
/* Events                                                                    */

/* Consecutive node numbers first, first + 1, ..., first + count - 1. Node
** sets come as runs, as hostlists do: a wide job's start costs a few runs,
** not one entry per node. */
typedef struct rota_node_run {
    int32_t first;
    int32_t count;
} rota_node_run;

/* A job this one waits for (Slurm's --dependency): it may start only after
** job `job` ends (ROTA_AFTER_ANY), or ends successfully (ROTA_AFTER_OK: it
** ended with rota_job_end or rota_job_exit with status 0; a kill at its
** walltime, a cancel, a rejection or a node failure is no success), then
** `delay` more (a think time, as SWF's field 18 has it; 0 for none). Added
** in ABI 10. */
#define ROTA_AFTER_ANY 0
#define ROTA_AFTER_OK 1
typedef struct rota_dependency {
    int64_t job;
    int type; /* ROTA_AFTER_* */
    rota_time delay;
} rota_dependency;

/* A job as submitted. Set size = sizeof(rota_job). */
typedef struct rota_job {
    size_t size;
    int64_t id; /* >= 0, unique among the jobs the engine knows */
    rota_time
        estimate;     /* requested time (walltime), > 0: the job is killed when it runs this long */
    int32_t procs;    /* processors (nodes), > 0 */
    int32_t user;     /* user id, or -1 */
    int32_t priority; /* handed to policies; the engine itself ignores it */
    int32_t npools;   /* values in `pools`: the machine's pool count, or 0: no demand on any */
    const int64_t* pools; /* demand on each configured pool ([[machine.pools]] order) */
    /* [Ngubiri07]'s co-allocation, on a machine of several clusters
    ** ([[machine.clusters]]): the job's components, each a number of nodes
    ** that must all lie in one cluster, every component in a different
    ** cluster, all starting at once. Their sum must be `procs`. 0 (and
    ** NULL): one component of `procs` nodes, which on a multi-cluster
    ** machine must fit in one cluster. Added in ABI 4. */
    int32_t ncomponents;
    const int32_t* components;
    /* When the job was submitted, if before now: a job that waited in a
    ** batch system before this engine existed (a controller restarting)
    ** keeps its place in FCFS order and its wait. 0 means now; a time
    ** after now is ROTA_EINVAL. Added in ABI 4. */
    rota_time submitted;
    /* [Weissman03]'s malleable jobs (ABI 5), used under the iScheduler
    ** ([malleable], docs/config.md); every other mode runs the job on
    ** `procs`. The job runs on anything from min_procs to procs (its ideal)
    ** and may be grown or shrunk while it runs (GROW, SHRINK); 0 means
    ** procs: a rigid job. `estimate` is its walltime on `procs`; on fewer
    ** the engine scales it by the execution model. */
    int32_t min_procs;
    /* Bytes an adaptation of the job redistributes: a GROW or SHRINK
    ** suspends it for malleable.adapt_latency + malleable.adapt_per_byte x
    ** adapt_bytes / (processors it held) ([Weissman03] §4.1). */
    int64_t adapt_bytes;
    /* [Feitelson97]'s job class (ABI 6), under [classes]: its number, counting
    ** [[classes.class]] from 1 (rota_class_find() maps a name); 0 means
    ** classes.default. Anything but 0 without [classes] is ROTA_EINVAL. */
    int32_t job_class;
    /* What production tells a scheduler besides the user: the account the
    ** job is charged to, the partition it asked for, its quality of
    ** service. Policies see all three (docs/lua-api.md). On a machine with
    ** [[machine.partitions]] the engine runs the job on the nodes of one of
    ** the partitions `partition` names, separated by commas as Slurm's
    ** --partition has them (none: the default partitions, or any node if no
    ** partition is a default); an unknown name rejects the job at the next
    ** pass, naming it. Without partitions it is only a label. NULL or ""
    ** means none. Each is copied by the call (the caller's string need not
    ** outlive it), at most 255 bytes, with no control character (bytes
    ** 0x01-0x1f, 0x7f): ROTA_EINVAL otherwise. Added in ABI 7. */
    const char* account;
    const char* partition;
    const char* qos;
    /* Constraints (ABI 10; docs/design.md, "Constraints"). `begin`: the job
    ** does not start, and holds no reservation, before this engine time (0:
    ** none; its window from then must fit the time axis). `include`: nodes
    ** its allocation must contain (Slurm's --nodelist; at most `procs`
    ** nodes); `exclude`: nodes it must avoid (--exclude); runs inside the
    ** machine, none in both, and not on a machine with clusters, buddy
    ** packing, migration or [malleable] (ROTA_EINVAL). `depends`: jobs it waits for,
    ** all of them (at most 1024): until they are met the job is
    ** ROTA_JOB_WAITING, then it goes to admission as if submitted then; a
    ** dependency that can never be met (on a job that failed, or that the
    ** engine does not know: never submitted, or ended more than
    ** scheduler.min_job_age ago) rejects it at the next pass with the
    ** reason. NULL with a count of 0 for none. */
    rota_time begin;
    int32_t ninclude;
    const rota_node_run* include;
    int32_t nexclude;
    const rota_node_run* exclude;
    int32_t ndepends;
    const rota_dependency* depends;
} rota_job;

/* Set the engine's clock to `t`. Fails with ROTA_ETIME if t is before the
** current time, ROTA_EINVAL if t is past the time axis (2^61 - 1
** microseconds, about 73,000 years: a quarter of the range, so that a time
** plus a window cannot overflow). With one row, running jobs whose estimate has expired by
** `t` (start + estimate <= t) are killed: each gives a ROTA_ACTION_KILL
** action timed at its expiry. A job that runs exactly as long as its
** estimate is therefore killed, not reported with rota_job_end. With more
** rows only the embedder knows how long a job has executed, so it ends the
** job itself (rota_job_end) when that reaches the estimate. Slice
** boundaries up to `t` are passed at once and only their net change is
** told, timed at the last boundary passed: a SWITCH if another row is
** active, a SUSPEND or RESUME for each job that left or entered it. A job
** switched out and in again within one advance is told nothing (the
** embedder, which applies actions after the advance, could not have
** stopped it), so one advance queues at most one SWITCH and one action per
** running job, however many boundaries it passes. */
ROTA_API int rota_advance(rota_engine* e, rota_time t);
/* The current time of the engine (0 when created). */
ROTA_API rota_time rota_now(const rota_engine* e);

/* Submit a job at the current time. It is considered at the next pass.
** ROTA_EINVAL for a negative id, procs <= 0, estimate <= 0, an estimate
** (times the rows) that could end past the time axis (now, plus the
** windows of every job the engine holds, which may all start before it,
** plus its own must stay on the axis; the message gives the room left), a
** wrong pool count,
** a `submitted` after now, or a bad class or name (each message says which),
** ROTA_EEXIST for a duplicate id. A job that can never fit the machine is
** accepted here and rejected (ROTA_ACTION_REJECT, with a reason) at the next
** pass. */
ROTA_API int rota_submit(rota_engine* e, const rota_job* job);
/* Take over a job that is already running on `runs` (nruns node runs)
** since `start` (<= now): a controller that restarts rebuilds its engine
** from its own state, submitting its waiting jobs (with `submitted`) and
** adopting its running ones. The job is then like one the engine started:
** its nodes are busy, its walltime ends at start + estimate (a KILL then),
** it ends with rota_job_end. No START is emitted. On a multi-cluster machine
** the runs must hold one component per cluster. Every reservation is placed
** anew at the next pass. Under gang scheduling the job goes to the active
** row if its nodes are free there, else to the next row where they are,
** and holds its place until start + estimate x MPL; whether it executes
** or is suspended now, the next pass says which it is to be: RESUME in
** the active row, SUSPEND in any other (adopting the jobs that execute now
** first puts them together in the active row). ROTA_EINVAL for a start after now, a
** walltime already over, runs that do not add up to `procs`, leave the
** machine or name a node twice; ROTA_ESTATE for a node that is busy (in every row) or out of
** service; ROTA_EEXIST for a known id. Added in ABI 4; gang scheduling
** since ABI 7. */
ROTA_API int rota_adopt(rota_engine* e, const rota_job* job, rota_time start,
                        const rota_node_run* runs, int32_t nruns);
/* A running job ended on its own (finished or failed) at the current time.
** ROTA_ENOTFOUND for an unknown id, ROTA_ESTATE if the job is not running. */
ROTA_API int rota_job_end(rota_engine* e, int64_t id);
/* The same, with the job's exit status: 0 is success, anything else a
** failure, which jobs that depend on it with ROTA_AFTER_OK learn (they are
** rejected at the next pass). rota_job_end(e, id) is rota_job_exit(e, id,
** 0). Added in ABI 10. */
ROTA_API int rota_job_exit(rota_engine* e, int64_t id, int status);
/* Withdraw a job in any state: waiting jobs leave the queue, running ones
** are considered stopped (the embedder stops them; no action is emitted).
** ROTA_ENOTFOUND for an unknown id. */
ROTA_API int rota_cancel(rota_engine* e, int64_t id);
/* Nodes leaving and rejoining service. A node out of service takes no
** job, in any row of the matrix; every reservation is then placed anew at
** the next pass (the one case where a reservation may move later). A job
** wider than the nodes in service waits for them. ROTA_EINVAL for a node
** out of range, ROTA_ESTATE for a node already in that state. Added in
** ABI 4; under gang scheduling since ABI 7. */
#define ROTA_NODE_KILL 0    /* the job on a node that goes down is killed (KILL) */
#define ROTA_NODE_REQUEUE 1 /* ... or sent back to the queue (REQUEUE) */
#define ROTA_NODE_DEFAULT 2 /* ... as the configuration's machine.node_down says (ABI 7) */
/* Node `node` is down now. The running jobs on it (under gang scheduling,
** one per row at most) are killed or requeued as `fate` says; their other
** nodes are free again. */
ROTA_API int rota_node_down(rota_engine* e, int32_t node, int fate);
/* Running job `id` stopped on the embedder's side and is to run again: a
** start that failed, a job the batch system requeued. Its nodes are free
** now and it waits again in its place in the queue (its arrival order and
** order key kept) for a new START; a REQUEUE action with `reason` (NULL:
** a default; cut at 1000 bytes) follows, as for rota_node_down with
** ROTA_NODE_REQUEUE, and rota_counters.requeued counts it. ROTA_ENOTFOUND
** for an unknown id, ROTA_ESTATE if it is not running. Added in ABI 7. */
ROTA_API int rota_job_requeue(rota_engine* e, int64_t id, const char* reason);
/* Node `node` takes no new job; it leaves service when the job on it
** ends (under gang scheduling, the last of the jobs in its cells; at once
** if idle). */
ROTA_API int rota_node_drain(rota_engine* e, int32_t node);
/* Node `node` is back in service (after a down or a drain). */
ROTA_API int rota_node_up(rota_engine* e, int32_t node);

/* [Weissman03] §3's sensing (ABI 5): running job `id` has done `done` (in
** [0, 1]) of its work, as the application measured it. Policies read it
** (`progress`); under the iScheduler the job's expected end, hence its
** walltime, becomes now + the rest of its work at its current size.
** ROTA_EINVAL for a fraction outside [0, 1], ROTA_ESTATE if it is not
** running. */
ROTA_API int rota_job_progress(rota_engine* e, int64_t id, double done);

/* [Feitelson97] §4.5, gangster's user controls (ABI 6), under [classes] only
** (ROTA_ESTATE otherwise). rota_job_suspend: a loaded job's state goes to
** disk (a SWAP_OUT action) and it loads again only after
** rota_job_resume; a waiting job keeps waiting until then
** (ROTA_JOB_SUSPENDED either way). ROTA_ESTATE for a job in any other
** state. rota_job_resume: the job waits to be loaded again, its wait
** counted from now; ROTA_ESTATE if it is not suspended. */
ROTA_API int rota_job_suspend(rota_engine* e, int64_t id);
ROTA_API int rota_job_resume(rota_engine* e, int64_t id);
/* Move job `id` to class number `job_class` (from 1, as in rota_job). Its
** priority, limits and maximum wait are the new class's from the next
** pass; a loaded job's do-not-disturb time becomes the new class's,
** counted from when it was loaded. ROTA_EINVAL for an unknown class,
** ROTA_ESTATE without [classes]. */
ROTA_API int rota_job_set_class(rota_engine* e, int64_t id, int32_t job_class);

/* Run one scheduling pass: admission and order of new jobs, then starts,
** reservations and backfilling as configured. Call it once after each batch
** of events with the same time. */
ROTA_API int rota_schedule(rota_engine* e);
/* The earliest time the engine needs to be advanced to even if no other
** event happens (a walltime expiry, a slice boundary, the start of a
** reservation, or, while jobs wait under an order policy whose keys age,
** the next re-key of the queue, or the time an admission policy held jobs
** until, {hold = t}: both added in ABI 6), in *t. Returns ROTA_DONE
** when there is none, with *t set to INT64_MAX, so that min(*t, next
** event) works without a branch. */
ROTA_API int rota_next_wakeup(const rota_engine* e, rota_time* t);

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */

#define ROTA_ACTION_START                                                              \
    1                        /* start `job` on `runs` now, in home `row`. With one row \
                             ** it runs from now on (after `delay`, see SWAP_OUT);     \
                             ** with more, it executes only once RESUME says so */
#define ROTA_ACTION_KILL 2   /* kill `job`: its estimate expired at `time` */
#define ROTA_ACTION_REJECT 3 /* `job` will never run here: `reason` says why */
/* More than one row (gang scheduling, [Zhang00] §4-5; never emitted with
** one row). After each pass the engine gives the net result for the matrix, in this
** order: UNREPLICATE (every row a job left, or held on columns it no longer
** has, with those old columns), MOVE, START (new jobs, in their final
** place), REPLICATE (every row a job now holds that it did not, with its
** columns), then MIGRATE (informational: what was checkpointed and
** restarted, and for how long), then SWITCH/SUSPEND/RESUME. Applied in this
** order, no action puts a job on cells another job still holds. A job's
** columns (`runs`) are the same in every row it holds. */
#define ROTA_ACTION_REPLICATE 4   /* `job` now also holds `row` (same columns) */
#define ROTA_ACTION_UNREPLICATE 5 /* `job` no longer holds `row` */
#define ROTA_ACTION_MOVE                                                            \
    6                         /* `job`'s home row is now `row`; which rows it holds \
                              ** is told by REPLICATE/UNREPLICATE */
#define ROTA_ACTION_SWITCH 7  /* `row` is the active row from `time` on; job = -1 */
#define ROTA_ACTION_SUSPEND 8 /* stop executing `job` (context switch out) */
#define ROTA_ACTION_RESUME 9  /* execute `job` (context switch in) */
/* Migration ([Zhang00] §5.4), informational: `job` was checkpointed and
** restarted by `option` 1 or 2 (from `from_row` to `row`, now on `runs`)
** and cannot make progress for `delay` (its share of eq. (4) or (5)). The
** cells it holds are told by UNREPLICATE/REPLICATE of the same pass. */
#define ROTA_ACTION_MIGRATE 10
/* `job` was stopped because a node it ran on went down (rota_node_down with
** ROTA_NODE_REQUEUE): the embedder stops it; it waits again in its place
** in the queue and will get a new START. `reason` says which node. ABI 4.
** (With ROTA_NODE_KILL the job gets a KILL, with a `reason`, instead.) */
#define ROTA_ACTION_REQUEUE 11
/* [Weissman03], under the iScheduler ([malleable]), ABI 5: a running job
** grows onto `runs` (GROW: `nnodes` more nodes) or gives `runs` up
** (SHRINK: `nnodes` fewer; they are free for another job at once). Either
** way it redistributes its data and makes no progress for `delay` (the
** adaptation cost the engine assumed; its expected end moved accordingly).
** A harvest is SHRINKs of its victims followed by the START they made room
** for. */
#define ROTA_ACTION_GROW 12
#define ROTA_ACTION_SHRINK 13
/* [Feitelson97], under [classes], ABI 6. SWAP_OUT: `job` is preempted (or
** suspended by rota_job_suspend): its state goes to disk, which takes
** `delay` (classes.swap_time x nnodes / 2); it gives up `runs`. It waits
** again and comes back with SWAP_IN: its state is loaded onto `runs`
** (anywhere, not necessarily its old nodes) and it makes no progress for
** `delay`. A START or SWAP_IN onto nodes whose former job is still being
** written out carries that wait in its `delay` too. Its walltime counts
** only the time it computed. */
#define ROTA_ACTION_SWAP_OUT 14
#define ROTA_ACTION_SWAP_IN 15

/* Set size = sizeof(rota_action) before calling rota_next_action(). */
typedef struct rota_action {
    size_t size;
    int type; /* ROTA_ACTION_* */
    int64_t job;
    rota_time time;            /* when it takes effect */
    int32_t row;               /* Ousterhout matrix row; 0 under space sharing */
    int32_t nnodes;            /* START, GROW, SHRINK, SWAP_*: number of nodes */
    int32_t nruns;             /* START, GROW, SHRINK, SWAP_*: number of runs in `runs` */
    const rota_node_run* runs; /* START, GROW, SHRINK, SWAP_*: the nodes, lowest first */
    const char* reason;        /* REJECT: why; else NULL */
    int32_t option;            /* MIGRATE: 1 or 2 */
    rota_time delay;  /* MIGRATE, GROW, SHRINK, SWAP_*, START: time the job makes no progress */
    int32_t from_row; /* MIGRATE: the row the job held before (== row if it stays) */
    /* START on a multi-cluster machine: the cluster (0-based,
    ** [[machine.clusters]] order) of each of the `nruns` runs; the runs on
    ** one cluster are one component. NULL without clusters. ABI 4. */
    const int32_t* run_cluster;
} rota_action;

/* Pop the oldest pending action into *out: ROTA_OK, or ROTA_DONE when none
** is left. `runs` and `reason` stay valid until the next event call. */
ROTA_API int rota_next_action(rota_engine* e, rota_action* out);

/* ------------------------------------------------------------------------ */
/* Queries (read-only, at any time)                                          */

#define ROTA_JOB_PENDING 0 /* submitted, not yet through admission */
#define ROTA_JOB_HELD 1    /* admission said hold: asked again each pass */
#define ROTA_JOB_QUEUED 2
#define ROTA_JOB_RUNNING 3   /* under [classes]: loaded */
#define ROTA_JOB_SUSPENDED 4 /* rota_job_suspend()ed, until rota_job_resume() (ABI 6) */
#define ROTA_JOB_WAITING 5   /* waits for its dependencies (rota_job.depends, ABI 10) */

typedef struct rota_job_info {
    size_t size;
    int64_t id;
    int state;                /* ROTA_JOB_* */
    rota_time submit;         /* engine time of rota_submit */
    rota_time start;          /* RUNNING: start time; else -1 */
    rota_time reserved_start; /* QUEUED with a reservation: its start; else -1 */
    rota_time estimate;
    int32_t procs;
    int32_t jumps; /* times jumped while at the queue head */
    /* [Weissman03] (ABI 5). */
    int32_t nodes;     /* RUNNING: nodes it runs on now (procs but under the iScheduler); else 0.
                       ** Under gang.packing = "buddy" it holds its whole block of the matrix
                       ** (rota_matrix_row) and runs on the first procs nodes of it. */
    int32_t min_procs; /* the fewest it runs on (procs for a rigid job) */
    int32_t harvests;  /* harvest events it suffered */
    double progress;   /* RUNNING: share of its work done, [0, 1], reported or estimated */
    /* [Feitelson97], under [classes] (ABI 6); else -1 and 0. */
    int32_t job_class;        /* its class index */
    int32_t preemptions;      /* times it was swapped out for another job */
    int32_t on_disk;          /* 1: its state is on disk (swapped out or suspended after running) */
    int32_t reserved;         /* 1: pass 1 holds a processor set for it */
    rota_time executed;       /* time it computed before its current load */
    rota_time dnd_end;        /* RUNNING: from when it may be swapped out (its
                                 do-not-disturb time, or later if it has not yet
                                 executed as long as its load took); else -1 */
    rota_time wait_since;     /* waiting: since when it waits to be loaded; else -1 */
    rota_time swapping_until; /* its state is being written to disk until then; else -1 */
    /* As submitted (rota_job), "" for none, never NULL; valid while the
    ** engine lives. Added in ABI 7. */
    const char* account;
    const char* partition;
    const char* qos;
    /* ABI 10: its begin time (0: none); WAITING: how many of its
    ** dependencies are not met yet and, once they all are, when it goes to
    ** admission (else -1). */
    rota_time begin;
    int32_t unmet;
    rota_time eligible;
} rota_job_info;

/* Information on a job the engine still holds (finished, killed, rejected
** and cancelled jobs are forgotten: ROTA_ENOTFOUND). */
ROTA_API int rota_job_info_get(const rota_engine* e, int64_t id, rota_job_info* out);

/* The list queries below copy up to `cap` values into `out` and set *n to
** the full count. With cap == 0 (and `out` NULL) they only count: ROTA_OK
** and *n. With 0 < cap < *n they fill `out` and return ROTA_ERANGE (call
** again with a bigger buffer). */

/* Waiting jobs, in the order the queue policy gives. */
ROTA_API int rota_queue(const rota_engine* e, int64_t* out, size_t cap, size_t* n);
/* Jobs held by admission. */
ROTA_API int rota_held(const rota_engine* e, int64_t* out, size_t cap, size_t* n);
/* Running jobs, by start time. */
ROTA_API int rota_running(const rota_engine* e, int64_t* out, size_t cap, size_t* n);
/* The nodes a running job runs on, one number each, in increasing order:
** those its START named (under gang.packing = "buddy", the first procs
** nodes of the block it holds). ROTA_ESTATE if it is not running. */
ROTA_API int rota_job_nodes(const rota_engine* e, int64_t id, int32_t* out, size_t cap, size_t* n);
/* Idle nodes, in increasing order (gang scheduling: the free columns of
** the active row). */
ROTA_API int rota_free_nodes(const rota_engine* e, int32_t* out, size_t cap, size_t* n);

typedef struct rota_reservation {
    size_t size;
    int64_t job;
    rota_time start;
    rota_time end; /* start + estimate (x MPL under gang scheduling) */
    int32_t procs;
    int32_t row; /* 0 under space sharing */
} rota_reservation;

/* Reservations held by waiting jobs, in queue order. When cap > 0 the
** caller sets out[0].size = sizeof(rota_reservation) (0 also means that):
** the library uses it as the element stride and fills only the fields that
** fit, setting each element's size. */
ROTA_API int rota_reservations(const rota_engine* e, rota_reservation* out, size_t cap, size_t* n);

/* The demand of a job the engine still holds on each pool, in
** [[machine.pools]] order (what rota_submit was given; a running job holds
** it, a reservation promises it). *n is the machine's pool count. */
ROTA_API int rota_job_pools(const rota_engine* e, int64_t id, int64_t* out, size_t cap, size_t* n);
/* Pool `pool` (0-based, [[machine.pools]] order) over time, from now: step i
** starts at times[i] (times[0] is the current time) and has free[i] of the
** pool neither held by a running job nor promised to a reservation until
** step i + 1 starts; the last step lasts forever. Equal neighbours are
** merged. ROTA_EINVAL for a pool out of range, ROTA_ERANGE as the lists
** above. */
ROTA_API int rota_pool_profile(const rota_engine* e, int32_t pool, rota_time* times, int64_t* free,
                               size_t cap, size_t* n);

typedef struct rota_machine_info {
    size_t size;
    int32_t procs; /* nodes (columns) */
    int32_t rows;  /* matrix rows (multiprogramming level); 1 = space sharing */
    int32_t npools;
    int32_t reservation_depth; /* per row; -1 = unlimited */
    int32_t backfill;          /* 0: never backfills (FCFS, GS, [classes], [malleable]) */
    int32_t migration;         /* 1: migration between rows (MGS, MBGS) */
    rota_time slice;           /* time-slice length when rows > 1; else 0 */
    int32_t nclusters;         /* [[machine.clusters]]; 0 for a single machine. ABI 4 */
    int32_t nclasses;          /* [[classes.class]]; 0 without [classes]. ABI 6 */
} rota_machine_info;

/* The machine and the pass as configured (presets resolved). */
ROTA_API int rota_machine_info_get(const rota_engine* e, rota_machine_info* out);

/* One cluster of a multi-cluster machine ([Ngubiri07] §2.1). Cluster c owns
** the consecutive nodes first .. first + nodes - 1, in [[machine.clusters]]
** order. */
typedef struct rota_cluster_info {
    size_t size;
    int32_t first;    /* its lowest node number */
    int32_t nodes;    /* how many nodes it has */
    int32_t idle;     /* how many of them are idle now */
    const char* name; /* from the configuration ("" if unnamed); valid while the engine lives */
} rota_cluster_info;

/* A job class of [Feitelson97] §4.2 ([[classes.class]], ABI 6), with the
** values in force now (the period's, see rota_class_period()). */
typedef struct rota_class_info {
    size_t size;
    const char* name;   /* valid while the engine lives */
    int32_t priority;   /* higher is served first */
    rota_time max_wait; /* waiting longer gets a reservation (pass 1); INT64_MAX: never */
    rota_time dnd;      /* do-not-disturb time per processor */
    int32_t procs;      /* class processor limit; 0: none */
    int32_t preemptable;
    int32_t loaded; /* processors its loaded jobs hold now */
} rota_class_info;

/* Class number `job_class` (1 .. nclasses). ROTA_EINVAL if there is no
** such class (or no [classes]). */
ROTA_API int rota_class_info_get(const rota_engine* e, int32_t job_class, rota_class_info* out);
/* The number (from 1) of the class named `name` in *out; ROTA_ENOTFOUND
** if none. */
ROTA_API int rota_class_find(const rota_engine* e, const char* name, int32_t* out);
/* The name of the [[classes.period]] in force now, "" for the base set
** (and without [classes]). Valid while the engine lives. */
ROTA_API const char* rota_class_period(const rota_engine* e);

/* Cluster `c` (0-based). ROTA_EINVAL for a cluster out of range (every
** cluster is out of range on a machine without [[machine.clusters]]). */
ROTA_API int rota_cluster_info_get(const rota_engine* e, int32_t c, rota_cluster_info* out);
/* The cluster of each component of a job, in the order it was submitted:
** where it runs (RUNNING) or where its reservation holds it (QUEUED with a
** reservation), list protocol above. ROTA_ESTATE if it is neither, or the
** machine has no clusters. */
ROTA_API int rota_job_clusters(const rota_engine* e, int64_t id, int32_t* out, size_t cap,
                               size_t* n);

/* The Ousterhout matrix. With one row (space sharing) it holds the running
** jobs. */

/* The active row: the one executing now. */
ROTA_API int rota_active_row(const rota_engine* e, int32_t* row);
/* The job in each column of `row` (-1 for an empty cell): writes up to cap
** ids into out and sets *n to the number of columns. Under gang.packing =
** "buddy" a job holds every cell of its block, the ones it leaves idle
** too. ROTA_EINVAL for a row out of range. */
ROTA_API int rota_matrix_row(const rota_engine* e, int32_t row, int64_t* out, size_t cap,
                             size_t* n);
/* The free columns of `row`, in increasing order (list protocol above).
** ROTA_EINVAL for a row out of range. */
ROTA_API int rota_row_free_nodes(const rota_engine* e, int32_t row, int32_t* out, size_t cap,
                                 size_t* n);
/* A running job's home row and the rows it holds, as a bit mask (bit r set
** for row r). ROTA_ESTATE if it is not running. */
ROTA_API int rota_job_rows(const rota_engine* e, int64_t id, int32_t* home, uint32_t* mask);

typedef struct rota_counters {
    size_t size;
    uint64_t passes, submitted, started, backfilled, finished, killed, rejected, cancelled;
    uint64_t reloads, reload_failures;
    uint64_t migrations, migrated_tasks; /* jobs moved by migration, tasks they moved */
    /* Running jobs that outlived their window (estimate x rows, [Zhang00]
    ** §5.2) and were given one more cycle; only then may a reservation
    ** move later. */
    uint64_t window_extensions;
    uint64_t requeued; /* running jobs sent back to the queue by rota_node_down (ABI 4) */
    uint64_t adopted;  /* running jobs taken over with rota_adopt (ABI 4) */
    /* [Weissman03], ABI 5: arrivals that needed a harvest, those that got one,
    ** and the GROW and SHRINK actions. */
    uint64_t harvest_attempts, harvests, grows, shrinks;
    /* [Feitelson97], ABI 6: SWAP_OUTs of preempted jobs, SWAP_INs, and processor
    ** sets pass 1 reserved for jobs past their maximum wait. */
    uint64_t preemptions, swap_ins, class_reservations;
    /* Whole-queue calls of the order hook that succeeded (after each
    ** reload, and at scheduler.rekey_interval when the order policy's keys
    ** age), and those that changed the queue's order. Added in ABI 6. */
    uint64_t rekeys, resorts;
    /* Reservations a compression moved earlier when capacity came back
    ** (conservative backfilling, BGS): most of a deep queue's pass, which
    ** scheduler.reservation_depth bounds. Added in ABI 8. */
    uint64_t reservations_moved;
    /* New counters are appended here; per-hook figures are rota_hook_stats_get(). */
} rota_counters;

/* The engine's counters since it was created: fills the fields of *out
** that fit in out->size (the caller sets it to sizeof(rota_counters) as it
** knows it; out->size is left as it was). ROTA_EINVAL for a NULL engine,
** a NULL out or a size smaller than the size field itself; ROTA_ESTATE for
** an engine that was not created or a call from inside one of its
** callbacks. */
ROTA_API int rota_counters_get(const rota_engine* e, rota_counters* out);

/* What a user's jobs have used (docs/design.md, "Usage"), as every
** policy's context sees it. Added in ABI 6. */
typedef struct rota_user_info {
    size_t size;
    double usage;    /* processor-seconds of its jobs, running ones up to now,
                     ** decayed with scheduler.usage_half_life */
    int32_t procs;   /* processors its running jobs hold now */
    int32_t running; /* its running jobs */
} rota_user_info;

/* The usage of user `user` (a rota_job.user); zeros for a user that never
** ran a job. Added in ABI 6. */
ROTA_API int rota_user_info_get(const rota_engine* e, int32_t user, rota_user_info* out);
/* The users that have run a job, in increasing order (list protocol
** above). Added in ABI 6. */
ROTA_API int rota_users(const rota_engine* e, int32_t* out, size_t cap, size_t* n);

/* The policy hooks, in the order the engine declares them
** (engine/vocabulary.h); new hooks get new numbers, never reused. */
#define ROTA_HOOK_ADMISSION 0
#define ROTA_HOOK_ORDER 1
#define ROTA_HOOK_BACKFILL_SELECT 2
#define ROTA_HOOK_MIGRATION_OPTION 3
/* [Ngubiri07] §3, ABI 4: on a multi-cluster machine, the cluster of each
** component of a job as it starts (not by a reservation); Worst Fit when no
** policy is configured or an answer is refused. Lua only for now
** (docs/lua-api.md, "placement"). */
#define ROTA_HOOK_PLACEMENT 4
/* [Weissman03] §2.2, ABI 5, under the iScheduler ([malleable]); Lua only for
** now (docs/lua-api.md, "harvest" and "distribution"). harvest: which
** running jobs give up how many processors so that an arriving job reaches
** its min (fallback: never harvest). distribution: who gets the
** processors a termination freed (fallback: favor queued). */
#define ROTA_HOOK_HARVEST 5
#define ROTA_HOOK_DISTRIBUTION 6
/* [Feitelson97] §4.3, ABI 6, under job classes ([classes]); Lua only for now
** (docs/lua-api.md, "preempt"): which candidate processor set a job past
** its class's maximum wait gets reserved, its victims swapped out as their
** do-not-disturb times end, or none (fallback: the lowest-cost set). */
#define ROTA_HOOK_PREEMPT 7
#define ROTA_HOOK_COUNT 8 /* hooks this header knows; the library may know more */

/* The name of hook number `hook` ("backfill_select"), which is also its
** configuration table ([policy.backfill_select]); NULL past the last hook
** the library knows, so a loop until NULL covers every hook. */
ROTA_API const char* rota_hook_name(int hook);

typedef struct rota_hook_stats {
    size_t size;
    uint64_t calls;       /* calls made to the hook's policy */
    uint64_t failures;    /* calls that failed (error, budget, invalid answer) */
    uint64_t nanoseconds; /* wall time spent in the calls */
    /* The circuit breaker (ABI 4): after policy.quarantine_after consecutive
    ** failures a hook is quarantined: its fallback applies without a call
    ** for policy.quarantine_time of engine time, or until
    ** rota_reload_policies() succeeds or the hook's policy is replaced. */
    uint64_t skipped;    /* times its fallback was used without a call */
    int32_t quarantined; /* 1 while quarantined */
} rota_hook_stats;

/* Statistics of one hook. ROTA_EINVAL for a hook number the library does
** not know. A hook without a policy (the built-in default) is never
** called: its calls stay 0. */
ROTA_API int rota_hook_stats_get(const rota_engine* e, int hook, rota_hook_stats* out);

/* The file the policy script of `hook` was loaded from, as the engine
** found it (relative names resolved against base_dir, policy.search_path,
** ROTA_POLICY_PATH and the shipped policies); NULL when the hook has no
** script (the built-in default, or a native backfill_select installed
** with rota_set_backfill_select), for a hook number the library does not
** know, or for a NULL engine. An embedder that writes files can check them
** against it, as `rota simulate` does with its outputs. The string is the
** engine's, valid until the next call of rota_hook_script on the engine,
** a reload, a reconfiguration or rota_engine_free. Added in ABI 9. */
ROTA_API const char* rota_hook_script(const rota_engine* e, int hook);

/* ------------------------------------------------------------------------ */
/* Policies                                                                  */

/* Recompile every configured policy script from disk. Only if all load,
** compile and pass a dry run are they swapped in; otherwise the running
** ones stay and ROTA_ESCRIPT is returned with file and line in the message.
** After a successful reload the queue is re-keyed by the order script and
** re-sorted at once (added in ABI 6).
** Call it between passes (any time the engine is not inside a call). */
ROTA_API int rota_reload_policies(rota_engine* e);

/* Replace the engine's configuration by `config_toml` while it runs: the
** policy scripts and their parameters ([policy.*]), the Lua limits, and
** the tunables (machine.node_down, scheduler.rekey_interval,
** policy.quarantine_after, policy.quarantine_time, policy.pass_budget,
** gang.migration_cost, gang.migration_q). Everything that shapes the
** machine or the pass must stay as it is: the machine's procs, pools and
** clusters, the rows and slice, backfill, reservation depth, migration,
** usage half-life, [malleable] and [classes]; a change there is
** ROTA_ECONFIG naming the key (restart the engine for it: rota_adopt()).
** All or nothing, as rota_reload_policies(): the new configuration is
** parsed, its scripts loaded, compiled and dry-run aside, and only if all
** of that succeeds is it swapped in, the queue re-keyed and every
** quarantine lifted; otherwise the engine is unchanged and the status is
** ROTA_ECONFIG or ROTA_ESCRIPT. Relative script paths are looked up as at
** creation (the same base_dir). A native backfill_select stays installed.
** Counted as a reload (rota_counters.reloads, reload_failures). Call it
** between passes. Added in ABI 7. */
ROTA_API int rota_reconfigure(rota_engine* e, const char* config_toml);

/* A batch of jobs handed to a native policy: parallel arrays of `n`
** entries, the same columns a Lua policy sees (docs/lua-api.md), valid
** during the call only. `size` is set by the library; fields past it do
** not exist in the library you run with. */
typedef struct rota_batch {
    size_t size;
    size_t n;
    const int64_t* id;
    const int32_t* procs;      /* processors requested */
    const rota_time* estimate; /* requested time (walltime) */
    const rota_time* submit;   /* submit time */
    const int32_t* user;       /* user id, -1 if none */
    const int32_t* priority;   /* priority given at submission */
    /* [Leinberger99]'s demand matrix: each job's requirement of each of the K
    ** resources (processors, then the pools in [[machine.pools]] order) as
    ** a share of the resource's capacity, in [0, 1]. Job-major: R_ij is
    ** R[j * resources + i]. Added in ABI 3. */
    int32_t resources; /* K = 1 + the number of pools */
    const double* R;
    /* [Feitelson97]'s job classes, added in ABI 6; 0 for every job without
    ** [classes]. */
    const int32_t* job_class;      /* class number, from 1 in configuration order */
    const int32_t* class_priority; /* its class's priority in the parameter set in force */
    /* Each job's account, partition and QOS (rota_job), "" for none, never
    ** NULL. The engine interns names: within an engine equal names are the
    ** same pointer, valid while the engine lives, so a policy may compare
    ** pointers once it has found the one it looks for with strcmp. Added
    ** in ABI 7. */
    const char* const* account;
    const char* const* partition;
    const char* const* qos;
} rota_batch;

/* What a backfill_select policy knows of the pass (the fields of the Lua
** ctx of that hook). */
typedef struct rota_backfill_context {
    size_t size;
    rota_time now;
    int32_t machine_procs; /* columns of the matrix */
    int32_t rows;          /* rows of the matrix; 1 = space sharing */
    int32_t free_procs;    /* idle processors (free columns of the active row) */
    int32_t queue_length;
    int32_t running;
    int64_t head_id; /* the first job that could not start, -1 if none */
    int32_t head_procs;
    int32_t head_jumps;    /* times it was jumped while at the head (FPFS) */
    rota_time shadow_time; /* start of its reservation, -1 if none */
    int32_t head_row;      /* row of that reservation, -1 if none */
    int32_t extra_procs;   /* free in that row at the shadow time */
    /* [Leinberger99] §3's view of the K resources, processors first then the
    ** pools; each array holds `resources` values. Added in ABI 3. */
    int32_t resources;         /* K = 1 + the number of pools */
    const int64_t* capacity;   /* each resource's capacity */
    const double* usage;       /* S_i: share in use now, in [0, 1] */
    const double* head_demand; /* the head's R_i; NULL if there is no head */
    const double* extra;       /* share free at the shadow time once the head's
                               ** reservation holds its part; NULL if no shadow */
    /* The engine's usage records (rota_user_info_get): every user that has run
    ** a job, `users` of them, in increasing user id order, each array
    ** holding `users` values (NULL when there are none). Usage is
    ** processor-seconds of the user's jobs, running ones counted up to
    ** now, decayed with scheduler.usage_half_life. Added in ABI 6. */
    int32_t users;
    double total_usage;          /* of every user */
    const int32_t* user_ids;     /* the users */
    const double* user_usage;    /* each one's processor-seconds */
    const int32_t* user_procs;   /* processors its running jobs hold now */
    const int32_t* user_running; /* its running jobs */
    /* Who the head is: its user (-1 if none or no head), account,
    ** partition and QOS ("" if none or no head; valid during the call).
    ** Added in ABI 7. */
    int32_t head_user;
    const char* head_account;
    const char* head_partition;
    const char* head_qos;
} rota_backfill_context;

/* A backfill_select policy written in C: `c` holds the candidates (jobs
** behind the blocked head that fit now without delaying any reservation),
** in queue order. Write up to c->n 0-based indices of the candidates to
** start, in order, into picks[] and return how many. A negative return, an
** index out of range or an index given twice is a failure: counted,
** logged, and no backfill this pass. */
typedef int (*rota_backfill_select_fn)(void* ud, const rota_batch* c,
                                       const rota_backfill_context* ctx, uint32_t* picks);

/* Flags of rota_set_backfill_select. */
#define ROTA_STREAM                                                   \
    1 /* the policy decides in queue order without looking at later   \
      ** candidates (first fit, FPFS): it may be called several times \
      ** a pass, each time with the next candidates, until it picks   \
      ** none or nothing more can start */

/* Install a native backfill_select policy, replacing the configured one
** (NULL restores the configuration's). It stays installed across
** rota_reload_policies(). `flags` is 0 or ROTA_STREAM. ROTA_EINVAL for
** other flags, and for a policy on an engine that never backfills
** (scheduler.backfill false: FCFS, GS, MGS; [malleable], whose iScheduler
** starts no job past a blocked one), which would never call it. Under
** [classes] it chooses among the jobs pass 2 could load on idle
** processors. It is rota_set_policy(e, ROTA_HOOK_BACKFILL_SELECT, ...)
** with the structs above. */
ROTA_API int rota_set_backfill_select(rota_engine* e, rota_backfill_select_fn fn, void* ud,
                                      int flags);

/* Policies in C for every hook (ABI 10). A C policy sees what a Lua
** script sees (docs/lua-api.md): the hook's batch, by column name, and its
** context, by field name, read through the rota_call_* functions during
** the call; it answers through them too. Its answer is checked as a
** script's is, and a failure (a nonzero return, an invalid answer) is
** counted, logged and quarantined like a script's (docs/design.md,
** "Policies and their contract"), with the hook's fallback applied. */
typedef struct rota_call rota_call;
/* Answer `c`, return 0; nonzero is a failure of the call. The policy must
** not call into the engine (ROTA_ESTATE) and must not keep `c`. */
typedef int (*rota_policy_fn)(void* ud, rota_call* c);
/* Install `fn` as hook `hook`'s policy (ROTA_HOOK_*), over the
** configuration's script for it; NULL gives the hook back to its script,
** or to the engine's default. It stays installed across
** rota_reload_policies(). `flags`: 0, or ROTA_STREAM for backfill_select.
** ROTA_EINVAL for an unknown hook or flag, or a hook this engine never
** calls (backfill_select without backfilling, as rota_set_backfill_select
** says; migration_option without gang.migration; placement without
** clusters; harvest and distribution without [malleable]; preempt without
** [classes]). */
ROTA_API int rota_set_policy(rota_engine* e, int hook, rota_policy_fn fn, void* ud, int flags);

/* The types of columns and fields. */
#define ROTA_TYPE_INT32 1
#define ROTA_TYPE_INT64 2 /* ids, times (microseconds) and amounts */
#define ROTA_TYPE_DOUBLE 3
#define ROTA_TYPE_STRING 4 /* const char*, "" for none: names (account, partition, qos) */

/* The hook called (ROTA_HOOK_*) and the rows of its batch: jobs
** (admission, order, backfill_select, placement), candidate moves
** (migration_option), running and queued malleable jobs (harvest,
** distribution) or processor sets (preempt). */
ROTA_API int rota_call_hook(const rota_call* c);
ROTA_API size_t rota_call_rows(const rota_call* c);
/* The batch's column `name` (docs/lua-api.md lists each hook's): a
** pointer to rota_call_rows() values of the type set in *type; NULL (and
** *type 0) if the batch has no such column. Job batches also have "R",
** the demand matrix (rows x resources doubles, processors first, then
** each pool, as shares of the capacities), and for placement
** "component_first" (rows + 1 int32) and "component_width", the widths of
** job i's components being component_width[component_first[i] ..
** component_first[i + 1] - 1]. */
ROTA_API const void* rota_call_column(rota_call* c, const char* name, int* type);
/* The context's field `name` (docs/lua-api.md lists each hook's): a
** number (rota_call_int for integers and times: a time that is absent,
** such as a shadow time without a reservation, reads -1; rota_call_double
** for any number), a name (rota_call_string), an array (rota_call_array:
** *n values of the type set in *type, NULL when empty), or a per-user
** figure (rota_call_user: user_usage, user_procs, user_running of a user
** id; 0 for a user never seen). ROTA_ENOTFOUND for a field the hook's
** context has not got, ROTA_EINVAL for one of another kind. */
ROTA_API int rota_call_int(const rota_call* c, const char* name, int64_t* out);
ROTA_API int rota_call_double(const rota_call* c, const char* name, double* out);
ROTA_API const char* rota_call_string(rota_call* c, const char* name);
ROTA_API const void* rota_call_array(rota_call* c, const char* name, int* type, size_t* n);
ROTA_API int rota_call_user(const rota_call* c, const char* name, int32_t user, double* out);
/* The answer, as a script returns it but counted from 0: backfill_select's
** candidates to start, in order; migration_option's option per move (0,
** 1, 2); placement's cluster for every component, job after job;
** harvest's processors to take from each victim (none: cannot harvest);
** distribution's processors for each job; preempt's set (none: no
** reservation this pass). ROTA_EINVAL for another hook. */
ROTA_API int rota_call_answer(rota_call* c, const int64_t* values, size_t n);
/* order's key for each job (lower runs first). */
ROTA_API int rota_call_answer_keys(rota_call* c, const double* keys, size_t n);
/* admission's decision for job `i` (0-based): ROTA_ACCEPT, ROTA_HOLD (to be
** asked again at every pass, and at `until` if >= 0) or ROTA_REJECT with
** a reason (copied). A job not decided is accepted. */
#define ROTA_ACCEPT 0
#define ROTA_HOLD 1
#define ROTA_REJECT 2
ROTA_API int rota_call_answer_admission(rota_call* c, size_t i, int decision, const char* reason,
                                        rota_time until);

/* Where the engine's log lines go (rota_log_fn above). NULL silences
** them. */
ROTA_API int rota_set_log(rota_engine* e, rota_log_fn fn, void* ud);
/* Deliver only lines of `level` or more severe (ROTA_LOG_ERROR ..
** ROTA_LOG_DEBUG); 0 delivers none. ROTA_EINVAL outside 0..4. The
** default is ROTA_LOG_INFO. Added in ABI 7. */
ROTA_API int rota_set_log_level(rota_engine* e, int level);
/* The default log sink: writes "rota: <line>" to stderr, "rota: error: "
** and "rota: warning: " for those levels; `ud` is ignored. */
ROTA_API void rota_log_stderr(void* ud, int level, const char* line);

/* ------------------------------------------------------------------------ */
/* Snapshots                                                                 */

/* A controller that restarts keeps its engine: rota_snapshot writes what
** decides the engine's future actions (the clock, every job it holds with
** its place in the queue, reservations exactly where they are, node
** states, usage, counters, the policies' quarantines), and rota_restore
** builds an engine that then acts exactly as the first would have. The
** format is text, versioned and documented in docs/snapshot.md. Lua
** scripts are loaded again from the configuration: their own globals are
** not saved. Added in ABI 7. */

/* Receives the snapshot in pieces, in order; `len` > 0. A nonzero return
** stops rota_snapshot, which then returns ROTA_EABORT. */
typedef int (*rota_writer_fn)(void* ud, const void* data, size_t len);

/* Write a snapshot of `e` through `w`. The engine is not changed.
** ROTA_ESTATE when actions are still to be pulled (take them with
** rota_next_action until ROTA_DONE first: a snapshot never holds an
** action). Every mode is covered: space sharing (with pools and
** clusters), gang scheduling, [classes] and [malleable]. ROTA_EINVAL
** for a NULL writer; ROTA_EABORT when the writer returned nonzero (what was
** written by then is not a snapshot). Added in ABI 7. */
ROTA_API int rota_snapshot(const rota_engine* e, rota_writer_fn w, void* ud);

/* Create an engine from `config_toml` (as rota_engine_new_v2, with its
** `base_dir` and `options`, NULL for the defaults: a log sink and an
** allocator are the caller's, not the snapshot's) and the snapshot `data`
** of `len` bytes. The configuration
** must describe the same machine and mode as the snapshot's: node count,
** rows, pools, clusters, backfill and reservation depth; other keys
** (scripts, their parameters, quarantine, budgets) may differ. *out is set
** even on failure, to a handle whose rota_errmsg says why (free it with
** rota_engine_free). ROTA_EINVAL for data that is not a snapshot, of a
** newer format version, truncated or altered (its checksum), or
** inconsistent; ROTA_ECONFIG for a configuration error or one that does
** not match the snapshot's machine or mode. Added in ABI 7. */
ROTA_API int rota_restore(const char* config_toml, const char* base_dir,
                          const rota_engine_options* options, const void* data, size_t len,
                          rota_engine** out);

/* ------------------------------------------------------------------------ */
/* The live view                                                             */

/* [Feitelson97] §4.5's "gangster" display (its Fig. 8) as text, what `rota
** top` redraws (ABI 6). Lines of at most `width` characters (0 means 80;
** ROTA_EINVAL outside 40..1024), each ended by '\n':
**
**   - the header, one line (more if `width` is short): the engine time
**     ("time 1d 03:20:00"), the [[classes.period]] in force ("period
**     day"; "base" for the base set, "-" without [classes]), the nodes
**     loaded (busy in the active row) of the machine's ("loaded
**     224/256"), the processors of the jobs whose state is on disk
**     ("swapped 96"), the jobs listed and, while pass 1 holds processors
**     for a job, how many and its letter ("reserved 64 for c");
**   - the node map: one character per node, the letter of the job loaded
**     on it, '.' if idle, 'x' if out of service; rows of a power of two
**     nodes, as many as fit, each led by its first node's number, the
**     letters spaced as in Fig. 8 if 32 nodes or the whole machine fit a
**     row so (256 nodes at 80 columns: 8 rows of 32), packed otherwise;
**   - an empty line, then the job table, a line per job the engine holds,
**     by class priority, loaded jobs first within a class, then by id:
**     CLAS, its class in 4 characters (Int, Dbug, Prod, Bmrk, Stby for
**     [Feitelson97]'s classes, else the name's first 4; "-" without
**     [classes]); its letter and id; USER ("-" for -1); #PE, its
**     processors; ST, its state; MM:SS, the time it has executed
**     (rota_job_info.executed plus its current load's time since it
**     computes; with more than one row, the time since it started).
**
** Letters a..z then A..Z go first to the loaded jobs, then to the others,
** in table order; from the 53rd job on, '#'. ST follows Fig. 8's caption:
** N new (waiting, no processors assigned), W waiting with processors
** assigned (pass 1 holds them for it; or loaded while its nodes' former
** jobs are still being written out), R running, S suspended
** (rota_job_suspend), i swapping in (loaded, within its SWAP_IN delay), o
** swapping out (its state still being written to disk), O swapped out
** (waiting, its state on disk); and H, held by admission. Without
** [classes] a job is N, H or R. Jobs submitted since the last
** rota_schedule() are listed from the next.
**
** As snprintf: *n is set to the text's length in bytes, without the
** terminating NUL. With cap 0 (out may be NULL) nothing is written: a
** count, ROTA_OK. Otherwise up to cap - 1 bytes and a NUL are written,
** and ROTA_ERANGE returned if the text did not fit (cap <= *n): call
** again with cap = *n + 1. */
ROTA_API int rota_top(const rota_engine* e, int32_t width, char* out, size_t cap, size_t* n);

#ifdef __cplusplus
}
#endif

#endif /* ROTA_H */
