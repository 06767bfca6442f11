// rota's policy vocabulary, declared once: the hooks, the columns of the
// batches hooks receive, and the fields of each hook's context. Everything
// else derives from these lists: the Hook enum and its names (which are
// also the `[policy.<hook>]` configuration keys), the batch structs, the
// Lua batch and context views (lua/batch_view.cpp), the C ABI's batch and
// context structs (checked against these lists at compile time in
// capi/vocabulary_check.cpp) and the per-hook counters.
//
// Adding a column is one line here. Adding a hook is one line here and
// reaches a few more files (docs/design.md, "Asking a hook", lists them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "names.h"
#include "types.h"

namespace rota {

// X(hook, ID, Batch, Context, Answer, fallback): the hook's name, its
// ROTA_HOOK_<ID> in the C ABI, what it is handed (a batch and a context
// of the lists below) and answers, and what the engine does when a call
// fails (ARCHITECTURE §5). The Policy interface (policy.h), the Lua and C
// policies and the dry run at load are all written from this list.
// Append only: the position is the hook's number. What each answers:
// * admission: one Admission per job of the batch (new arrivals and held
//   jobs).
// * order: one sort key per job; lower keys run first, ties in arrival
//   order. Called with the jobs entering the queue, and with the whole
//   queue to re-key it (after a reload, and at an interval when the keys
//   age).
// * backfill_select: the candidates fit now without delaying any
//   reservation; the 0-based indices to start, in order; the engine starts
//   each that still fits.
// * migration_option: for each candidate move 0 (do not migrate), 1 or 2
//   (the option, [Zhang00] §5.4).
// * placement: for the jobs starting now, in start order, a cluster
//   (0-based) for every component, job after job ([Ngubiri07] §3); the
//   engine checks that each job's clusters are distinct and have room.
// * harvest: how many processors to take from each running victim, summing
//   to ctx.needed, none below its min ([Weissman03] §2.2); empty: cannot.
// * distribution: who gets the ctx.needed processors a termination freed,
//   one amount per job (running jobs grow up to their ideal; a queued job
//   starts between its min and ideal, or gets 0).
// * preempt: the 0-based index of the candidate processor set to reserve
//   for job ctx.job_id, past its class's wait limit ([Feitelson97] §4.3),
//   or nothing.
#define ROTA_HOOKS(X)                                                                             \
    X(admission, ADMISSION, JobBatch, CommonContext, Admissions, "accept every job of the batch") \
    X(order, ORDER, JobBatch, CommonContext, Keys, "FCFS: the key is the submit time")            \
    X(backfill_select, BACKFILL_SELECT, JobBatch, BackfillContext, Indices,                       \
      "no backfill this pass")                                                                    \
    X(migration_option, MIGRATION_OPTION, MigrationBatch, MigrationContext, Indices,              \
      "no migration in this phase")                                                               \
    X(placement, PLACEMENT, JobBatch, PlacementContext, Indices,                                  \
      "Worst Fit: the widest component to the freest cluster")                                    \
    X(harvest, HARVEST, MalleableBatch, MalleableContext, Indices,                                \
      "never harvest: the arriving job waits")                                                    \
    X(distribution, DISTRIBUTION, MalleableBatch, MalleableContext, Indices,                      \
      "favor queued jobs, then grow running ones")                                                \
    X(preempt, PREEMPT, PreemptBatch, PreemptContext, Indices,                                    \
      "the lowest-cost set ([Feitelson97] §4.3)")

// X(column, type, value of Job `j`, meaning): the columns of every batch of
// jobs (admission, order, backfill_select). Append only.
#define ROTA_JOB_COLUMNS(X)                                             \
    X(id, std::int64_t, j.spec.id, "job id")                            \
    X(procs, std::int32_t, j.spec.procs, "processors requested")        \
    X(estimate, Time, j.spec.estimate, "requested time (walltime), us") \
    X(submit, Time, j.submit, "submit time, us")                        \
    X(user, std::int32_t, j.spec.user, "user id, -1 if none")           \
    X(priority, std::int32_t, j.spec.priority, "priority given at submission")

// More columns of every batch of jobs, [Feitelson97]'s job classes: after the
// demand matrix in the C ABI's rota_batch (ABI 6), columns like the others
// in Lua. `class_priorities` is the JobBatch's own: each class's priority
// in the parameter set in force, set by the engine before it builds a
// batch; empty without [classes], when both read 0. Append only.
#define ROTA_JOB_COLUMNS_CLASSES(X)                                                     \
    X(job_class, std::int32_t, class_priorities.empty() ? 0 : j.cls + 1,                \
      "its class, numbered from 1 in configuration order; 0 without [classes]")         \
    X(class_priority, std::int32_t,                                                     \
      class_priorities.empty() ? 0 : class_priorities[static_cast<std::size_t>(j.cls)], \
      "its class's priority in the parameter set in force; 0 without [classes]")

// X(name, noun, what, ...): the names production gives a job, "" for none
// (engine/names.h interns them). Every batch and context that carries a
// job's names takes them from this list, each with its prefix (head_,
// job_, victim_), as do the job, its spec, the submission's check, the
// snapshot and the C ABI's job and job info: a new name is a row here and
// its fields in rota.h. The trailing argument is passed on to X.
#define ROTA_JOB_NAMES(X, ...)                                       \
    X(account, "account", "account it is charged to", __VA_ARGS__)   \
    X(partition, "partition", "partition it asked for", __VA_ARGS__) \
    X(qos, "QOS", "its quality of service (QOS)", __VA_ARGS__)
// The rows each list below makes of a name.
#define ROTA_NAME_COLUMN(field, noun, what, X) X(field, Name, j.field, what "; \"\" if none")
#define ROTA_NAME_BATCH_COLUMN(field, noun, what, X) X(field, Name, what "; \"\" if none")
#define ROTA_NAME_HEAD(field, noun, what, X) \
    X(head_##field, Name, "its " noun "; \"\" if none or no head")
#define ROTA_NAME_HARVEST_JOB(field, noun, what, X) \
    X(job_##field, Name, "harvest: its " noun "; \"\" if none (and for distribution)")
#define ROTA_NAME_JOB(field, noun, what, X) X(job_##field, Name, "its " noun "; \"\" if none")
#define ROTA_NAME_VICTIM(field, noun, what, X) \
    X(victim_##field, Names, "its " noun "; \"\" if none")

// More columns of every batch of jobs, the names: after the class columns
// in the C ABI's rota_batch (ABI 7), strings in both C and Lua, "" for
// none. The batch holds their numbers; `names` (the JobBatch's own, the
// engine's table) spells them.
#define ROTA_JOB_COLUMNS_NAMES(X) ROTA_JOB_NAMES(ROTA_NAME_COLUMN, X)

// More columns of every batch of jobs, the constraints a batch system gives
// (docs/design.md, "Constraints"): in Lua and through rota_call_column, not
// in the C ABI's rota_batch. Append only.
#define ROTA_JOB_COLUMNS_CONSTRAINTS(X) \
    X(begin, Time, j.spec.begin, "earliest start (Slurm's --begin), us; 0 if none")

// Every column of a batch of jobs, in the order Lua and the names list them.
#define ROTA_JOB_COLUMNS_ALL(X) \
    ROTA_JOB_COLUMNS(X)         \
    ROTA_JOB_COLUMNS_CLASSES(X) \
    ROTA_JOB_COLUMNS_NAMES(X)   \
    ROTA_JOB_COLUMNS_CONSTRAINTS(X)

// X(column, type, meaning): the candidate moves of a CollapseMatrix-2
// phase ([Zhang00] §5.4), for migration_option, each with its job's user
// and names.
#define ROTA_MIGRATION_COLUMNS(X)                                          \
    X(id, std::int64_t, "job id")                                          \
    X(procs, std::int32_t, "processors (columns) of the job")              \
    X(from_row, std::int32_t, "the row it leaves (0-based)")               \
    X(to_row, std::int32_t, "the row it would move to (0-based)")          \
    X(cost1, double, "overhead of option 1, eq. (4), processor-seconds")   \
    X(cost2, double, "overhead of option 2, eq. (5), processor-seconds")   \
    X(tasks1, std::int32_t, "tasks option 1 migrates (counted against Q)") \
    X(tasks2, std::int32_t, "tasks option 2 migrates (counted against Q)") \
    X(user, std::int32_t, "the job's user, -1 if none")                    \
    ROTA_JOB_NAMES(ROTA_NAME_BATCH_COLUMN, X)

// X(column, type, meaning): the jobs a harvest or a distribution may
// concern ([Weissman03] §2.2): running malleable jobs (harvest victims, or
// jobs that may grow) and, for distribution, queued jobs that could start.
#define ROTA_MALLEABLE_COLUMNS(X)                                                    \
    X(id, std::int64_t, "job id")                                                    \
    X(procs, std::int32_t, "processors held now; 0 if queued")                       \
    X(min, std::int32_t, "fewest processors it can run on")                          \
    X(ideal, std::int32_t, "processors it asked for, the most it is given")          \
    X(queued, std::int32_t, "1 if waiting to start, 0 if running")                   \
    X(age, Time, "running: time since it started; queued: time waited, us")          \
    X(time_left, Time, "estimated time to finish at its current size, us")           \
    X(harvests, std::int32_t, "harvest events it has suffered")                      \
    X(cost, double, "seconds one adaptation (grow or shrink) would suspend it now")  \
    X(progress, double, "fraction of its work done, [0, 1] (reported or estimated)") \
    X(user, std::int32_t, "user id, -1 if none")                                     \
    ROTA_JOB_NAMES(ROTA_NAME_BATCH_COLUMN, X)

// X(column, type, meaning): the candidate processor sets of a job past its
// class's maximum wait ([Feitelson97] §4.3), for preempt: one row per set. A
// set's victims are the entries first .. first + victims - 1 of the
// context's victim_* arrays.
#define ROTA_PREEMPT_COLUMNS(X)                                                         \
    X(procs, std::int32_t, "processors the set holds: idle ones and its victims'")      \
    X(idle, std::int32_t, "idle processors in it")                                      \
    X(victims, std::int32_t, "jobs it preempts")                                        \
    X(first, std::int32_t, "where its victims start in ctx.victim_* (1-based)")         \
    X(cost, double, "[Feitelson97] §4.3's cost: what the fallback takes the lowest of") \
    X(dnd_left, Time, "do-not-disturb time its slowest victim has left, us; 0 if none")

// X(field, type, meaning): what every hook's context holds.
#define ROTA_CONTEXT_COMMON(X)                                                                \
    X(now, Time, "engine time, us")                                                           \
    X(machine_procs, std::int32_t, "processors (matrix columns) of the machine")              \
    X(rows, std::int32_t, "rows of the matrix (MPL); 1 is space sharing")                     \
    X(free_procs, std::int32_t, "idle processors now (gang: free columns of the active row)") \
    X(queue_length, std::int32_t, "jobs waiting in the queue")                                \
    X(running, std::int32_t, "jobs running")

// X(field, type, meaning): what every hook's context holds about users,
// from the engine's usage records (engine/usage.h): after the common
// fields in Lua, at the end of rota_backfill_context in C (ABI 6). A
// UserFigures field is looked up by user id (in Lua a table filled as it
// is read, in C an array over the users).
#define ROTA_CONTEXT_USERS(X)                                                                  \
    X(users, std::int32_t, "users the engine has seen run a job")                              \
    X(total_usage, double, "processor-seconds used by every user's jobs (decayed)")            \
    X(user_usage, UserUsage, "per user: processor-seconds its jobs used, running ones to now") \
    X(user_procs, UserProcs, "per user: processors its running jobs hold now")                 \
    X(user_running, UserRunning, "per user: its running jobs")

// What backfill_select needs besides: the blocked head of the queue.
#define ROTA_CONTEXT_BACKFILL(X)                                                              \
    X(head_id, std::int64_t, "the first job in queue order that could not start, -1 if none") \
    X(head_procs, std::int32_t, "its processors")                                             \
    X(head_jumps, std::int32_t, "times it was jumped while at the head (FPFS)")               \
    X(shadow_time, MaybeTime, "start of its reservation; none if it has none")                \
    X(head_row, std::int32_t, "the row of its reservation, -1 if none")                       \
    X(extra_procs, std::int32_t, "processors free in that row at the shadow time")            \
    X(resources, std::int32_t, "K: processors, then each pool ([Leinberger99] §3)")           \
    X(capacity, Amounts, "each resource's capacity: processors, then each pool")              \
    X(usage, Shares, "S_i: share of each resource in use now, in [0, 1]")                     \
    X(head_demand, Shares, "the head's R_i, share of each capacity; empty if no head")        \
    X(extra, Shares, "share of each resource free at the shadow time; empty if no shadow")
// ...and who the head is (ABI 7: after the usage records in rota_backfill_context).
#define ROTA_CONTEXT_BACKFILL_HEAD(X)                                    \
    X(head_user, std::int32_t, "the head's user, -1 if none or no head") \
    ROTA_JOB_NAMES(ROTA_NAME_HEAD, X)

// What migration_option needs besides: the budget of [Zhang00] §5.4.
#define ROTA_CONTEXT_MIGRATION(X)                                                                 \
    X(migration_budget, std::int64_t, "tasks that may still migrate in this slice, -1 unlimited") \
    X(migration_cost, double, "C, the cost of migrating one job, seconds")

// What placement needs besides: the clusters ([Ngubiri07] §2.1, §3).
#define ROTA_CONTEXT_PLACEMENT(X)                                                 \
    X(clusters, std::int32_t, "clusters of the machine")                          \
    X(cluster_nodes, Amounts, "nodes of each cluster")                            \
    X(cluster_free, Amounts, "idle nodes of each cluster now")                    \
    X(room, Amounts,                                                              \
      "job after job, the nodes of each cluster free for the job's whole window " \
      "without touching a reservation")

// What harvest and distribution need besides ([Weissman03] §2.2, Figure 3(a)):
// for harvest, the arriving job with its user and names (the batch has
// those of the victims).
#define ROTA_CONTEXT_MALLEABLE(X)                                                                 \
    X(needed, std::int32_t, "harvest: processors to take; distribution: processors free to give") \
    X(job_id, std::int64_t, "harvest: the arriving job, -1 for distribution")                     \
    X(job_min, std::int32_t, "harvest: its min")                                                  \
    X(job_ideal, std::int32_t, "harvest: its ideal")                                              \
    X(job_user, std::int32_t, "harvest: its user, -1 if none (and for distribution)")             \
    ROTA_JOB_NAMES(ROTA_NAME_HARVEST_JOB, X)                                                      \
    X(mpl, std::int32_t, "degree of multiprogramming: jobs running")                              \
    X(mpl_limit, std::int32_t, "M of achieve_mp(M), 0 for no limit")                              \
    X(max_harvests, std::int32_t, "control policy: most harvests per job, 0 for no limit")

// What preempt needs besides ([Feitelson97] §4.3): the job the set is for, and
// the victims of every set, set after set (PreemptBatch's first and
// victims say which are whose; a job may be a victim of several sets),
// each with its user and names as a batch of jobs has them.
#define ROTA_CONTEXT_PREEMPT(X)                                                         \
    X(job_id, std::int64_t, "the job past its class's maximum wait")                    \
    X(job_procs, std::int32_t, "its processors")                                        \
    X(job_class, std::int32_t, "its class, numbered from 1 in configuration order")     \
    X(job_priority, std::int32_t, "its class's priority in the parameter set in force") \
    X(waited, Time, "time since it entered the queue (or was swapped out), us")         \
    X(job_user, std::int32_t, "its user, -1 if none")                                   \
    ROTA_JOB_NAMES(ROTA_NAME_JOB, X)                                                    \
    X(victim_id, Amounts, "each victim's job id")                                       \
    X(victim_procs, Amounts, "its processors")                                          \
    X(victim_class, Amounts, "its class, numbered from 1")                              \
    X(victim_priority, Amounts, "its class's priority")                                 \
    X(victim_user, Amounts, "its user, -1 if none")                                     \
    ROTA_JOB_NAMES(ROTA_NAME_VICTIM, X)                                                 \
    X(victim_dnd_left, Amounts, "do-not-disturb time it has left, us; 0 if over")       \
    X(victim_elapsed, Amounts, "time since it was last loaded, us")                     \
    X(victim_preemptions, Amounts, "times it was preempted before")

// A vector over [Leinberger99]'s K resources, processors first then the pools in
// configuration order: shares of capacity (R_ij, S_i: [0, 1]) or amounts.
// A table indexed 1..K in Lua (nil when empty), a pointer to K values in C
// (NULL when empty).
using Shares = std::vector<double>;
using Amounts = std::vector<std::int64_t>;
// A name per entry (preempt's victims): strings in Lua, "" for none, like
// a batch's name columns (nil when empty, like Amounts).
using Names = std::vector<Name>;

class UsageBook;

// One per-user figure of the engine's usage records at `now`: what
// ROTA_CONTEXT_USERS's lookups read (engine/usage.h). No book: every user
// reads 0.
enum class UserFigure : std::uint8_t { usage, procs, running };
struct UserFigures {
    const UsageBook* book = nullptr;
    Time now = 0;
    UserFigure figure = UserFigure::usage;
    double value(std::int32_t user) const;  // 0 for a user never seen
    bool operator==(const UserFigures&) const = default;
};
// Each field of ROTA_CONTEXT_USERS knows its figure, also when
// default-constructed.
template <UserFigure F>
struct UserFigureOf : UserFigures {
    UserFigureOf() { figure = F; }
    UserFigureOf(const UsageBook* b, Time t) {
        book = b;
        now = t;
        figure = F;
    }
};
using UserUsage = UserFigureOf<UserFigure::usage>;
using UserProcs = UserFigureOf<UserFigure::procs>;
using UserRunning = UserFigureOf<UserFigure::running>;

// A time that may be absent (nil in Lua, -1 in C).
struct MaybeTime {
    Time t = kNoTime;
    bool operator==(const MaybeTime&) const = default;
};

enum class Hook : std::uint8_t {
#define ROTA_X(hook, id, B, C, A, fallback) hook,
    ROTA_HOOKS(ROTA_X)
#undef ROTA_X
};

inline constexpr int kHookCount = 0
#define ROTA_X(hook, id, B, C, A, fallback) +1
    ROTA_HOOKS(ROTA_X)
#undef ROTA_X
    ;

const char* hook_name(Hook h);
const char* hook_fallback(Hook h);

// The contexts: one struct per set of fields, built from the lists above.
#define ROTA_FIELD(name, type, doc) type name{};
struct CommonContext {
    ROTA_CONTEXT_COMMON(ROTA_FIELD)
    ROTA_CONTEXT_USERS(ROTA_FIELD)
    // Spells the Name and Names fields of the hooks' contexts (the
    // engine's table, set by common_context()); not a field itself.
    const NameTable* names = nullptr;
};
struct BackfillContext : CommonContext {
    ROTA_CONTEXT_BACKFILL(ROTA_FIELD)
    ROTA_CONTEXT_BACKFILL_HEAD(ROTA_FIELD)
};
struct MigrationContext : CommonContext {
    ROTA_CONTEXT_MIGRATION(ROTA_FIELD)
};
struct PlacementContext : CommonContext {
    ROTA_CONTEXT_PLACEMENT(ROTA_FIELD)
};
struct MalleableContext : CommonContext {
    ROTA_CONTEXT_MALLEABLE(ROTA_FIELD)
};
struct PreemptContext : CommonContext {
    ROTA_CONTEXT_PREEMPT(ROTA_FIELD)
};
#undef ROTA_FIELD

// Calls f(name, value) for every field of a context, common fields first.
template <class F>
void visit_fields(const CommonContext& c, F&& f) {
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_COMMON(ROTA_X)
    ROTA_CONTEXT_USERS(ROTA_X)
#undef ROTA_X
}
template <class F>
void visit_fields(const BackfillContext& c, F&& f) {
    visit_fields(static_cast<const CommonContext&>(c), f);
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_BACKFILL(ROTA_X)
    ROTA_CONTEXT_BACKFILL_HEAD(ROTA_X)
#undef ROTA_X
}
template <class F>
void visit_fields(const MigrationContext& c, F&& f) {
    visit_fields(static_cast<const CommonContext&>(c), f);
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_MIGRATION(ROTA_X)
#undef ROTA_X
}
template <class F>
void visit_fields(const PlacementContext& c, F&& f) {
    visit_fields(static_cast<const CommonContext&>(c), f);
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_PLACEMENT(ROTA_X)
#undef ROTA_X
}

template <class F>
void visit_fields(const MalleableContext& c, F&& f) {
    visit_fields(static_cast<const CommonContext&>(c), f);
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_MALLEABLE(ROTA_X)
#undef ROTA_X
}

template <class F>
void visit_fields(const PreemptContext& c, F&& f) {
    visit_fields(static_cast<const CommonContext&>(c), f);
#define ROTA_X(name, type, doc) f(#name, c.name);
    ROTA_CONTEXT_PREEMPT(ROTA_X)
#undef ROTA_X
}

struct Job;

// A batch of jobs as parallel arrays, one per column, so that building it
// and handing it to a script costs a few stores per job (ARCHITECTURE §5).
//
// Besides the columns, each job's demand vector ([Leinberger99] §3) as shares of
// the machine's capacities: R[j * resources + i] is R_ij, resource 0 being
// processors and 1..K-1 the pools. It is filled only when `inv_capacity`
// (1 / capacity of each resource, set once by the engine) is.
struct JobBatch {
#define ROTA_X(name, type, value, doc) std::vector<type> name;
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
    std::vector<double> R;
    std::vector<double> inv_capacity;
    std::vector<std::int32_t> class_priorities;
    const NameTable* names = nullptr;  // spells the name columns; set once by the engine
    bool with_components = false;
    std::vector<std::int32_t> first{0}, width;
    std::size_t size() const {
        return id.size();
    }
    std::int32_t components(std::size_t j) const {
        return with_components ? first[j + 1] - first[j] : 1;
    }
    std::int32_t component(std::size_t j, std::int32_t i) const {
        return with_components ? width[static_cast<std::size_t>(first[j] + i)] : procs[j];
    }
    std::int32_t resources() const {
        return static_cast<std::int32_t>(inv_capacity.size());
    }
    void clear();
    void push(const Job& j);
    // Row k's class columns anew, for job j (its class or the parameter
    // set in force may have changed since the row was pushed).
    void refresh_classes(std::size_t k, const Job& j);
    // Keeps the rows whose keep[] is set, in order: a batch kept from one
    // call to the next (the held jobs, pass.cpp) loses the others.
    void keep_rows(const std::vector<std::uint8_t>& keep);
};

// The candidate migrations of one CollapseMatrix-2 phase: job `id` would
// leave `from_row` for `to_row` by option 1 (the jobs on its columns in the
// target row move elsewhere) or option 2 (it moves to free columns there).
struct MigrationBatch {
#define ROTA_X(name, type, doc) std::vector<type> name;
    ROTA_MIGRATION_COLUMNS(ROTA_X)
#undef ROTA_X
    const NameTable* names = nullptr;  // spells the name columns; set once by the engine
    std::size_t size() const {
        return id.size();
    }
    void clear();
};

// A MalleableBatch's columns by number, in declaration order.
enum class MalleableColumn : int {
#define ROTA_X(name, type, doc) name,
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
};

// The running and queued jobs of one harvest or distribution ([Weissman03]).
//
// A column is filled when a reader first needs it (need()): id, procs,
// min, ideal and queued always, which every rule and every answer's check
// reads; the others (the age, the time left, the adaptation cost and the
// progress each cost a computation per job) only if the script or native
// rule reads them, and the shipped rules read none of them but harvests
// (fair) and age or time_left (long, short). A batch built whole, as tests
// build one, has no `fill` and every column filled.
struct MalleableBatch {
#define ROTA_X(name, type, doc) std::vector<type> name;
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
    const NameTable* names = nullptr;           // spells the name columns; set once by the engine
    std::function<void(MalleableColumn)> fill;  // fills one column for every job
    mutable std::uint32_t filled = ~0u;         // bit c: column c is filled
    static constexpr std::uint32_t kAlwaysFilled = 1u << static_cast<int>(MalleableColumn::id) |
                                                   1u << static_cast<int>(MalleableColumn::procs) |
                                                   1u << static_cast<int>(MalleableColumn::min) |
                                                   1u << static_cast<int>(MalleableColumn::ideal) |
                                                   1u << static_cast<int>(MalleableColumn::queued);

    void need(MalleableColumn c) const {
        const std::uint32_t bit = 1u << static_cast<int>(c);
        if ((filled & bit) != 0) return;
        filled |= bit;
        fill(c);
    }
    std::size_t size() const {
        return id.size();
    }
    void clear();
};

// The candidate processor sets of one preempt call ([Feitelson97] §4.3).
struct PreemptBatch {
#define ROTA_X(name, type, doc) std::vector<type> name;
    ROTA_PREEMPT_COLUMNS(ROTA_X)
#undef ROTA_X
    std::size_t size() const {
        return procs.size();
    }
    void clear();
};

// What hooks answer (ROTA_HOOKS).
enum class AdmissionKind : std::uint8_t { accept, hold, reject };
struct Admission {
    AdmissionKind kind = AdmissionKind::accept;
    std::string reason;  // required for reject
    // hold only: the engine time by which the policy wants to be asked
    // again (a shift change, say); the engine then wakes up for it. Held
    // jobs are asked again at every pass besides.
    Time until = kForever;
};
using Admissions = std::vector<Admission>;
using Keys = std::vector<double>;
using Indices = std::vector<std::int64_t>;  // indices, options, clusters, amounts

// The names of a batch kind's columns, in declaration order.
inline constexpr const char* kJobColumnNames[] = {
#define ROTA_X(name, type, value, doc) #name,
    ROTA_JOB_COLUMNS_ALL(ROTA_X)
#undef ROTA_X
};
inline constexpr const char* kMigrationColumnNames[] = {
#define ROTA_X(name, type, doc) #name,
    ROTA_MIGRATION_COLUMNS(ROTA_X)
#undef ROTA_X
};
inline constexpr const char* kMalleableColumnNames[] = {
#define ROTA_X(name, type, doc) #name,
    ROTA_MALLEABLE_COLUMNS(ROTA_X)
#undef ROTA_X
};
inline constexpr const char* kPreemptColumnNames[] = {
#define ROTA_X(name, type, doc) #name,
    ROTA_PREEMPT_COLUMNS(ROTA_X)
#undef ROTA_X
};

}  // namespace rota
