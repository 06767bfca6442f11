// The engine's core: the state of one machine (the jobs, the queue, the
// matrix, running jobs, node states), the events that change it, the
// actions they give, and the scheduling pass: admission and order
// (pass.cpp), then the schedule phase of its discipline (discipline.h).
// Single-threaded: one Scheduler per thread, any number per process.
//
//   events, actions, queries   scheduler.cpp, node_events.cpp
//   the pass, hooks            pass.cpp (hooks.h: each hook declared once)
//   snapshots                  snapshot.cpp
//   reconfiguration            retune.cpp
#pragma once

#include <array>
#include <chrono>
#include <compare>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "action.h"
#include "config.h"
#include "counters.h"
#include "expiry_heap.h"
#include "hooks.h"
#include "job.h"
#include "job_index.h"
#include "job_queue.h"
#include "machine.h"
#include "policy.h"
#include "usage.h"

namespace rota {

struct ReservationInfo {
    JobId job;
    Time start;
    Time end;
    std::int32_t procs;
    std::int32_t row = 0;
};

// [Weissman03] §4.3: a job's run time on p processors over its run time on its
// ideal, under execution model m.
double exec_factor(ExecModel m, std::int32_t p, std::int32_t ideal);

// Throws rota::Error(Errc::config, ...) for a configuration the engine
// cannot run; returns it unchanged otherwise.
SchedulerConfig checked(SchedulerConfig cfg);

class Discipline;
class ClassPasses;
class Record;
class SnapshotReader;

// The core (docs/design.md, "The core and its disciplines"): the jobs, the
// queue, the machine, events, actions, counters, usage, names and the
// policies, with admission and order; the schedule phase belongs to its
// discipline (discipline.h), made from the configuration.
class Scheduler {
  public:
    explicit Scheduler(SchedulerConfig cfg);
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // Events. Each applies at the current time (set by advance) and throws
    // rota::Error on bad input, leaving the state unchanged.
    void submit(JobSpec spec);
    // A job that is already running on `runs` since `start` (node_events.cpp):
    // a controller that restarts rebuilds the engine from its own state.
    void adopt(const JobSpec& spec, Time start, const std::vector<NodeRun>& runs);
    // The job finished on its own; `ok`: successfully (afterok dependencies
    // on it are met, docs/design.md "Constraints").
    void job_end(JobId id, bool ok = true);
    void cancel(JobId id);
    void advance(Time t);  // slice boundaries; kills running jobs whose window expired
    // Nodes (node_events.cpp). A node that goes down takes the jobs on it
    // with it: killed, or requeued to wait again in their place. A drained
    // node takes no new job and leaves when its jobs end. Either way the
    // reservations are placed anew.
    void node_down(std::int32_t node, bool requeue);
    void node_drain(std::int32_t node);
    void node_up(std::int32_t node);
    // A running job the embedder stopped and wants run again (a start that
    // failed, a job its batch system requeued): back in its queue place.
    void job_requeue(JobId id, const std::string& why);
    // [Weissman03] §3's sensing: the share of its work a running job has done.
    // Under the iScheduler it sets the job's expected end (its walltime).
    void report_progress(JobId id, double done);
    // [Feitelson97] §4.5, gangster's user controls ([classes] only,
    // class_passes.h): suspend moves a loaded job's state to disk (SWAP_OUT)
    // or keeps a waiting one from loading, until resume; set_class changes
    // its class. Errc::state without [classes].
    void suspend(JobId id);
    void resume(JobId id);
    void set_class(JobId id, std::int32_t cls);
    // The job classes' discipline, or null without [classes].
    const ClassPasses* classes() const;
    enum class NodeState : std::uint8_t { up, draining, out };
    NodeState node_state(std::int32_t node) const {
        return node_state_.empty() ? NodeState::up : node_state_[static_cast<std::size_t>(node)];
    }
    void schedule();  // one scheduling pass
    // Re-keys the whole queue with the order hook and re-sorts it now (the
    // order policy was reloaded); a pass does it on its own at the interval
    // when the keys age (pass.cpp, docs/design.md "Order keys that change").
    void rekey();

