// The engine: the state of one machine (the matrix, the queue, running jobs,
// reservations), the events that change it and the scheduling pass.
// Single-threaded: one Scheduler per thread, any number per process.
//
// One pass serves every mode (docs/design.md, "The scheduling pass"): space
// sharing is the Ousterhout matrix with one row, and every pass runs the
// phases of [Zhang00] §4.2 and §5.4 in order, each a function named as in
// the paper; a phase with nothing to do costs nothing.
//
//   clean_matrix      pass.cpp, matrix_phases.cpp
//   collapse_matrix   matrix_phases.cpp (with migration: migration.cpp)
//   schedule          walk.cpp, reservations.cpp
//   fill_matrix       matrix_phases.cpp
#pragma once

#include <array>
#include <chrono>
#include <compare>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "action.h"
#include "class_queue.h"
#include "config.h"
#include "counters.h"
#include "expiry_heap.h"
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

class Scheduler {
  public:
    explicit Scheduler(SchedulerConfig cfg);

    // Events. Each applies at the current time (set by advance) and throws
    // rota::Error on bad input, leaving the state unchanged.
    void submit(const JobSpec& spec);
    // A job that is already running on `runs` since `start` (node_events.cpp):
    // a controller that restarts rebuilds the engine from its own state.
    void adopt(const JobSpec& spec, Time start, const std::vector<NodeRun>& runs);
    void job_end(JobId id);  // the job finished or failed on its own
    void cancel(JobId id);
    void advance(Time t);  // slice boundaries; kills running jobs whose window expired
    // Nodes (node_events.cpp; one row only). A node that goes down takes
    // the job on it with it: killed, or requeued to wait again in its
    // place. A drained node takes no new job and leaves when its job ends.
    // Either way the reservations are placed anew.
    void node_down(std::int32_t node, bool requeue);
    void node_drain(std::int32_t node);
    void node_up(std::int32_t node);
    // A running job the embedder stopped and wants run again (a start that
    // failed, a job its batch system requeued): back in its queue place.
    void job_requeue(JobId id, const std::string& why);
    // [Weissman03] §3's sensing: the share of its work a running job has done.
    // Under the iScheduler it sets the job's expected end (its walltime).
    void report_progress(JobId id, double done);
    // [Feitelson97] §4.5, gangster's user controls (classes.cpp; [classes] only):
    // suspend moves a loaded job's state to disk (SWAP_OUT) or keeps a
    // waiting one from loading, until resume; set_class changes its class.
    void suspend(JobId id);
    void resume(JobId id);
    void set_class(JobId id, std::int32_t cls);
    // The class parameters in force now (the period's, or the base set).
    const ClassParams& class_params() const {
        return params_at_ == now_ && params_ ? *params_ : find_class_params();
    }
    // The job pass 1 holds processors for, and their count (-1, 0: none).
    JobId class_reserved_job() const {
        return class_reserved_ == kNoSlot ? -1 : jobs_[class_reserved_].spec.id;
    }
    std::int32_t class_reserved_nodes() const { return NodePool::count(class_set_); }
    std::int64_t class_loaded(std::size_t c) const {
        return c < class_loaded_.size() ? class_loaded_[c] : 0;
    }
    // The name of the [[classes.period]] in force, "" for the base set.
    const char* period_name() const {
        const std::int32_t p = period_at(now_);
        return p < 0 ? "" : cfg_.classes.periods[static_cast<std::size_t>(p)].name.c_str();
    }
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
    // decides future actions, as text. snapshot throws Errc::state for a
    // mode it does not cover or with actions not yet taken; restore, on a
    // Scheduler that has seen no event, throws Errc::invalid for a
    // malformed snapshot and Errc::config for one of another machine, and
    // leaves the Scheduler unusable then (the caller discards it).
    std::string snapshot() const;
    void restore(const std::string& text);

  private:
    using Slot = std::uint32_t;
    static constexpr Slot kNoSlot = static_cast<Slot>(-1);

    SchedulerConfig cfg_;
    Time now_ = 0;
    std::uint64_t next_seq_ = 0;
    Machine machine_;

    std::vector<Job> jobs_;  // slab; slots are reused
    std::vector<Slot> free_slots_;
    JobIndex index_;
    std::size_t running_count_ = 0;

