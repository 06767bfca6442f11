// The engine: the state of one machine (nodes, queue, running jobs,
// reservations), the events that change it and the scheduling pass.
// Single-threaded: one Scheduler per thread, any number per process.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "action.h"
#include "config.h"
#include "counters.h"
#include "job.h"
#include "job_index.h"
#include "job_queue.h"
#include "matrix.h"
#include "nodes.h"
#include "policy.h"
#include "profile.h"

namespace rota {

struct ReservationInfo {
    JobId job;
    Time start;
    Time end;
    std::int32_t procs;
    std::int32_t row = 0;
};

class Scheduler {
  public:
    explicit Scheduler(SchedulerConfig cfg);

    // Events. Each applies at the current time (set by advance) and throws
    // rota::Error on bad input, leaving the state unchanged.
    void submit(const JobSpec& spec);
    void job_end(JobId id);  // the job finished or failed on its own
    void cancel(JobId id);
    void advance(Time t);  // also kills running jobs whose estimate expired
    void schedule();       // one scheduling pass

    // Actions, oldest first. Pointers into the arenas stay valid until the
    // next event call.
    bool next_action(Action& out);
    const NodeRun* action_runs(const Action& a) const;
    const char* action_reason(const Action& a) const;

    // The earliest time the engine must be advanced to even if nothing else
    // happens: a walltime expiry or the start of a reservation.
    std::optional<Time> next_wakeup() const;

    // Queries.
    Time now() const { return now_; }
    const SchedulerConfig& config() const { return cfg_; }
    const Job* find(JobId id) const;
    void queue_ids(std::vector<JobId>& out) const;    // in policy order
    void running_ids(std::vector<JobId>& out) const;  // by start
    void held_ids(std::vector<JobId>& out) const;
    void reservations(std::vector<ReservationInfo>& out) const;
    // Gang scheduling: the matrix, the active row (executing now).
    const Matrix& matrix() const { return matrix_; }
    std::int32_t active_row() const { return active_row_; }
    JobId job_at(Matrix::Slot s) const { return jobs_[s].spec.id; }
    const NodePool& nodes() const { return nodes_; }
    // Idle nodes; under gang scheduling, the free columns of the active row.
    void idle_nodes(std::vector<std::int32_t>& out) const;
    const Profile& profile() const { return profile_; }
    const Counters& counters() const { return counters_; }
    std::size_t queue_length() const { return queue_.size(); }
    std::size_t running_count() const { return running_count_; }
    std::size_t held_count() const { return held_.size(); }

    // Policies: one per hook, null meaning the built-in default.
    void set_policy(Hook h, std::shared_ptr<Policy> p);
    std::shared_ptr<Policy> policy(Hook h) const { return policy_[static_cast<int>(h)]; }
    using LogSink = std::function<void(const std::string&)>;
    void set_log(LogSink sink) { log_ = std::move(sink); }

  private:
    using Slot = std::uint32_t;

    SchedulerConfig cfg_;
    Time now_ = 0;
    std::uint64_t next_seq_ = 0;
    Profile profile_;
    NodePool nodes_;
    std::vector<std::int64_t> pool_capacity_;

    std::vector<Job> jobs_;  // slab; slots are reused
    std::vector<Slot> free_slots_;
    JobIndex index_;

    std::vector<Slot> pending_;  // submitted since the last pass
    std::vector<Slot> held_;
    JobQueue queue_;  // policy order: (order_key, seq)
    std::int32_t reserved_count_ = 0;
    // The walk is incremental: while no capacity comes back, jobs it has
    // already found unable to start cannot start either, so the next pass
    // only looks at jobs queued since (docs/design.md, "The incremental walk").
    static constexpr Slot kNoSlot = static_cast<Slot>(-1);
    bool rescan_ = true;
    std::size_t scanned_ = 0;           // queue_ positions [0, scanned_) were walked
    Slot head_ = kNoSlot;               // first job that could not start, from that walk
    Time next_reservation_ = kForever;  // earliest reservation start (may be stale-early)
    std::size_t running_count_ = 0;
    bool dirty_ = false;  // capacity came back early: reservations may move up

    struct Expiry {
        Time end;
        std::uint64_t seq;
        Slot slot;
        bool operator>(const Expiry& o) const { return end != o.end ? end > o.end : seq > o.seq; }
    };
    // Mutable: next_wakeup() drops stale tops (jobs that ended early) lazily.
    mutable std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries_;

    std::vector<Action> actions_;
    std::size_t action_head_ = 0;
    std::vector<NodeRun> run_arena_;
    std::vector<std::string> reason_arena_;

    std::array<std::shared_ptr<Policy>, kHookCount> policy_{};
    Counters counters_;
    LogSink log_;
    std::array<std::uint32_t, kHookCount> logged_failures_{};