    // Actions, oldest first. Pointers into the arenas stay valid until the
    // next event call.
    bool next_action(Action& out);
    const NodeRun* action_runs(const Action& a) const;
    // On a multi-cluster machine, the cluster of each run of a START; null
    // otherwise.
    const std::int32_t* action_run_clusters(const Action& a) const;
    const char* action_reason(const Action& a) const;

    // The earliest time the engine must be advanced to even if nothing else
    // happens: a walltime expiry, a slice boundary or a reservation's start.
    std::optional<Time> next_wakeup() const;

    // Queries.
    Time now() const { return now_; }
    const SchedulerConfig& config() const { return cfg_; }
    const Job* find(JobId id) const;
    // The names of jobs' accounts, partitions and QOS (Job::account, ...).
    const NameTable& names() const { return names_; }
    void queue_ids(std::vector<JobId>& out) const;    // in policy order
    void running_ids(std::vector<JobId>& out) const;  // by start
    void held_ids(std::vector<JobId>& out) const;
    void reservations(std::vector<ReservationInfo>& out) const;
    const Machine& machine() const { return machine_; }
    std::int32_t active_row() const { return active_row_; }
    JobId job_at(Matrix::Slot s) const { return jobs_[s].spec.id; }
    // The free columns of the active row: the idle nodes now.
    void idle_nodes(std::vector<std::int32_t>& out) const;
    const Counters& counters() const { return counters_; }
    // The share of its work a running job has done: reported, or estimated
    // from the execution model ([Weissman03] §3); 0 if it is not running.
    double progress(const Job& j) const;
    std::size_t queue_length() const { return queue_.size(); }
    std::size_t running_count() const { return running_count_; }
    std::size_t held_count() const { return held_.size(); }
    // Processor-seconds and running jobs per user (engine/usage.h).
    const UsageBook& usage() const { return usage_; }

    // Policies: one per hook, null meaning the built-in default.
    void set_policy(Hook h, std::shared_ptr<Policy> p);
    // After the policies were reloaded: every hook gets its next call.
    void end_quarantines();
    std::shared_ptr<Policy> policy(Hook h) const { return policy_[static_cast<int>(h)]; }
    // Levels as rota.h's ROTA_LOG_*: 1 error, 2 warning, 3 info, 4 debug.
    enum LogLevel : int { log_error = 1, log_warning = 2, log_info = 3, log_debug = 4 };
    using LogSink = std::function<void(int level, const std::string&)>;
    void set_log(LogSink sink) { log_ = std::move(sink); }

    // A new configuration while running (rota_reconfigure, engine/retune.cpp):
    // check_retune throws Errc::config naming the first key that may not
    // change (the machine, the rows, the shape of the pass); retune then
    // takes the tunables, and cannot fail.
    void check_retune(const SchedulerConfig& next) const;
    void retune(const SchedulerConfig& next);

    // Snapshots (engine/snapshot.cpp, docs/snapshot.md): the state that
    // decides future actions, as text. snapshot throws Errc::state with
    // actions not yet taken; restore, on a Scheduler that has seen no
    // event, throws Errc::invalid for a malformed snapshot and Errc::config
    // for one of another machine, and leaves the Scheduler unusable then
    // (the caller discards it).
    std::string snapshot() const;
    void restore(const std::string& text);

    using Slot = std::uint32_t;
    static constexpr Slot kNoSlot = static_cast<Slot>(-1);

  private:
    friend class Discipline;

    SchedulerConfig cfg_;
    Time now_ = 0;
    std::uint64_t next_seq_ = 0;
    Machine machine_;

    std::vector<Job> jobs_;  // slab; slots are reused
    std::vector<Slot> free_slots_;
    JobIndex index_;
    std::size_t running_count_ = 0;
    // Running jobs in start order, kept when the discipline asks for them
    // (Discipline::keeps_running_list: the matrix phases, the iScheduler,
    // the class passes visit them in that order).
    std::vector<Slot> running_;
    // The row of the matrix executing now ([Zhang00] §4; 0 with one row).
    std::int32_t active_row_ = 0;

    // The bound at submission (new_job): the windows (estimate x rows, as
    // submitted) of every job the engine holds. A job starts by now plus
    // the windows of the jobs before it while the machine is busy, so a
    // job is accepted only if now + held_windows_ + its window stays on
    // the time axis; the longest window ever submitted tells a pass when
    // a queued job may no longer fit what is left of the axis
    // (reject_past_axis).
    Time held_windows_ = 0;
    Time longest_window_ = 0;
    void reject_past_axis();