    std::vector<Slot> pending_;  // submitted since the last pass
    std::vector<Slot> held_;
    Time held_until_ = kForever;  // the earliest time an admission asked to be asked again
    JobQueue queue_;              // policy order: (order_key, seq)

    // Reservations (reservations.cpp).
    std::int32_t reserved_count_ = 0;
    std::vector<std::int32_t> reserved_in_row_;
    std::int32_t rows_at_depth_ = 0;        // rows holding reservation_depth reservations
    std::vector<char> row_ok_;              // rows that may take one more reservation
    bool dirty_ = false;                    // capacity came back: reservations may move up
    std::vector<std::vector<Time>> reach_;  // compression: first time each width fits, per row
    std::vector<Time> reach_min_;
    std::vector<Slot> compress_order_;  // the reserved jobs, in queue order
    // Every time a row's profile gets capacity back (a job ends, a
    // reservation is given up, a job moves away) the epoch advances and the
    // row records it: a reservation settled at its earliest slot after a
    // row's last gain cannot move into that row (reservations.cpp).
    std::uint64_t gain_epoch_ = 0;
    std::vector<std::uint64_t> row_gain_;
    std::vector<Time> reach_now_;  // compression: reach of one width, per row
    void gained(std::int32_t row) {
        ++gain_epoch_;
        if (!cfg_.pools.empty()) {  // pools are shared: every row may benefit
            std::fill(row_gain_.begin(), row_gain_.end(), gain_epoch_);
            return;
        }
        row_gain_[static_cast<std::size_t>(row)] = gain_epoch_;
    }

    // The walk is incremental: while no capacity comes back, jobs it has
    // already found unable to start cannot start either, so the next pass
    // only looks at jobs queued since (docs/design.md, "The incremental walk").
    bool rescan_ = true;
    std::size_t scanned_ = 0;           // queue_ positions [0, scanned_) were walked
    Slot head_ = kNoSlot;               // first job that could not start, from that walk
    Time next_reservation_ = kForever;  // earliest reservation start (may be stale-early)

    // Backfill candidates of the walk (walk.cpp): built per pass, handed to
    // backfill_select in one call, or a chunk at a time to a policy that
    // streams.
    JobBatch batch_;
    // What backfill_context() fills for each call, its vectors' capacity
    // kept from call to call (four allocations a call otherwise).
    BackfillContext backfill_ctx_;
    std::vector<Slot> batch_slots_;
    std::vector<std::size_t> cand_pos_;  // their queue positions
    std::int64_t cand_procs_ = 0;        // processors the candidates ask for
    std::vector<std::int64_t> picks_;
    std::vector<std::uint8_t> seen_;
    std::vector<std::uint8_t> pick_mark_;  // flush_candidates: which candidates were picked
    bool stream_ended_ = false;            // a streaming policy wants no more this walk

    // One entry per running job (one row); mutable: next_wakeup() drops an
    // entry that no longer matches its job, which only a restored or
    // re-adopted job could leave.
    mutable ExpiryHeap expiries_;

    std::vector<Action> actions_;
    std::size_t action_head_ = 0;
    std::vector<NodeRun> run_arena_;
    std::vector<std::int32_t> run_cluster_arena_;  // parallel to run_arena_, with clusters
    std::vector<std::string> reason_arena_;

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
    std::vector<Admission> admissions_;
    std::vector<double> keys_;
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

    // Time sharing, rows > 1 (matrix_phases.cpp, slices.cpp): the active
    // row and the jobs announced as executing in it, running jobs in start
    // order, and the matrix before the pass, so that its actions describe
    // the net change.
    std::int32_t active_row_ = 0;
    Time slice_end_ = kForever;
    std::vector<Slot> executing_;
    // Jobs adopted since the last announcement: their state on the
    // embedder's side is unknown, so the next one says RESUME or SUSPEND
    // for each, whatever it was before.
    std::vector<Slot> unannounced_;
    std::vector<std::uint32_t> in_row_, was_executing_;  // announce_active's marks
    std::uint32_t mark_epoch_ = 0;
    std::vector<Slot> running_;
    struct Placement {
        Slot slot;
        std::int16_t home;
        std::uint32_t mask;
        std::vector<NodeRun> runs;
    };
    std::vector<Slot> started_in_pass_;
    std::vector<Placement> before_pass_;
    bool buffer_pass_ = false;
    std::vector<Action> pass_actions_;

