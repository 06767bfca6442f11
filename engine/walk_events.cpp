// The matrix walk's part of the core's events: what a start, an end, a
// cancel, a node event or a re-sort changes in its reservations, its
// incremental walk and its slices.
#include <algorithm>

#include "error.h"
#include "snapshot_io.h"
#include "walk.h"

namespace rota {

MatrixWalk::MatrixWalk(Scheduler& core)
    : Discipline(core),
      reserved_in_row_(static_cast<std::size_t>(cfg().rows), 0),
      row_ok_(static_cast<std::size_t>(cfg().rows), 1),
      reach_(static_cast<std::size_t>(cfg().rows)),
      row_gain_(static_cast<std::size_t>(cfg().rows), 0) {
    // Batches carry every job's demand as shares of the capacities (R_ij).
    batch_.inv_capacity.push_back(1.0 / static_cast<double>(cfg().procs));
    for (const PoolConfig& p : cfg().pools)
        batch_.inv_capacity.push_back(1.0 / static_cast<double>(p.capacity));
    batch_.with_components = clustered();
    batch_.names = &core.names();
    place_batch_.with_components = clustered();
    place_batch_.inv_capacity = batch_.inv_capacity;
    place_batch_.names = &core.names();
    mig_.names = &core.names();
}

// [Zhang00] §4.2 and §5.4's phases; with one row only the walk has work.
void MatrixWalk::schedule() {
    // A job whose begin time came may start now, wherever it is in the queue.
    if (begins_.pop_due(now())) rescan_ = true;
    if (time_sharing()) begin_rows_pass();  // CleanMatrix, CollapseMatrix-1
    if (dirty_) compress_reservations();
    dirty_ = false;
    schedule_phase();  // Schedule-1
    if (time_sharing() && cfg().migration) {
        collapse_matrix(true);  // CollapseMatrix-2
        schedule_phase();       // Schedule-2
    }
    if (time_sharing()) end_rows_pass();  // FillMatrix-1, -2; the pass's actions; slices
}

std::optional<Time> MatrixWalk::next_wakeup() const {
    std::optional<Time> best;
    if (time_sharing() && slice_end_ != kForever) best = slice_end_;
    if (reserved_count_ > 0 && next_reservation_ > now() && next_reservation_ != kForever &&
        (!best || next_reservation_ < *best))
        best = next_reservation_;
    if (const Time b = begins_.next(); b != kForever && (!best || b < *best)) best = b;
    return best;
}

void MatrixWalk::cancelled(Slot s) {
    if (!job(s).reserved()) return;
    unreserve(s);
    dirty_ = true;
}

// Every end asks for a compression, walltime kills included, as pyss does
// (docs/design.md, "Reservations persist and are compressed").
void MatrixWalk::released(Slot s, bool early) {
    if (early) gained(job(s).alloc.home_row);
    dirty_ = true;
    rescan_ = true;
    if (!time_sharing()) return;
    auto it = std::find(executing_.begin(), executing_.end(), s);
    if (it != executing_.end()) executing_.erase(it);
    it = std::find(unannounced_.begin(), unannounced_.end(), s);
    if (it != unannounced_.end()) unannounced_.erase(it);
}

void MatrixWalk::replace_reservations() {
    for (std::size_t i = 0; i < queue().span(); ++i) {
        const JobQueue::Entry& q = queue()[i];
        if (q.live() && job(q.slot).reserved()) unreserve(q.slot);
    }
    rescan_ = true;
    dirty_ = true;
}

void MatrixWalk::capacity_gained() {
    for (std::int32_t r = 0; r < cfg().rows; ++r) gained(r);
    // Under a finite reservation depth (EASY) the reservations belong to
    // the first blocked jobs of the order. One ahead of them that no
    // reservation could hold while the capacity was out (wider than the
    // nodes in service) may be held now: they are given up, and the next
    // walk places them from the head again.
    if (cfg().reservation_depth != SchedulerConfig::kUnlimited && reserved_count_ > 0)
        replace_reservations();
    dirty_ = true;
    rescan_ = true;
}

// Whether it executes or is suspended on the embedder's side, the next
// announcement says which it is to be: RESUME in the active row, SUSPEND in
// any other.
void MatrixWalk::adopted(Slot s, std::int32_t) {
    if (!time_sharing()) return;
    executing_.push_back(s);
    unannounced_.push_back(s);
}

// Under a finite reservation depth (EASY) the reservations belong to the
// first blocked jobs of the order: after a re-sort they are given up and
// the next walk places them in the new one; unlimited (conservative, BGS),
// they are promises and stay (docs/design.md, "Order keys that change").
void MatrixWalk::rekeyed(bool resorted) {
    if (!resorted) return;
    rescan_ = true;
    if (cfg().reservation_depth != SchedulerConfig::kUnlimited && reserved_count_ > 0)
        replace_reservations();
}

// Snapshots (docs/snapshot.md): the incremental walk and the compression's
// bookkeeping, the slices, each row's last gain, and the jobs announced as
// executing in the active row.
void MatrixWalk::save_records(std::string& o) const {
    using snap::num;
    o += "walk";
    num(o, rescan_ ? 1 : 0);
    num(o, scanned_);
    num(o, head_ == kNoSlot ? std::int64_t{-1} : std::int64_t{head_});
    num(o, next_reservation_);
    num(o, dirty_ ? 1 : 0);
    num(o, gain_epoch_);
    o += "\nslices";
    num(o, slice_end_);
    num(o, budget_slice_);
    num(o, migrated_in_slice_);
    o += "\nrowgain";
    snap::list(o, row_gain_);
    o += "\nexecuting";
    snap::list(o, executing_);
    o += "\nunannounced";
    snap::list(o, unannounced_);
    o += "\n";
}

void MatrixWalk::load_records(SnapshotReader& in) {
    {
        Record r = in.next("walk");
        rescan_ = r.flag("rescan");
        scanned_ = r.count(std::size_t{1} << 40);
        const std::int64_t head = r.in_range("head", -1, INT32_MAX);
        head_ = head < 0 ? kNoSlot : static_cast<Slot>(head);
        next_reservation_ = r.time("next_reservation");
        dirty_ = r.flag("dirty");
        gain_epoch_ = r.u64();
        r.done();
    }
    {
        Record r = in.next("slices");
        slice_end_ = r.time("slice end");
        budget_slice_ = r.u64();
        migrated_in_slice_ = r.in_range("migrated", 0, INT32_MAX);
        r.done();
    }
    {
        Record r = in.next("rowgain");
        const std::size_t n = r.count(1024);
        if (n != row_gain_.size()) snap::bad("rowgain has " + std::to_string(n) + " rows");
        for (auto& g : row_gain_) g = r.u64();
        r.done();
    }
    // Running jobs, each at most once per list.
    auto running_list = [&](const char* kw, std::vector<Slot>& out) {
        Record r = in.next(kw);
        out.resize(r.count(in.slots()));
        std::vector<char> seen(in.slots(), 0);
        for (Slot& s : out) {
            s = in.slot(r);
            if (seen[s]++ || job(s).state != JobState::running)
                snap::bad(std::string(kw) + " lists slot " + std::to_string(s) +
                          ", not a running job once");
        }
        r.done();
    };
    running_list("executing", executing_);
    running_list("unannounced", unannounced_);
}

void MatrixWalk::restored() {
    begins_.rebuild(queue(), now(), [&](Slot s) -> const Job& { return job(s); });
    for (std::size_t i = 0; i < queue().span(); ++i) {
        const JobQueue::Entry& q = queue()[i];
        if (q.live() && job(q.slot).reserved()) count_reservation(job(q.slot).reserved_row, +1);
    }
    if (head_ != kNoSlot && (head_ >= jobs().size() || job(head_).state != JobState::queued))
        snap::bad("the walk's head is not a queued job");
    if (scanned_ > queue().span()) snap::bad("the walk's position is past the queue");
}

}  // namespace rota