    std::vector<Slot> pending_;  // submitted since the last pass
    std::vector<Slot> held_;
    Time held_until_ = kForever;  // the earliest time an admission asked to be asked again
    JobQueue queue_;              // policy order: (order_key, seq)

    // One entry per running job whose estimate is its walltime; mutable:
    // next_wakeup() drops an entry that no longer matches its job, which
    // only a restored or re-adopted job could leave.
    mutable ExpiryHeap expiries_;

    std::vector<Action> actions_;
    std::size_t action_head_ = 0;
    std::vector<NodeRun> run_arena_;
    std::vector<std::int32_t> run_cluster_arena_;  // parallel to run_arena_, with clusters
    std::vector<std::string> reason_arena_;
    // While a pass of the matrix phases runs, its actions wait here so that
    // they can be told as the net change of the matrix (slices.cpp).
    bool buffer_pass_ = false;
    std::vector<Action> pass_actions_;

    std::array<std::shared_ptr<Policy>, kHookCount> policy_{};
    Counters counters_;
    LogSink log_;
    std::array<std::uint32_t, kHookCount> logged_failures_{};
    // The circuit breaker (pass.cpp): consecutive failures of each hook and
    // the engine time its quarantine ends (kNoTime: not quarantined).
    std::array<std::int32_t, kHookCount> failing_{};
    std::array<std::int32_t, kHookCount> quarantines_{};  // in a row, without a success
    std::array<Time, kHookCount> quarantine_end_ = [] {
        std::array<Time, kHookCount> a{};
        a.fill(kNoTime);
        return a;
    }();
    // Whether hook h is quarantined now (its fallback applies, uncalled).
    bool quarantined(Hook h);
    std::vector<Slot> admit_slots_;
    // Admission's batch (pass.cpp, admit): the rows of the held jobs, in
    // held_ order, kept from one pass to the next (a held job's columns do
    // not change but for its class's), then the new jobs' rows.
    JobBatch held_batch_;
    bool held_batch_ok_ = true;  // false: rebuilt at the next pass (a cancel, a restore)
    std::vector<std::uint8_t> held_keep_;
    std::vector<Slot> accepted_;
    std::vector<Admission> admissions_;
    std::vector<double> keys_;
    JobBatch batch_;  // admission's and order's
    UsageBook usage_;
    NameTable names_;  // append-only: its strings live as long as the engine

    // Order keys that age (pass.cpp): the next multiple of the interval at
    // which a pass re-keys the queue, and the queue as it is re-sorted.
    Time next_rekey_ = kForever;
    struct Keyed {
        double key;
        std::uint64_t seq;
        JobQueue::Entry entry;
        bool operator<(const Keyed& o) const { return key != o.key ? key < o.key : seq < o.seq; }
    };
    std::vector<Keyed> keyed_;
    bool aging() const;
    void rekey_queue();

    // Constraints (constraints.cpp): jobs waiting for their dependencies, in
    // arrival order; the jobs that wait for each job; how ended jobs ended,
    // for min_job_age; and queued jobs whose begin time is still ahead.
    std::vector<Slot> waiting_;
    std::unordered_map<JobId, std::vector<JobId>> dependents_;
    struct Ended {
        Time at;
        bool ok;
    };
    std::unordered_map<JobId, Ended> ended_;
    std::deque<std::pair<Time, JobId>> ended_order_;
    void check_constraints(const JobSpec& spec) const;
    void register_dependencies(Slot s);
    void ended(JobId id, bool ok);
    void release_waiting();
    Time next_eligible() const;
    std::string partition_reason(Job& j) const;
    std::string nodes_reason(const Job& j) const;
    void enter_node_level();