    // Migration (migration.cpp, [Zhang00] §5.4).
    std::uint64_t budget_slice_ = ~std::uint64_t{0};
    std::int64_t migrated_in_slice_ = 0;
    std::vector<Slot> migrated_;  // jobs migrated in this pass: never twice
    MigrationBatch mig_;
    std::vector<Slot> mig_slots_;
    std::vector<std::int64_t> mig_choice_;

    std::vector<NodeState> node_state_;  // empty until a node event
    void check_node_event(std::int32_t node);
    void jobs_on_node(std::int32_t node, std::vector<Slot>& out) const;
    // No cell of the column is taken in any row, by a job or by the node
    // being out of service.
    bool node_idle(std::int32_t node) const;
    void take_out(std::int32_t node);
    void replace_reservations();
    void requeue(Slot s, const std::string& why);
    void retire_drained(const std::vector<NodeRun>& runs);

    bool time_sharing() const { return cfg_.rows > 1; }
    // Whether running jobs' windows are promised in the availability
    // profile. Under [classes] and [malleable] nothing asks it (the two
    // passes and the iScheduler look at idle processors and running jobs,
    // never at the future; one row, no pools or clusters, and neither mode
    // can be switched while running), so loading, swapping, starts, grows
    // and shrinks skip it.
    bool keeps_profile() const { return !cfg_.classes.enabled && !cfg_.malleable.enabled; }
    bool clustered() const { return !cfg_.clusters.empty(); }
    // One row, no pools, no clusters: the questions of the walk have their
    // fast answers (Machine::fits_now_fast, the queue's block index).
    // Buddy packing needs a block, not a count of free columns, so it is
    // never simple.
    bool simple() const {
        return cfg_.rows == 1 && cfg_.pools.empty() && cfg_.clusters.empty() &&
               cfg_.packing == Packing::first_fit;
    }

    // Co-allocation (placement.cpp, [Ngubiri07] §3): where the components of
    // a job starting afresh go, when a placement policy is configured.
    JobBatch place_batch_;
    std::vector<std::int64_t> placement_;
    std::vector<std::int16_t> answered_;
    void choose_placement(Slot s);
    std::string unplaceable(const Job& j) const;
    Job& job(Slot s) { return jobs_[s]; }
    const Job& job(Slot s) const { return jobs_[s]; }
    Slot slot_of(JobId id) const;
    Slot new_job(const JobSpec& spec);
    Demand demand(const Job& j) const {
        const std::int32_t procs = j.state == JobState::running ? j.alloc.procs : j.spec.procs;
        Demand d{procs, j.spec.pools.empty() ? nullptr : j.spec.pools.data(), j.window};
        if (!j.spec.components.empty()) {
            d.components = static_cast<std::int32_t>(j.spec.components.size());
            d.widths = j.spec.components.data();
            d.clusters = j.clusters.empty() ? nullptr : j.clusters.data();
        }
        return d;
    }

    // Events (scheduler.cpp).
    void begin_event();
    void stop_running(Slot s, JobState final_state);
    void release(Slot s);
    void forget(Slot s);
    void emit(Action a) { (buffer_pass_ ? pass_actions_ : actions_).push_back(a); }
    void emit_with_runs(const Action& a, const std::vector<NodeRun>& runs, std::int32_t nodes);
    // The same for job j on the columns `runs` it holds, of which the
    // action names those it executes on (executing_runs, job.h).
    void emit_job_runs(Action a, const Job& j, const std::vector<NodeRun>& runs);
    void reject(Slot s, std::string reason);

