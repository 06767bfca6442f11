// Gang scheduling on the Ousterhout matrix (seed 000 §4.2, §5.1-5.2). At
// every scheduling event the matrix is recomputed by the phases of §4.2,
// each a function named as in the paper:
//
//   clean_matrix     drop replicas, keep home rows
//   collapse_matrix  move jobs from less to more populated rows (same
//                    columns; with migration also to other columns, §5.4),
//                    never across a reservation (BGS)
//   schedule        GS: best-fit row for each job in FCFS order, stop at the
//                   first that does not fit; BGS: backfilling in every row,
//                   estimate x MPL, a reservation in the row where a job can
//                   start earliest
//   fill_matrix      replicate jobs, in start order, into rows where their
//                    columns are free (with migration: made free, §5.4),
//                    while the matrix changes
//
// The active row rotates every time slice over the non-empty rows; the
// engine announces what to suspend and resume.
#include <algorithm>
#include <chrono>

#include "error.h"
#include "scheduler.h"

namespace rota {

namespace {

std::uint32_t bit(std::int32_t row) {
    return std::uint32_t{1} << row;
}

}  // namespace

std::int32_t Scheduler::best_row(std::int32_t procs, Time window, bool check_profile) const {
    std::int32_t best = -1;
    for (std::int32_t r = 0; r < matrix_.rows(); ++r) {
        if (matrix_.free(r) < procs) continue;
        if (check_profile && !row_profile_[static_cast<std::size_t>(r)].fits(now_, {procs}, window))
            continue;
        if (best < 0 || matrix_.free(r) < matrix_.free(best)) best = r;  // best fit
    }
    return best;
}

void Scheduler::gang_start(Slot s, std::int32_t row) {
    Job& j = job(s);
    auto& prof = row_profile_[static_cast<std::size_t>(row)];
    if (j.reserved()) {
        if (j.reserved_row != row || j.reserved_start != now_)
            throw Error(Errc::internal, "gang start outside the job's reservation");
        j.reserved_start = kNoTime;
        j.reserved_row = -1;
        --reserved_count_;
    } else {
        prof.take(now_, now_ + j.window, {j.spec.procs});
    }
    if (matrix_.free(row) < j.spec.procs)
        throw Error(Errc::internal, "gang start: the row has too few free columns");
    j.nodes.clear();
    matrix_.lowest_free(row, j.spec.procs, j.nodes);
    matrix_.place(row, j.nodes, s);
    j.home_row = static_cast<std::int16_t>(row);
    j.row_mask = bit(row);
    j.start = now_;
    j.state = JobState::running;
    ++running_count_;
    ++counters_.started;
    // With one row the estimate is the walltime and the engine kills, as in
    // space sharing; with more, only the embedder knows a job's dedicated
    // time, so it ends the job (seed 000 §2.1: killed when it has run for
    // its estimate).
    if (matrix_.rows() == 1) expiries_.push({j.estimated_end(), j.seq, s});
    gang_running_.push_back(s);
    started_in_pass_.push_back(s);  // announced with its final place (announce_placements)
}

void Scheduler::gang_stop(Slot s) {
    Job& j = job(s);
    for (std::int32_t r = 0; r < matrix_.rows(); ++r)
        if (j.row_mask & bit(r)) matrix_.clear(r, j.nodes);
    const Time end = j.estimated_end();
    if (now_ < end) {
        row_profile_[static_cast<std::size_t>(j.home_row)].give(now_, end, {j.spec.procs});
    }
    j.row_mask = 0;
    gang_running_.erase(std::find(gang_running_.begin(), gang_running_.end(), s));
    auto it = std::find(executing_.begin(), executing_.end(), s);
    if (it != executing_.end()) executing_.erase(it);
    // Capacity came back (or a pyss-style compression is due): see design.md.
    dirty_ = true;
}

void Scheduler::move_home(Slot s, std::int32_t row) {
    Job& j = job(s);
    const std::int32_t from = j.home_row;
    matrix_.clear(from, j.nodes);
    matrix_.place(row, j.nodes, s);
    const Time end = j.estimated_end();
    if (now_ < end) {
        row_profile_[static_cast<std::size_t>(from)].give(now_, end, {j.spec.procs});
        row_profile_[static_cast<std::size_t>(row)].take(now_, end, {j.spec.procs});
    }
    j.home_row = static_cast<std::int16_t>(row);
    j.row_mask = bit(row);
}

void Scheduler::gang_reserve(Slot s) {
    Job& j = job(s);
    Time best = kForever;
    std::int32_t row = 0;
    for (std::int32_t r = 0; r < matrix_.rows(); ++r) {
        Time t = row_profile_[static_cast<std::size_t>(r)].earliest(now_, {j.spec.procs}, j.window);
        if (t < best) {
            best = t;
            row = r;
        }
    }
    row_profile_[static_cast<std::size_t>(row)].take(best, best + j.window, {j.spec.procs});
    j.reserved_start = best;
    j.reserved_row = static_cast<std::int16_t>(row);
    ++reserved_count_;
}

void Scheduler::gang_unreserve(Slot s) {
    Job& j = job(s);
    row_profile_[static_cast<std::size_t>(j.reserved_row)].give(
        j.reserved_start, j.reserved_start + j.window, {j.spec.procs});
    j.reserved_start = kNoTime;
    j.reserved_row = -1;
    --reserved_count_;
}

// CleanMatrix (§5.1): every job keeps only its home row.
void Scheduler::clean_matrix() {
    for (Slot s : gang_running_) {
        Job& j = job(s);
        for (std::int32_t r = 0; r < matrix_.rows(); ++r)
            if (r != j.home_row && (j.row_mask & bit(r))) matrix_.clear(r, j.nodes);
        j.row_mask = bit(j.home_row);
    }
}

// CompactMatrix / CollapseMatrix-1 and -2 (§5.1, §5.4): from the least to
// the most populated row, try to
// move each job into a more populated row where its columns are free, so
// that the emptiest rows open up for wide jobs. Under BGS a move must not
// break a reservation of the target row (§5.2).
void Scheduler::collapse_matrix(bool migrate) {
    const std::int32_t rows = matrix_.rows();
    if (rows < 2) return;
    if (migrate) mig_.clear(), mig_slots_.clear();
    std::vector<std::int32_t> order(static_cast<std::size_t>(rows));
    for (std::int32_t r = 0; r < rows; ++r) order[static_cast<std::size_t>(r)] = r;
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
        return matrix_.used(a) < matrix_.used(b);
    });
    std::vector<Slot> jobs;
    for (std::size_t ii = 0; ii + 1 < order.size(); ++ii) {
        const std::int32_t from = order[ii];
        jobs.clear();
        for (Slot s : gang_running_)
            if (job(s).home_row == from) jobs.push_back(s);
        for (std::size_t jj = order.size() - 1; jj > ii; --jj) {
            const std::int32_t to = order[jj];
            for (Slot s : jobs) {
                Job& j = job(s);
                if (j.home_row != from) continue;
                if (cfg_.gang.backfill && now_ < j.estimated_end() &&
                    !row_profile_[static_cast<std::size_t>(to)].fits(now_, {j.spec.procs},
                                                                     j.estimated_end() - now_))
                    continue;
                if (matrix_.columns_free(to, j.nodes)) {
                    move_home(s, to);
                } else if (migrate && matrix_.free(to) >= j.spec.procs &&
                           std::find(mig_slots_.begin(), mig_slots_.end(), s) == mig_slots_.end()) {
                    add_migration_candidate(s, from, to);
                }
            }
        }
    }
    if (migrate && mig_.size() > 0) apply_migrations();
}