    std::vector<NodeState> node_state_;  // empty until a node event
    void check_node_event(std::int32_t node);
    void jobs_on_node(std::int32_t node, std::vector<Slot>& out) const;
    // No cell of the column is taken in any row, by a job or by the node
    // being out of service.
    bool node_idle(std::int32_t node) const;
    void take_out(std::int32_t node);
    // The steps of adopt (node_events.cpp): its checks, in the order that
    // decides which error a bad adopt is given, then the row and clusters
    // the job's nodes are found in, then the job made running there.
    void check_adoption(const JobSpec& spec, Time start, const std::string& who) const;
    void check_adopted_runs(const JobSpec& spec, const std::vector<NodeRun>& runs,
                            const std::string& who) const;
    std::int32_t adoption_row(const std::vector<NodeRun>& runs, const std::string& who) const;
    std::vector<std::int16_t> adopted_clusters(const JobSpec& spec,
                                               const std::vector<NodeRun>& runs,
                                               const std::string& who) const;
    void run_adopted(Slot s, const JobSpec& spec, Time start, std::int32_t row,
                     const std::vector<NodeRun>& runs);
    void requeue(Slot s, const std::string& why);
    void retire_drained(const std::vector<NodeRun>& runs);

    // The one discipline of this engine (discipline.h), and two of its
    // answers that never change, asked at every start and end.
    std::unique_ptr<Discipline> discipline_;
    bool keeps_profile_ = true;
    bool keeps_running_list_ = false;

    bool time_sharing() const { return cfg_.rows > 1; }
    bool clustered() const { return !cfg_.clusters.empty(); }
    Job& job(Slot s) { return jobs_[s]; }
    const Job& job(Slot s) const { return jobs_[s]; }
    Slot slot_of(JobId id) const;
    Slot new_job(JobSpec&& spec);
    // The steps of new_job: its checks, whose order decides which error a
    // bad spec is given, then its slot and the engine's own fields.
    void check_submission(const JobSpec& spec) const;
    void check_sizes(const JobSpec& spec) const;
    void check_components(const JobSpec& spec) const;
    void check_job_class(const JobSpec& spec) const;
    void check_axis_room(const JobSpec& spec, Time window) const;
    Slot take_slot(JobSpec&& spec);
    void enter_job(Slot s, Time window);
    Demand demand(const Job& j) const {
        const std::int32_t procs = j.state == JobState::running ? j.alloc.procs : j.spec.procs;
        Demand d{procs, j.spec.pools.empty() ? nullptr : j.spec.pools.data(), j.window};
        if (!j.spec.components.empty()) {
            d.components = static_cast<std::int32_t>(j.spec.components.size());
            d.widths = j.spec.components.data();
            d.clusters = j.clusters.empty() ? nullptr : j.clusters.data();
        }
        if (machine_.node_level()) {
            d.parts = j.parts.data();
            d.nparts = static_cast<std::int32_t>(j.parts.size());
            d.excluded = j.excluded.get();
            d.include = &j.spec.include;
            d.runs = j.state == JobState::running ? &j.alloc.runs
                     : j.reserved()               ? &j.reserved_runs
                                                  : nullptr;
        }
        return d;
    }

    // Events (scheduler.cpp).
    void begin_event();
    void stop_running(Slot s, JobState final_state, bool ok = false);
    // A running job leaves its nodes: the matrix, the rest of its window,
    // its user's account, the lists; then its discipline is told.
    void release(Slot s);
    // The core's bookkeeping of a job that runs from now on j.alloc, as its
    // discipline placed it: its state, start, user's account and lists.
    void now_running(Slot s);
    void forget(Slot s);
    void emit(Action a) { (buffer_pass_ ? pass_actions_ : actions_).push_back(a); }
    void emit_with_runs(const Action& a, const std::vector<NodeRun>& runs, std::int32_t nodes);
    // The same for job j on the columns `runs` it holds, of which the
    // action names those it executes on (executing_runs, job.h).
    void emit_job_runs(Action a, const Job& j, const std::vector<NodeRun>& runs);
    std::int32_t add_reason(std::string why) {
        reason_arena_.push_back(std::move(why));
        return static_cast<std::int32_t>(reason_arena_.size() - 1);
    }
    void reject(Slot s, std::string reason);
    void queue_insert(Slot s);
    void queue_erase(Slot s);

