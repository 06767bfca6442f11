// The matrix walk ([Zhang00] §4-5; docs/design.md, "The scheduling pass"):
// the discipline of FCFS, EASY, conservative, FPFS and of gang scheduling
// (GS, BGS, MGS, MBGS), on a machine with rows, pools and clusters. Space
// sharing is the Ousterhout matrix with one row, and every pass runs the
// phases of [Zhang00] §4.2 and §5.4 in order, each a function named as in
// the paper; a phase with nothing to do costs nothing.
//
//   clean_matrix      matrix_phases.cpp
//   collapse_matrix   matrix_phases.cpp (with migration: migration.cpp)
//   schedule_phase    walk.cpp, reservations.cpp (placement.cpp on clusters)
//   fill_matrix       matrix_phases.cpp
//   slices            slices.cpp
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "discipline.h"

namespace rota {

class MatrixWalk final : public Discipline {
  public:
    explicit MatrixWalk(Scheduler& core);

    void schedule() override;
    bool keeps_running_list() const override { return time_sharing(); }
    std::string never_starts(const Job& j) const override;
    Time next_boundary() const override { return time_sharing() ? slice_end_ : kForever; }
    void boundary(Time until) override { pass_slices(until); }
    std::optional<Time> next_wakeup() const override;
    void queued(Slot s, std::size_t pos, bool appended) override;
    void dequeued(Slot s) override;
    void cancelled(Slot s) override;
    void released(Slot s, bool early) override;
    void capacity_lost() override { replace_reservations(); }
    void capacity_gained() override;
    void adopted(Slot s, std::int32_t row) override;
    void policy_changed() override { rescan_ = true; }
    void rekeyed(bool resorted) override;
    const char* snapshot_name() const override { return "walk"; }
    void save_records(std::string& out) const override;
    void load_records(SnapshotReader& in) override;
    void restored() override;

  private:
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
    std::vector<NodeRun> picked_;  // at node level: the nodes of the last search
    void gained(std::int32_t row) {
        ++gain_epoch_;
        if (!cfg().pools.empty()) {  // pools are shared: every row may benefit
            std::fill(row_gain_.begin(), row_gain_.end(), gain_epoch_);
            return;
        }
        row_gain_[static_cast<std::size_t>(row)] = gain_epoch_;
    }

    // The walk is incremental: while no capacity comes back, jobs it has
    // already found unable to start cannot start either, so the next pass
    // only looks at jobs queued since (docs/design.md, "The incremental walk").
    bool rescan_ = true;
    std::size_t scanned_ = 0;           // queue positions [0, scanned_) were walked
    Slot head_ = kNoSlot;               // first job that could not start, from that walk
    Time next_reservation_ = kForever;  // earliest reservation start (may be stale-early)

    // Backfill candidates of the walk (walk.cpp): built per pass, handed to
    // backfill_select in one call, or a chunk at a time to a policy that
    // streams.
    JobBatch batch_;
    std::vector<Slot> batch_slots_;
    std::vector<std::size_t> cand_pos_;  // their queue positions
    std::int64_t cand_procs_ = 0;        // processors the candidates ask for
    std::vector<std::int64_t> picks_;
    std::vector<std::uint8_t> pick_mark_;  // flush_candidates: which candidates were picked

    // Time sharing, rows > 1 (matrix_phases.cpp, slices.cpp): when the
    // active row's slice ends and the jobs announced as executing in it,
    // and the matrix before the pass, so that its actions describe the net
    // change.
    Time slice_end_ = kForever;
    std::vector<Slot> executing_;
    // Jobs adopted since the last announcement: their state on the
    // embedder's side is unknown, so the next one says RESUME or SUSPEND
    // for each, whatever it was before.
    std::vector<Slot> unannounced_;
    std::vector<std::uint32_t> in_row_, was_executing_;  // announce_active's marks
    std::uint32_t mark_epoch_ = 0;
    struct Placement {
        Slot slot;
        std::int16_t home;
        std::uint32_t mask;
        std::vector<NodeRun> runs;
    };
    std::vector<Slot> started_in_pass_;
    std::vector<Placement> before_pass_;

    // Migration (migration.cpp, [Zhang00] §5.4).
    std::uint64_t budget_slice_ = ~std::uint64_t{0};
    std::int64_t migrated_in_slice_ = 0;
    std::vector<Slot> migrated_;  // jobs migrated in this pass: never twice
    MigrationBatch mig_;
    std::vector<Slot> mig_slots_;
    std::vector<std::int64_t> mig_choice_;

    // Co-allocation (placement.cpp, [Ngubiri07] §3): where the components
    // of a job starting afresh go, when a placement policy is configured.
    JobBatch place_batch_;
    std::vector<std::int64_t> placement_;
    std::vector<std::int16_t> answered_;

    // Queued jobs whose begin time is ahead: the walk passes them over until
    // then, and wakes up when the first comes due.
    BeginTimes begins_;

    // One row, no pools, no clusters, no node sets, no begin time ahead:
    // the questions of the walk have their fast answers
    // (Machine::fits_now_fast, the queue's block index, which know only
    // widths and windows). Buddy packing needs a block, not a count of free
    // columns, so it is never simple.
    bool simple() const {
        return cfg().rows == 1 && cfg().pools.empty() && cfg().clusters.empty() &&
               cfg().packing == Packing::first_fit && !machine().node_level() && begins_.empty();
    }
    // The earliest time job j may start: now, or its begin time.
    Time from_now(const Job& j) const { return std::max(now(), j.spec.begin); }

    // The schedule phase (walk.cpp).
    void schedule_phase();
    std::int32_t row_now(const Job& j) const;
    void add_candidate(Slot s, std::size_t pos);
    bool collect_candidates(std::size_t from, Slot head);
    bool block_may_start(std::size_t b, std::int64_t free) const;
    bool flush_candidates(Slot head);
    bool nothing_more_can_start() const;
    std::int64_t free_columns() const;
    void find_next_reservation();
    const BackfillContext& backfill_context(Slot head);
    BackfillContext backfill_ctx_;  // what backfill_context() fills, call after call

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
    // Every reservation given up, to be placed anew by the next walk in
    // queue order (a node left, a job came back ahead of them).
    void replace_reservations();

    // Time sharing (matrix_phases.cpp, slices.cpp).
    void clean_matrix();
    void collapse_matrix(bool migrate);
    void fill_matrix(bool migrate);
    void extend_overrun_windows();
    void replace_crossing(Time until, bool place);
    void move_home(Slot s, std::int32_t row);
    void begin_rows_pass();
    void end_rows_pass();
    void announce_placements();
    void announce_active(Time at);
    void rotate_slices();
    void pass_slices(Time until);
    std::int32_t next_busy_row(std::int32_t& nonempty) const;
    void announce_switch(std::int32_t from, Time at);

    // Migration (migration.cpp).
    MigrationContext migration_context();
    std::int64_t migration_budget();
    void overlapping(Slot a, std::int32_t row, std::vector<Slot>& out) const;
    bool migration_ok(Slot a, std::int32_t to, const std::vector<Slot>& overlap) const;
    void migrate_option1(Slot a, std::int32_t from, std::int32_t to, bool replicate);
    void migrate_option2(Slot a, std::int32_t from, std::int32_t to);
    void emit_migrate(Slot s, std::int32_t row, int option, Time delay, std::int32_t from_row);
    void add_migration_candidate(Slot s, std::int32_t from, std::int32_t to);
    void apply_migrations();

    // Co-allocation (placement.cpp).
    void choose_placement(Slot s, std::int32_t row);
};

}  // namespace rota
