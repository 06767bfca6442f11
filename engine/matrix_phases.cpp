// The matrix phases of gang scheduling ([Zhang00] §4.2, §5.1, §5.4), which
// only have work to do with more than one row:
//
//   clean_matrix     every job keeps only its home row
//   collapse_matrix  from the least to the most populated row, move each
//                    job into a fuller row where its columns are free (with
//                    migration also to other columns, migration.cpp),
//                    never across a reservation of the target row (§5.2)
//   fill_matrix      replicate jobs, in start order, into rows where their
//                    columns are free (with migration: made free, §5.4),
//                    while the matrix changes
#include <algorithm>

#include "error.h"
#include "walk.h"

namespace rota {

namespace {

std::uint32_t bit(std::int32_t row) {
    return std::uint32_t{1} << row;
}

}  // namespace

void MatrixWalk::begin_rows_pass() {
    extend_overrun_windows();
    before_pass_.clear();
    for (Slot s : running()) {
        const Allocation& a = job(s).alloc;
        before_pass_.push_back({s, a.home_row, a.row_mask, a.runs});
    }
    started_in_pass_.clear();
    migrated_.clear();
    hold_actions();
    clean_matrix();
    collapse_matrix(false);
}

void MatrixWalk::end_rows_pass() {
    fill_matrix(false);
    if (cfg().migration) fill_matrix(true);
    stop_holding_actions();
    announce_placements();
    // Keep a non-empty row active, and slice only when two rows have work.
    const Matrix& m = machine().matrix();
    std::int32_t nonempty = 0;
    for (std::int32_t r = 0; r < m.rows(); ++r) nonempty += m.used(r) > 0;
    if (m.used(active_row()) == 0 && nonempty > 0) {
        rotate_slices();
    } else {
        if (nonempty >= 2 && slice_end_ == kForever) slice_end_ = now() + cfg().slice;
        if (nonempty < 2) slice_end_ = kForever;
        announce_active(now());
    }
}

// A job's home row changes; its columns stay. Its promise moves with it.
void MatrixWalk::move_home(Slot s, std::int32_t row) {
    Job& j = job(s);
    Allocation& a = j.alloc;
    const std::int32_t from = a.home_row;
    Matrix& m = machine().matrix();
    m.clear(from, a.runs);
    m.place(row, a.runs, s);
    machine().move(from, row, demand(j), now(), j.estimated_end());
    gained(from);
    a.home_row = static_cast<std::int16_t>(row);
    a.row_mask = bit(row);
    rescan_ = true;  // the row it left has room now
}

// CleanMatrix (§5.1): every job keeps only its home row.
void MatrixWalk::clean_matrix() {
    Matrix& m = machine().matrix();
    for (Slot s : running()) {
        Allocation& a = job(s).alloc;
        for (std::int32_t r = 0; r < m.rows(); ++r)
            if (r != a.home_row && (a.row_mask & bit(r))) m.clear(r, a.runs);
        a.row_mask = bit(a.home_row);
    }
}

// CompactMatrix / CollapseMatrix-1 and -2 (§5.1, §5.4): from the least to
// the most populated row, try to move each job into a more populated row
// where its columns are free, so that the emptiest rows open up for wide
// jobs. A move must not break a reservation of the target row (§5.2).
void MatrixWalk::collapse_matrix(bool migrate) {
    const Matrix& m = machine().matrix();
    const std::int32_t rows = m.rows();
    if (rows < 2) return;
    if (migrate) mig_.clear(), mig_slots_.clear();
    std::vector<std::int32_t> order(static_cast<std::size_t>(rows));
    for (std::int32_t r = 0; r < rows; ++r) order[static_cast<std::size_t>(r)] = r;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t a, std::int32_t b) { return m.used(a) < m.used(b); });
    std::vector<Slot> jobs;
    for (std::size_t ii = 0; ii + 1 < order.size(); ++ii) {
        const std::int32_t from = order[ii];
        jobs.clear();
        for (Slot s : running())
            if (job(s).alloc.home_row == from) jobs.push_back(s);
        for (std::size_t jj = order.size() - 1; jj > ii; --jj) {
            const std::int32_t to = order[jj];
            for (Slot s : jobs) {
                Job& j = job(s);
                if (j.alloc.home_row != from) continue;
                if (m.free(to) < j.alloc.procs) continue;
                if (!machine().row_holds(to, demand(j), now(), j.estimated_end())) continue;
                if (m.columns_free(to, j.alloc.runs)) {
                    move_home(s, to);
                } else if (migrate && m.free(to) >= j.alloc.procs &&
                           std::find(mig_slots_.begin(), mig_slots_.end(), s) == mig_slots_.end()) {
                    add_migration_candidate(s, from, to);
                }
            }
        }
    }
    if (migrate && mig_.size() > 0) apply_migrations();
}