    // The pass (pass.cpp).
    void admit();
    // The steps of admit: pending jobs that can never start are rejected
    // (unfit_reason says why), then admission and order are asked about the
    // rest; the context is made once, when a hook first reads it.
    void screen_pending();
    std::string unfit_reason(Slot s);
    bool ask_admission(std::size_t nheld, std::optional<CommonContext>& ctx);
    void apply_admissions(std::size_t nheld, bool asked);
    void order_accepted(std::optional<CommonContext>& ctx);
    const CommonContext& lazy_context(std::optional<CommonContext>& ctx) const;
    CommonContext common_context() const;
    bool call_ok(Hook h, const HookOutcome& o, std::uint64_t ns);
    // Asks hook H for its answer to batch `b`, every hook the same way
    // (hooks.h): without a policy the engine's default; quarantined or past
    // the pass budget, or when the call fails (an error, a budget, an answer
    // HookSpec<H>::check or `extra` refuses), the hook's fallback. The
    // context is made by `make_context()`, only when it is read. Returns
    // false when the fallback was used.
    template <Hook H, class MakeContext, class Extra = std::nullptr_t>
    bool ask(const typename HookSpec<H>::Batch& b, MakeContext&& make_context,
             typename HookSpec<H>::Answer& a, Extra&& extra = nullptr);
    std::int64_t pass_work_ = 0;  // hook work this pass (policy.pass_budget)
    bool pass_budget_logged_ = false;
    // Snapshots (snapshot.cpp): the core's records, written and read back.
    void save_machine(std::string& o) const;
    void save_job(std::string& o, Slot s) const;
    void restore_machine(Record r);
    void restore_counters(SnapshotReader& in);
    void restore_jobs(SnapshotReader& in, int format);
    // The sections of the job table, read in the order they are written;
    // `used` says per slot how it was met so far (snapshot.cpp).
    std::vector<char> restore_free_slots(SnapshotReader& in);
    void restore_job_records(SnapshotReader& in, int format, std::vector<char>& used);
    void restore_slot_list(SnapshotReader& in, const char* kw, JobState st, std::vector<Slot>& out,
                           std::vector<char>& used);
    void restore_ended(SnapshotReader& in);
    void restore_queue(SnapshotReader& in, std::vector<char>& used);
    void restore_running(SnapshotReader& in, std::vector<char>& used);
    void check_listed(const std::vector<char>& used) const;
    void restore_job(Record& r, Slot s, SnapshotReader& in, int format);
    // The sections of one job record, read in the order they are written,
    // then the job entered in the index, the windows and the machine.
    void restore_job_fields(Record& r, Job& j, SnapshotReader& in);
    void restore_job_shape(Record& r, Job& j);
    void restore_job_names(Record& r, Job& j, int format);
    void restore_job_progress(Record& r, Job& j);
    void restore_job_constraints(Record& r, Job& j);
    void enter_restored(Slot s, std::int64_t held, std::int64_t home, std::int64_t mask);
    void check_job_record(const Job& j) const;
    void place_restored(Slot s, std::int64_t held, std::int64_t home, std::int64_t mask);
    void check_restored_clusters(const Job& j) const;
    void place_reservation(Slot s);
    void check_accounts(const std::vector<char>& used, bool legacy) const;
    void restore_nodes_out();
    void restore_constraints();

    // The wall time of a hook call begun at t0, for its statistics.
    static std::uint64_t elapsed_ns(std::chrono::steady_clock::time_point t0) {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - t0)
                                              .count());
    }
};

template <Hook H, class MakeContext, class Extra>
bool Scheduler::ask(const typename HookSpec<H>::Batch& b, MakeContext&& make_context,
                    typename HookSpec<H>::Answer& a, Extra&& extra) {
    using S = HookSpec<H>;
    const auto& p = policy_[static_cast<int>(H)];
    if (!p) {
        if constexpr (S::kUnsetReadsContext)
            S::unset(b, make_context(), a);
        else
            S::unset(b, typename S::Context{}, a);
        return true;
    }
    if (quarantined(H)) {
        S::fallback(b, make_context(), a);
        return false;
    }
    decltype(auto) ctx = make_context();  // a reference when the maker keeps one
    const auto t0 = std::chrono::steady_clock::now();
    a.clear();
    HookOutcome o = ((*p).*S::method)(b, ctx, a);
    if (o.ok) {
        std::string why = S::check(a, b, ctx, *p);
        if constexpr (!std::is_same_v<std::decay_t<Extra>, std::nullptr_t>)
            if (why.empty()) why = extra(a);
        if (!why.empty()) o = invalid_answer(H, *p, why);
    }
    if (call_ok(H, o, elapsed_ns(t0))) return true;
    S::fallback(b, ctx, a);
    return false;
}

}  // namespace rota