// BGS: when capacity came back, each reservation in queue order moves to
// the earliest slot of any row, every other reservation in place, so none
// moves later (as for conservative backfilling, design.md).
void Scheduler::gang_compress() {
    for (std::size_t i = 0; i < queue_.span(); ++i) {
        if (!queue_[i].live()) continue;
        Slot s = queue_[i].slot;
        Job& j = job(s);
        if (!j.reserved()) continue;
        const Time old = j.reserved_start;
        gang_unreserve(s);
        gang_reserve(s);
        if (j.reserved_start > std::max(old, now_))
            throw Error(Errc::internal, "compression would delay a reservation");
    }
}

// Schedule (§5.1 for GS, §5.2 for BGS).
void Scheduler::gang_schedule() {
    bool blocked = false;  // an earlier job in the queue is waiting
    for (std::size_t i = 0; i < queue_.span(); ++i) {
        if (!queue_[i].live()) continue;
        const Slot s = queue_[i].slot;
        Job& j = job(s);
        if (!cfg_.gang.backfill) {
            std::int32_t r = best_row(j.spec.procs, j.window, false);
            if (r < 0) break;  // GS stops at the first job that cannot start
            gang_start(s, r);
            queue_.kill(i);
            continue;
        }
        if (j.reserved() && j.reserved_start < now_) gang_unreserve(s);  // the clock jumped past it
        if (j.reserved()) {
            if (j.reserved_start == now_) {
                gang_start(s, j.reserved_row);
                queue_.kill(i);
            } else {
                blocked = true;
            }
            continue;
        }
        std::int32_t r = best_row(j.spec.procs, j.window, true);
        if (r >= 0) {
            gang_start(s, r);
            queue_.kill(i);
            if (blocked) ++counters_.backfilled;  // started past a waiting job
        } else {
            gang_reserve(s);
            blocked = true;
        }
    }
    queue_.maybe_compact();
}