    // The pass (pass.cpp).
    void admit();
    CommonContext common_context() const;
    void class_columns();
    const BackfillContext& backfill_context(Slot head);
    MigrationContext migration_context();
    bool call_ok(Hook h, const HookOutcome& o, std::uint64_t ns);
    std::int64_t pass_work_ = 0;  // hook work this pass (policy.pass_budget)
    bool pass_budget_logged_ = false;
    // The wall time of a hook call begun at t0, for its statistics.
    static std::uint64_t elapsed_ns(std::chrono::steady_clock::time_point t0) {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - t0)
                                              .count());
    }

    // The schedule phase (walk.cpp).
    void schedule_phase();
    std::int32_t row_now(const Job& j) const;
    void queue_insert(Slot s);
    void queue_erase(Slot s);
    void add_candidate(Slot s, std::size_t pos);
    bool collect_candidates(std::size_t from, Slot head);
    bool block_may_start(std::size_t b, std::int64_t free) const;
    bool flush_candidates(Slot head);
    bool nothing_more_can_start() const;
    std::int64_t free_columns() const;
    void find_next_reservation();

    // Placement and reservations (reservations.cpp).
    void start(Slot s, std::int32_t row);
    bool can_reserve() const;
    void count_reservation(std::int32_t row, std::int32_t delta);
    Time reserve(Slot s);
    void reserve_at(Slot s, Time t, std::int32_t row);
    void unreserve(Slot s);
    void compress_reservations();
    std::pair<Time, std::int32_t> earliest_move(const Job& j, const Time* reach) const;
    void move_reservation(Slot s, Time t, std::int32_t row);

    // Time sharing (matrix_phases.cpp, slices.cpp).
    void clean_matrix();
    void collapse_matrix(bool migrate);
    void fill_matrix(bool migrate);
    void extend_overrun_windows();
    void move_home(Slot s, std::int32_t row);
    void begin_rows_pass();
    void end_rows_pass();
    void announce_placements();
    void announce_active();
    void rotate_slices();

    // The iScheduler (malleable.cpp, [Weissman03]).
    std::vector<Slot> waiting_;  // the queue at the start of the phase
    std::int64_t freed_ = 0;     // processors freed by ends since the last pass
    // Jobs queued since the last malleable pass (queue_insert), the only
    // ones Figure 3(a)'s arrival step can find: one, with no end, spares
    // the pass its walk of the queue. Unknown until a pass has walked it.
    std::int64_t entered_ = 0;
    Slot entered_last_ = 0;
    bool entered_known_ = false;
    MalleableBatch mall_;           // harvest victims or distribution candidates
    std::vector<Slot> mall_slots_;  // their slots
    std::vector<std::int64_t> take_, give_;
    std::vector<NodeRun> moved_;  // the nodes of one grow or shrink
    Time run_time(const Job& j, std::int32_t p) const;
    Time adapt_cost(const Job& j) const;
    void settle_work(Job& j);
    void retime(Slot s, Time end);
    void start_malleable(Slot s, std::int32_t p);
    void resize(Slot s, std::int32_t delta);
    void begin_malleable_batch(std::size_t n);
    void end_malleable_batch(std::size_t k);
    void put_malleable(std::size_t k, Slot s);
    void fill_malleable(MalleableColumn c);
    MalleableContext malleable_context(std::int32_t needed) const;
    bool mpl_reached() const;
    void malleable_phase();
    void arrive(Slot s);
    bool harvest_for(Slot s, std::int32_t needed);
    bool harvest_costs_more(const Job& j, std::int32_t needed) const;
    void distribute();

    // Job classes and lazy preemption (classes.cpp, [Feitelson97] §4.3).
    std::vector<Slot> owner_;         // per node: the loaded job, kNoSlot if idle
    std::vector<Time> node_free_at_;  // per node: when its last job's state is on disk
    Time node_free_max_ = 0;          // the latest of node_free_at_
    Slot class_reserved_ = kNoSlot;   // pass 1's one reservation
    std::vector<NodeRun> class_set_;  // its processors
    NodePool set_nodes_;              // its processors as a bitset: a node of the set is busy
    std::int64_t loaded_procs_ = 0, swapped_procs_ = 0, large_loaded_ = 0;
    std::vector<std::int64_t> class_loaded_;
    std::vector<std::int32_t> period_bounds_;  // seconds of the week where a period starts or ends
    Time classes_wakeup_ = kForever;
    std::vector<Slot> requeued_;
    // The waiting jobs by class (class_queue.h), kept as the queue changes;
    // rebuilt from the queue when keys change (a re-key) or a waiting job
    // changes class.
    std::vector<ClassQueue> class_queues_;
    std::vector<std::uint32_t> class_queue_pos_;  // by slot: its entry in its class's queue
    bool class_index_stale_ = true;
    bool class_pos_stale_ = true;  // class_pos_ after an insertion moved queue entries
    // The classes grouped by priority, highest first, for the parameter set
    // class_levels_for_.
    struct ClassLevel {
        std::int32_t priority;
        std::vector<std::int32_t> classes;
    };
    std::vector<ClassLevel> class_levels_;
    const ClassParams* class_levels_for_ = nullptr;
    // A walk of the waiting jobs in the passes' order (class priority, then
    // queue order), one level at a time: cursor[k] is the next position in
    // the queue of the level's k-th class.
    struct ClassWalk {
        std::size_t level = 0;
        std::vector<std::size_t> cursor;
        bool fresh = true;  // the level's cursors are not set yet
        double key = 0;     // the job returned last
        std::uint64_t seq = 0;
        std::size_t last_k = 0, last_i = 0;  // its class in the level, its entry there
        std::int64_t set_idle = 0;           // pass 2: idle processors of the reserved set
        Slot skip = kNoSlot;                 // pass 2: the reserved job
    };
    ClassWalk walk_;             // the passes' walk, kept for its cursors' storage
    bool victims_dirty_ = true;  // preemptable_procs: count afresh from the loaded jobs
    bool classes_dirty_ = true;  // an event since the last pass: run both passes
    mutable const ClassParams* params_ = nullptr;  // class_params() at params_at_
    mutable Time params_at_ = kNoTime;
    const ClassParams& find_class_params() const;
    mutable std::vector<NodeRun> idle_scratch_;
    // Scratch of best_fit and of the passes' victim lists: a pass
    // allocates nothing once they have grown.
    mutable std::vector<NodeRun> fit_scratch_;
    std::vector<Slot> victims_scratch_, chosen_scratch_;
    // By level of class_levels_: the processors of the loaded jobs of that
    // level's priority or lower that pass 1 (pre1_) and pass 2 (pre2_: also
    // past their do-not-disturb time, outside the reserved set) may preempt,
    // from the same sums at each level (victims1_, victims2_), kept as of
    // victims_at_; by slot, what a loaded job adds to them (0: nothing, 1:
    // to pass 1's, 2: to both).
    std::vector<std::int64_t> pre1_, pre2_, victims1_, victims2_;
    bool victims_sums_stale_ = true;  // pre1_ and pre2_ not summed since
    Time victims_at_ = kNoTime;
    std::vector<std::uint8_t> victims_counted_;
    // Loaded at victims_at_ (slot, seq): victims from the next time on.
    std::vector<std::pair<Slot, std::uint64_t>> victims_fresh_;
    std::vector<std::size_t> class_level_of_;  // by class: its level in class_levels_
    // For a job of class level `level` (class_levels()). Levels have
    // distinct priorities, highest first: those of priority <= the level's
    // from it on, those of lower priority from the next.
    std::int64_t preemptable_procs(std::size_t level, bool pass1) {
        if (victims_dirty_ || victims_sums_stale_ || victims_at_ != now_ || !levels_known())
            sum_victims();
        return pass1 ? pre1_[level] : pre2_[level + 1];
    }
    void sum_victims();
    void victims_at_now();
    void victim_add(Slot v, std::uint8_t k);
    void victim_past_dnd(Slot v);
    void victim_loaded(Slot v);
    void victim_unloaded(Slot v);
    void victims_set_changed(bool taken);
    std::size_t class_level(const Job& j);
    bool outside_set(const Job& v) const;
    void set_owners(std::vector<Slot>& out);
    // The jobs on the reserved set when it was listed, each with its first
    // processor there: no job can be loaded on the set while it is
    // reserved (only adopted), so those still on it are the set's jobs.
    std::vector<std::pair<Slot, std::int32_t>> set_owner_nodes_;
    bool set_owners_known_ = false;
    std::vector<std::size_t> class_pos_;  // the waiting jobs' queue positions, by slot
    struct Victims {
        std::vector<Slot> jobs;
        std::int64_t procs = 0;
        double cost = 0;
        Time ready = 0;  // when the last one's do-not-disturb time is over
    };
    // pass 1's candidate sets; cleared without freeing the sets' storage,
    // so that listing them allocates nothing once it has grown.
    class VictimSets {
      public:
        void clear() { n_ = 0; }
        bool empty() const { return n_ == 0; }
        std::size_t size() const { return n_; }
        Victims& add() {
            if (n_ == sets_.size()) sets_.emplace_back();
            return sets_[n_++];
        }
        void pop() { --n_; }  // the last one added
        const Victims& operator[](std::size_t i) const { return sets_[i]; }
        std::vector<Victims>::const_iterator begin() const { return sets_.begin(); }
        std::vector<Victims>::const_iterator end() const {
            return sets_.begin() + static_cast<std::ptrdiff_t>(n_);
        }

      private:
        std::vector<Victims> sets_;
        std::size_t n_ = 0;
    };
    VictimSets sets_;
    struct CandidateVictim {  // candidate_sets: a victim and what its orders compare
        Slot v;
        double cost;      // victim_cost
        double per_node;  // victim_cost per node
        Time dnd_left;
        std::int32_t procs, priority;
    };
    std::vector<CandidateVictim> eligible_;
    // candidate_sets' scratch, by position in eligible_: the orders' keys,
    // those of one order not taken yet, the rest of an order sorted, the
    // set being built.
    std::vector<std::uint64_t> order_keys_, left_keys_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> rest_scratch_;
    std::vector<std::uint32_t> chosen_idx_;
    std::vector<double> class_weight_;                            // by class: node_weight
    std::vector<std::pair<std::int32_t, double>> priority_cost_;  // cost per node by priority
    struct DndMark {  // a loaded job's do-not-disturb end, as it was at load
        Time end, start;
        std::uint64_t seq;
        Slot slot;
        auto operator<=>(const DndMark&) const = default;
    };
    std::vector<DndMark> dnd_marks_;  // a min-heap by end (next_dnd_wakeup)
    // preemptable_procs: loaded jobs counted in pass 1's sums only, a
    // min-heap by do-not-disturb end.
    std::vector<DndMark> victims_heap_;
    std::vector<Slot> fresh_;  // loaded at fresh_at_ with no do-not-disturb time left
    Time fresh_at_ = kNoTime;
    bool dnd_marks_stale_ = true;  // rebuilt from running_ when next needed
    bool dnd_fixed_ = false;       // no class's preemptable flag varies by period
    bool dnd_mark_valid(const DndMark& m) const;
    void mark_dnd(Slot s);
    Time next_dnd_wakeup();
    std::int32_t period_at(Time t) const;
    Time next_period_change() const;
    const JobClassConfig& job_class(const Job& j) const {
        return class_params().classes[static_cast<std::size_t>(j.cls)];
    }
    std::string never_loads(const Job& j) const;
    // When a job loaded at `from` may first be preempted (§4.2).
    Time dnd_end_from(const Job& j, Time from) const;
    bool system_allows(const Job& j) const;
    bool limits_allow(const Job& j) const;
    bool may_preempt(const Job& victim, const Job& for_job, bool pass1) const;
    double victim_cost(const Job& v, const Job& for_job) const;
    void classes_phase();
    void pass1();
    void pass2();
    void drop_class_reservation();
    void drop_needless(std::vector<Slot>& victims, std::int64_t& have, std::int64_t need) const;
    void candidate_sets(Slot s);
    // The preempt hook's choice among sets_ (preempt.cpp).
    PreemptBatch preempt_sets_;
    std::vector<std::int64_t> pick_;
    PreemptContext preempt_context(const Job& j) const;
    std::ptrdiff_t choose_set(Slot s);
    void free_runs(bool outside_set, std::vector<NodeRun>& out) const;
    void best_fit(const Job& j, bool outside_set, std::vector<NodeRun>& out) const;
    void load(Slot s, const std::vector<NodeRun>& runs);
    void swap_out(Slot s, bool by_user);
    void unload(Slot s);
    void find_classes_wakeup();
    void class_index_insert(Slot s, std::size_t pos);
    void class_index_erase(Slot s);
    void rebuild_class_index();
    void refresh_class_pos();
    // The class levels of the parameter set in force.
    bool levels_known() const {
        return params_at_ == now_ && params_ && class_levels_for_ == params_;
    }
    const std::vector<ClassLevel>& class_levels() {
        return levels_known() ? class_levels_ : find_class_levels();
    }
    const std::vector<ClassLevel>& find_class_levels();
    Slot walk_next(ClassWalk& w, bool pass1);

    // Migration (migration.cpp).
    std::int64_t migration_budget();
    void overlapping(Slot a, std::int32_t row, std::vector<Slot>& out) const;
    bool migration_ok(Slot a, std::int32_t to, const std::vector<Slot>& overlap) const;
    void migrate_option1(Slot a, std::int32_t from, std::int32_t to, bool replicate);
    void migrate_option2(Slot a, std::int32_t from, std::int32_t to);
    void emit_migrate(Slot s, std::int32_t row, int option, Time delay, std::int32_t from_row);
    void add_migration_candidate(Slot s, std::int32_t from, std::int32_t to);
    void apply_migrations();
};

}  // namespace rota