    // Scratch reused by every pass so a pass allocates nothing.
    JobBatch batch_;
    std::vector<Slot> batch_slots_;
    std::vector<Admission> admissions_;
    std::vector<double> keys_;
    std::vector<std::uint32_t> picks_;
    std::vector<std::uint8_t> picked_;
    std::vector<std::size_t> cand_pos_;  // queue positions of the candidates
    // fit_limit() answers by width, valid for one profile version and time:
    // the queue has many jobs of the same few widths.
    mutable std::vector<Time> limit_;
    mutable std::vector<std::uint64_t> limit_stamp_;
    mutable std::uint64_t limit_gen_ = 0;
    mutable std::uint64_t limit_version_ = ~std::uint64_t{0};
    mutable Time limit_now_ = kNoTime;

    // Gang scheduling (gang_pass.cpp): the matrix, a profile per row, the
    // active row and the jobs announced as executing in it.
    Matrix matrix_;
    std::vector<Profile> row_profile_;
    std::int32_t active_row_ = 0;
    Time slice_end_ = kForever;
    std::vector<Slot> executing_;
    std::vector<std::uint32_t> in_row_, was_executing_;  // announce_active's marks
    std::uint32_t mark_epoch_ = 0;
    std::vector<Slot> gang_running_;  // in start order
    struct Placement {
        Slot slot;
        std::int16_t home;
        std::uint32_t mask;
        std::vector<NodeRun> runs;
    };
    std::vector<Slot> started_in_pass_;
    std::vector<Placement> before_pass_;

    void gang_pass();
    void clean_matrix();
    void collapse_matrix(bool migrate);
    void gang_compress();
    void extend_overrun_windows();
    void gang_schedule();
    void fill_matrix(bool migrate);
    // Migration (gang_migration.cpp, seed 000 §5.4).
    std::uint64_t budget_slice_ = ~std::uint64_t{0};
    std::int64_t migrated_in_slice_ = 0;
    std::vector<Slot> migrated_;  // jobs migrated in this pass: never twice
    MigrationBatch mig_;
    std::vector<Slot> mig_slots_;
    std::vector<std::uint8_t> mig_choice_;
    std::int64_t migration_budget();
    void overlapping(Slot a, std::int32_t row, std::vector<Slot>& out) const;
    bool migration_ok(Slot a, std::int32_t to, const std::vector<Slot>& overlap) const;
    void migrate_option1(Slot a, std::int32_t from, std::int32_t to, bool replicate);
    void migrate_option2(Slot a, std::int32_t from, std::int32_t to);
    void emit_migrate(Slot s, std::int32_t row, int option, Time delay, std::int32_t from_row);
    void add_migration_candidate(Slot s, std::int32_t from, std::int32_t to);
    void apply_migrations();
    void gang_start(Slot s, std::int32_t row);
    void gang_reserve(Slot s);
    void gang_unreserve(Slot s);
    void gang_stop(Slot s);
    void move_home(Slot s, std::int32_t row);
    void announce_placements();
    void announce_active();
    void rotate_slices();
    std::int32_t best_row(std::int32_t procs, Time window, bool check_profile) const;

    // Pass phases (schedule_pass.cpp).
    void admit();
    void compress_reservations();
    void schedule_queue();
    void backfill(Slot head);
    PassContext context(Slot head) const;

    // Mechanics.
    Job& job(Slot s) { return jobs_[s]; }
    const Job& job(Slot s) const { return jobs_[s]; }
    Slot slot_of(JobId id) const;
    Demand demand(const Job& j) const;
    bool fits_now(const Job& j) const;
    bool possible(const Job& j, std::string& why) const;
    void start(Slot s);
    void reserve(Slot s, Time t);
    void unreserve(Slot s);
    void stop_running(Slot s, JobState final_state);
    void forget(Slot s);
    void reject(Slot s, std::string reason);
    void queue_insert(Slot s);
    void queue_erase(Slot s);
    // Profile::fit_limit at now, cached by width; refresh_limits() first.
    void refresh_limits() const;
    Time limit_of(std::int32_t procs) const;
    void add_candidate(Slot s, std::size_t pos);
    void collect_candidates(std::size_t from);
    void find_next_reservation();
    void begin_event();
    // During a gang pass, starts and migrations wait in `pass_actions_` so
    // that the pass's releases (UNREPLICATE, MOVE) come out first.
    void emit(Action a) { (buffer_pass_ ? pass_actions_ : actions_).push_back(a); }
    bool buffer_pass_ = false;
    // Emits `a` with job `j`'s node runs attached (START, REPLICATE, ...).
    void emit_with_runs(Action a, const Job& j);
    void emit_with_runs(Action a, const std::vector<NodeRun>& runs, std::int32_t nodes);
    std::vector<Action> pass_actions_;
    bool call_ok(Hook h, const HookOutcome& o, std::uint64_t ns);
};

}  // namespace rota