// FillMatrix (§5.1): replicate jobs, in start order, into the first row
// where all their columns are free, again while the matrix changes.
// Replicas are not bound by reservations (§5.2): the next event cleans them.
// FillMatrix-2 (§5.4) may also make room: with option 1 only, moving the
// jobs on the columns in that row, provided they are in no other row and
// the migrated tasks fit in Q.
void Scheduler::fill_matrix(bool migrate) {
    if (matrix_.rows() < 2) return;
    bool changed = true;
    std::vector<Slot> overlap;
    while (changed) {
        changed = false;
        for (Slot s : gang_running_) {
            Job& j = job(s);
            for (std::int32_t r = 0; r < matrix_.rows(); ++r) {
                if (j.row_mask & bit(r)) continue;
                if (matrix_.columns_free(r, j.nodes)) {
                    matrix_.place(r, j.nodes, s);
                    j.row_mask |= bit(r);
                    changed = true;
                    break;
                }
                if (!migrate || matrix_.free(r) < j.spec.procs) continue;
                overlapping(s, r, overlap);
                if (!migration_ok(s, r, overlap)) continue;
                std::int64_t tasks = 0;
                bool alone = true;
                for (Slot o : overlap) {
                    tasks += job(o).spec.procs;
                    alone = alone && job(o).row_mask == bit(r);
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
// grows by one cycle, and the reservations of that row are placed anew
// (they may move later: the worst-case estimate of §5.2 did not hold).
void Scheduler::extend_overrun_windows() {
    if (matrix_.rows() == 1) return;
    const Time cycle = cfg_.gang.slice * matrix_.rows();
    bool extended = false;
    for (Slot s : gang_running_) {
        Job& j = job(s);
        const Time end = j.estimated_end();
        if (end > now_) continue;
        const Time new_end = now_ + cycle;
        row_profile_[static_cast<std::size_t>(j.home_row)].take(now_, new_end, {j.spec.procs});
        j.window = new_end - j.start;
        extended = true;
    }
    if (!extended || reserved_count_ == 0) return;
    for (std::size_t i = 0; i < queue_.span(); ++i) {
        if (!queue_[i].live()) continue;
        const Slot s = queue_[i].slot;
        if (!job(s).reserved()) continue;
        gang_unreserve(s);
        gang_reserve(s);
    }
}

void Scheduler::gang_pass() {
    for (auto& p : row_profile_) p.advance(now_);
    extend_overrun_windows();
    before_pass_.clear();
    for (Slot s : gang_running_)
        before_pass_.push_back({s, job(s).home_row, job(s).row_mask, job(s).nodes});
    started_in_pass_.clear();
    migrated_.clear();
    pass_actions_.clear();
    buffer_pass_ = true;
    // The order of §5.4: each step first without migration, then with it.
    clean_matrix();
    collapse_matrix(false);
    if (dirty_ && cfg_.gang.backfill) gang_compress();
    dirty_ = false;
    gang_schedule();
    if (cfg_.gang.migration) {
        collapse_matrix(true);
        gang_schedule();
    }
    fill_matrix(false);
    if (cfg_.gang.migration) fill_matrix(true);
    find_next_reservation();
    buffer_pass_ = false;
    announce_placements();
    // Keep a non-empty row active, and slice only when two rows have work.
    std::int32_t nonempty = 0;
    for (std::int32_t r = 0; r < matrix_.rows(); ++r) nonempty += matrix_.used(r) > 0;
    if (matrix_.used(active_row_) == 0 && nonempty > 0) {
        rotate_slices();
    } else {
        if (nonempty >= 2 && slice_end_ == kForever) slice_end_ = now_ + cfg_.gang.slice;
        if (nonempty < 2) slice_end_ = kForever;
        announce_active();
    }
}

// The net result of the pass for the embedder, whatever clean, collapse,
// migration and fill did in between: first every release (UNREPLICATE,
// with the columns the job held), then home-row changes (MOVE), the new
// jobs (START, in start order) and every new placement (REPLICATE, with
// the columns it now holds); applied in this order no action puts a job on
// cells another still holds. MIGRATE actions then say what was
// checkpointed and restarted and for how long (they place nothing).
void Scheduler::announce_placements() {
    auto on = [](std::uint32_t mask, std::int32_t r) { return (mask & bit(r)) != 0; };
    auto same = [](const std::vector<NodeRun>& x, const std::vector<NodeRun>& y) {
        return x.size() == y.size() &&
               std::equal(x.begin(), x.end(), y.begin(), [](const NodeRun& a, const NodeRun& b) {
                   return a.first == b.first && a.count == b.count;
               });
    };
    std::size_t b = 0;
    for (Slot s : gang_running_) {  // releases
        if (b >= before_pass_.size() || before_pass_[b].slot != s) continue;
        const Placement& p = before_pass_[b++];
        const Job& j = job(s);
        const bool moved_columns = !same(p.runs, j.nodes);
        for (std::int32_t r = 0; r < matrix_.rows(); ++r)
            if (on(p.mask, r) && (!on(j.row_mask, r) || moved_columns)) {
                Action a{ActionType::unreplicate, j.spec.id, now_};
                a.row = r;
                emit_with_runs(a, p.runs, j.spec.procs);
            }
    }
    b = 0;
    for (Slot s : gang_running_) {  // home rows
        if (b >= before_pass_.size() || before_pass_[b].slot != s) continue;
        const Placement& p = before_pass_[b++];
        if (p.home != job(s).home_row) {
            Action a{ActionType::move, job(s).spec.id, now_};
            a.row = job(s).home_row;
            emit_with_runs(a, job(s));
        }
    }
    for (Slot s : started_in_pass_) {  // new jobs, in their final place
        const Job& j = job(s);
        Action a{ActionType::start, j.spec.id, now_};
        a.row = j.home_row;
        emit_with_runs(a, j);
    }
    b = 0;
    for (Slot s : gang_running_) {  // placements
        const Job& j = job(s);
        std::uint32_t held = bit(j.home_row);  // a new job: START gave its home row
        if (b < before_pass_.size() && before_pass_[b].slot == s) {
            const Placement& p = before_pass_[b++];
            held = same(p.runs, j.nodes) ? p.mask : 0;
        }
        for (std::int32_t r = 0; r < matrix_.rows(); ++r)
            if (on(j.row_mask, r) && !on(held, r)) {
                Action a{ActionType::replicate, j.spec.id, now_};
                a.row = r;
                emit_with_runs(a, j);
            }
    }
    actions_.insert(actions_.end(), pass_actions_.begin(), pass_actions_.end());
    pass_actions_.clear();
}

// Suspend what left the active row, resume what entered it. Marks by
// epoch keep it linear in the columns and running jobs.
void Scheduler::announce_active() {
    if (in_row_.size() < jobs_.size()) {
        in_row_.resize(jobs_.size(), 0);
        was_executing_.resize(jobs_.size(), 0);
    }
    ++mark_epoch_;
    for (Slot s : executing_) was_executing_[s] = mark_epoch_;
    std::vector<Slot> now_running;
    for (std::int32_t c = 0; c < matrix_.cols(); ++c) {
        const Slot s = matrix_.at(active_row_, c);
        if (s == Matrix::kEmpty || in_row_[s] == mark_epoch_) continue;
        in_row_[s] = mark_epoch_;
        now_running.push_back(s);
    }
    for (Slot s : executing_)
        if (in_row_[s] != mark_epoch_) {
            Action a{ActionType::suspend, job(s).spec.id, now_};
            a.row = active_row_;
            emit(a);
        }
    for (Slot s : now_running)
        if (was_executing_[s] != mark_epoch_) {
            Action a{ActionType::resume, job(s).spec.id, now_};
            a.row = active_row_;
            emit(a);
        }
    executing_ = std::move(now_running);
}

// The next non-empty row becomes active for a new slice.
void Scheduler::rotate_slices() {
    const std::int32_t rows = matrix_.rows();
    std::int32_t nonempty = 0, next = -1;
    for (std::int32_t k = 1; k <= rows; ++k) {
        const std::int32_t r = (active_row_ + k) % rows;
        if (matrix_.used(r) == 0) continue;
        ++nonempty;
        if (next < 0) next = r;
    }
    if (next >= 0 && next != active_row_) {
        active_row_ = next;
        Action a{ActionType::switch_row, -1, now_};
        a.row = next;
        emit(a);
    }
    slice_end_ = nonempty >= 2 ? now_ + cfg_.gang.slice : kForever;
    announce_active();
}

}  // namespace rota