// FillMatrix (§5.1): replicate jobs, in start order, into the first row
// where all their columns are free, again while the matrix changes.
// Replicas are not bound by reservations (§5.2): the next pass cleans them.
// FillMatrix-2 (§5.4) may also make room: with option 1 only, moving the
// jobs on the columns in that row, provided they are in no other row and
// the migrated tasks fit in Q.
void MatrixWalk::fill_matrix(bool migrate) {
    Matrix& m = machine().matrix();
    if (m.rows() < 2) return;
    bool changed = true;
    std::vector<Slot> overlap;
    while (changed) {
        changed = false;
        for (Slot s : running()) {
            Allocation& a = job(s).alloc;
            for (std::int32_t r = 0; r < m.rows(); ++r) {
                if (a.row_mask & bit(r)) continue;
                if (m.free(r) < a.procs) continue;  // neither its columns nor room elsewhere
                if (m.columns_free(r, a.runs)) {
                    m.place(r, a.runs, s);
                    a.row_mask |= bit(r);
                    changed = true;
                    break;
                }
                if (!migrate || m.free(r) < a.procs) continue;
                overlapping(s, r, overlap);
                if (!migration_ok(s, r, overlap)) continue;
                std::int64_t tasks = 0;
                bool alone = true;
                for (Slot o : overlap) {
                    tasks += job(o).alloc.procs;
                    alone = alone && job(o).alloc.row_mask == bit(r);
                }
                const std::int64_t left = migration_budget();
                if (!alone || (left >= 0 && tasks > left)) continue;
                migrate_option1(s, -1, r, true);
                changed = true;
                break;
            }
        }
    }
}

// A job can outlive its window (estimate x MPL) when context switches,
// migrations or waiting for its row slow it below one slice per row: the
// profile of its row must not pretend its columns are free. Its window
// grows by one cycle. Where that over-commits the row, the reservations
// crossing the extension are placed anew, in queue order (they may move
// later: the worst case of §5.2 did not hold); the others are untouched.
void MatrixWalk::extend_overrun_windows() {
    const Time cycle = cfg().slice * cfg().rows;
    bool over = false, any = false;
    for (Slot s : running()) any = any || job(s).estimated_end() <= now();
    if (!any) return;
    // At node level a promise holds nodes, not a count, and the extension
    // must find them free: the reservations it may cross are given up first.
    if (machine().node_level()) replace_crossing(now() + cycle, false);
    for (Slot s : running()) {
        Job& j = job(s);
        const Time end = j.estimated_end();
        if (end > now()) continue;
        const Time new_end = now() + cycle;
        const std::int32_t row = j.alloc.home_row;
        machine().take(row, now(), new_end, demand(j));
        j.window = new_end - j.start;
        ++counters().window_extensions;
        const std::int64_t none = 0;
        over = over || !machine().profile(row).fits(now(), &none, cycle) ||
               !machine().pools_fit(now(), cycle);
        // On clusters a cluster may be over while its row is not.
        for (std::int32_t c = 0; c < machine().clusters() && !over; ++c)
            over = !machine().cluster_profile(row, c).fits(now(), &none, cycle);
    }
    if (!machine().node_level() && over && reserved_count_ > 0)
        replace_crossing(now() + cycle, true);
}

// The reservations that start before `until` are given up and, with
// `place`, placed anew at once, in queue order (they may move later: the
// worst case of [Zhang00] §5.2 did not hold); else the next walk places them.
void MatrixWalk::replace_crossing(Time until, bool place) {
    if (reserved_count_ == 0) return;
    rescan_ = true;
    for (std::size_t i = 0; i < queue().span(); ++i) {
        if (!queue()[i].live()) continue;
        const Slot s = queue()[i].slot;
        const Job& j = job(s);
        if (!j.reserved() || j.reserved_start >= until) continue;
        unreserve(s);
        if (place) reserve(s);
    }
    find_next_reservation();
}

}  // namespace rota
