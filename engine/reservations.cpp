// Placing jobs on the machine: starts, reservations and their compression.
//
// A reservation, once given, is kept across passes and only ever moves
// earlier: that is the promise of conservative backfilling ("a job selected
// out of order completes before the jobs ahead of it are scheduled to
// start", [Zhang00] §1) and of BGS (§5.2). When capacity comes back, every
// reservation in queue order gives up its slot and takes the earliest one
// given all the others, which can only be the same or earlier; a
// reservation that provably cannot move is skipped (docs/design.md,
// "Compression").
#include <algorithm>

#include "error.h"
#include "walk.h"

namespace rota {

void MatrixWalk::start(Slot s, std::int32_t row) {
    Job& j = job(s);
    Matrix& m = machine().matrix();
    // Buddy packing: the job holds its whole block, in the profile too.
    NodeRun block{0, 0};
    if (machine().buddy() && !m.buddy_block(row, j.spec.procs, block))
        throw Error(Errc::internal, "start: no buddy block is free in the row");
    // At node level, the nodes it runs on: its reservation's, or those the
    // machine picks for it now.
    std::vector<NodeRun> picked;
    if (j.reserved()) {
        if (j.reserved_row != row || j.reserved_start != now())
            throw Error(Errc::internal, "start outside the job's reservation");
        // Its reservation already holds the window from now on.
        count_reservation(row, -1);
        j.reserved_start = kNoTime;
        j.reserved_row = -1;
        picked = std::move(j.reserved_runs);
        j.reserved_runs.clear();
    } else if (machine().node_level()) {
        if (!machine().pick_now(row, demand(j), now(), picked))
            throw Error(Errc::internal, "start: no nodes the job may use are free");
        Demand d = demand(j);
        d.runs = &picked;
        machine().take(row, now(), now() + j.window, d);
    } else {
        if (clustered()) {  // Worst Fit, unless the placement hook says otherwise
            j.clusters.resize(j.spec.components.size());
            if (!machine().worst_fit(row, demand(j), now(), j.clusters.data()))
                throw Error(Errc::internal, "start: the components have no placement");
            if (policy(Hook::placement)) choose_placement(s, row);
        }
        Demand d = demand(j);
        if (block.count > 0) d.procs = block.count;
        machine().take(row, now(), now() + j.window, d);
    }
    if (m.free(row) < j.spec.procs)
        throw Error(Errc::internal, "start: the profile and the matrix disagree");
    Allocation& a = j.alloc;
    a.runs.clear();
    if (machine().node_level()) {
        a.runs = std::move(picked);
        m.place(row, a.runs, s);
    } else if (clustered()) {
        machine().allocate_components(row, demand(j), a.runs, s);
    } else if (block.count > 0) {
        a.runs.push_back(block);
        m.place(row, a.runs, s);
    } else {
        m.allocate(row, j.spec.procs, a.runs, s);
    }
    a.procs = block.count > 0 ? block.count : j.spec.procs;
    a.home_row = static_cast<std::int16_t>(row);
    a.row_mask = 1u << row;
    now_running(s);
    ++counters().started;
    if (time_sharing()) {
        started_in_pass_.push_back(s);  // announced in its final place (slices.cpp)
        return;
    }
    // With one row the estimate is the walltime and the engine kills.
    expiries().set({j.estimated_end(), j.seq, s});
    emit_job_runs(Action{ActionType::start, j.spec.id, now()}, j, a.runs);
}

bool MatrixWalk::can_reserve() const {
    if (cfg().reservation_depth == 0) return false;
    return cfg().reservation_depth == SchedulerConfig::kUnlimited || rows_at_depth_ < cfg().rows;
}

void MatrixWalk::count_reservation(std::int32_t row, std::int32_t delta) {
    reserved_count_ += delta;
    std::int32_t& n = reserved_in_row_[static_cast<std::size_t>(row)];
    const bool was_full = n >= cfg().reservation_depth;
    n += delta;
    rows_at_depth_ += (n >= cfg().reservation_depth) - was_full;
    // A row that may take one more reservation again can offer a slot it
    // could not before: for compression that is a gain (earliest_move skips
    // rows that gained nothing since a reservation settled).
    if (was_full && n < cfg().reservation_depth) gained(row);
}

// A reservation at the earliest slot of the rows that may take one more;
// kForever, and none, if no slot ends by Machine::kHorizon.
Time MatrixWalk::reserve(Slot s) {
    const bool unlimited = cfg().reservation_depth == SchedulerConfig::kUnlimited;
    for (std::size_t r = 0; r < row_ok_.size(); ++r)
        row_ok_[r] = unlimited || reserved_in_row_[r] < cfg().reservation_depth;
    Job& j = job(s);
    const auto [t, row] = machine().earliest(demand(j), from_now(j), &row_ok_, &picked_);
    if (row < 0) throw Error(Errc::internal, "reserve: no row may take a reservation");
    // No window ends by the horizon (a queue of jobs whose estimates add up
    // past it): the job waits without a promise until capacity comes back.
    if (t == kForever) return kForever;
    reserve_at(s, t, row);
    return t;
}

// At node level the nodes are those the last search picked (picked_).
void MatrixWalk::reserve_at(Slot s, Time t, std::int32_t row) {
    Job& j = job(s);
    if (machine().node_level()) j.reserved_runs = picked_;
    if (clustered()) {  // a reservation holds a start time and a placement
        j.clusters.clear();
        std::vector<std::int16_t> placed(j.spec.components.size());
        if (!machine().worst_fit(row, demand(j), t, placed.data()))
            throw Error(Errc::internal, "reserve: the components have no placement");
        j.clusters = std::move(placed);
    }
    j.reserved_start = t;
    j.reserved_row = static_cast<std::int16_t>(row);
    machine().take(row, t, t + j.window, demand(j));
    j.settled = gain_epoch_;  // at its earliest slot as the machine stands
    count_reservation(row, +1);
    next_reservation_ = std::min(next_reservation_, t);
}

void MatrixWalk::unreserve(Slot s) {
    Job& j = job(s);
    machine().give(j.reserved_row, j.reserved_start, j.reserved_start + j.window, demand(j));
    j.clusters.clear();
    gained(j.reserved_row);
    count_reservation(j.reserved_row, -1);
    j.reserved_start = kNoTime;
    j.reserved_row = -1;
    j.reserved_runs.clear();
}

// Where a reservation [s, s + window) would go if it were given up and
// placed again (no pools): the earliest (t, row) with t < s, the first row
// on a tie as Machine::earliest has it, or (kForever, -1) if it stays.
//
// It was at its earliest slot at gain epoch `settled`; since then a row's
// profile only lost capacity unless the row gained (MatrixWalk::gained), so
// only rows that gained can offer an earlier window. In its own row, before
// s the reservation holds nothing, and a window [t, t + window) with t < s
// ends inside the reservation's own capacity: so it fits without the
// reservation exactly when its part before s fits as the profile stands.
// The first window that fits as the profile stands is therefore the answer
// if it starts before s (had the run of room that ends at s begun earlier,
// that run's window would fit as the profile stands too); failing that, the
// start of that run, if the width is free just before s. In another row
// any window starting before s will do, if the row may take one more
// reservation. `reach[r]` is a lower bound of the first time the job's
// width is free in row r.
std::pair<Time, std::int32_t> MatrixWalk::earliest_move(const Job& j, const Time* reach) const {
    const Time s = j.reserved_start;
    const Time d = j.window;
    const std::int64_t p = j.spec.procs;
    const std::int32_t own = j.reserved_row;
    const Time from = from_now(j);
    const bool unlimited = cfg().reservation_depth == SchedulerConfig::kUnlimited;
    Time best = kForever;
    std::int32_t best_row = -1;
    for (std::int32_t r = 0; r < cfg().rows; ++r) {
        const auto ri = static_cast<std::size_t>(r);
        if (row_gain_[ri] <= j.settled) continue;
        const Profile& prof = machine().profile(r);
        const Time latest = std::min(best, s) - 1;  // only an earlier start can win
        Time t = kForever;
        if (r == own) {
            const bool adjacent = prof.free_at(s - 1) >= p;
            const Time bound = adjacent ? latest : std::min(latest, s - d);
            if (reach[ri] <= bound) t = prof.earliest(from, &p, d, bound);
            if (t == kForever && adjacent) t = prof.run_start(from, s, p);
        } else {
            if (!unlimited && reserved_in_row_[ri] >= cfg().reservation_depth) continue;
            if (reach[ri] > latest) continue;
            t = prof.earliest(from, &p, d, latest);
        }
        if (t < best) {
            best = t;
            best_row = r;
        }
    }
    return {best, best_row};
}

// Moves a reservation earlier, to (t, row) from earliest_move. In its own
// row the old and the new window overlap or not; either way only the part
// of the new one before s is taken and only the part of the old one after
// the new end is given back, which leaves the profile as a give and a take
// of the whole windows would, with fewer steps touched.
void MatrixWalk::move_reservation(Slot s, Time t, std::int32_t row) {
    Job& j = job(s);
    if (row != j.reserved_row) {
        unreserve(s);
        reserve_at(s, t, row);
        return;
    }
    const Time old = j.reserved_start;
    const Demand d = demand(j);
    machine().take(row, t, std::min(old, t + j.window), d);
    machine().give(row, std::max(old, t + j.window), old + j.window, d);
    gained(row);
    j.reserved_start = t;
    j.settled = gain_epoch_;
    next_reservation_ = std::min(next_reservation_, t);
}

// In queue order, every reservation moves to its earliest slot with all the
// others in place, so none is delayed. Most reservations of a deep queue
// cannot move, and that is decided without touching the profile: with one
// row and no pools exactly (earliest_move); otherwise a reservation of
// width w at s stays when no row has w columns free at any instant before
// s. The first such instant per width and row comes from one sweep of each
// profile (Profile::first_reach) and is kept a lower bound as reservations
// move (a move frees only the window it leaves); it is worth its sweep only
// for more than a few reservations.
void MatrixWalk::compress_reservations() {
    if (reserved_count_ == 0) return;
    rescan_ = true;
    compress_order_.clear();
    std::int32_t widest = 0;
    for (std::size_t i = 0;
         i < queue().span() && compress_order_.size() < static_cast<std::size_t>(reserved_count_);
         ++i) {
        const JobQueue::Entry& q = queue()[i];
        if (!q.live() || !job(q.slot).reserved()) continue;
        compress_order_.push_back(q.slot);
        widest = std::max(widest, q.procs);
    }
    constexpr std::size_t kReachFrom = 16;
    const bool use_reach = compress_order_.size() >= kReachFrom;
    const auto w_max = static_cast<std::size_t>(widest);
    if (use_reach) {
        for (std::int32_t r = 0; r < cfg().rows; ++r) {
            auto& reach = reach_[static_cast<std::size_t>(r)];
            reach.resize(w_max + 1);
            machine().profile(r).first_reach(now(), reach);
        }
        reach_min_.assign(w_max + 1, kForever);
        for (const auto& reach : reach_)
            for (std::size_t w = 0; w <= w_max; ++w)
                reach_min_[w] = std::min(reach_min_[w], reach[w]);
    }

    const bool unlimited = cfg().reservation_depth == SchedulerConfig::kUnlimited;
    // Without pools the question "could it start earlier?" has an exact
    // answer that needs no change to the profile.
    const bool exact = cfg().pools.empty() && !clustered() && !machine().node_level();
    reach_now_.assign(static_cast<std::size_t>(cfg().rows), now());
    // The window a moved reservation left is free again: widths that fit
    // there may now start as early as its old start in that row.
    const auto vacated = [&](const Job& j, Time old, std::int32_t old_row) {
        auto& reach = reach_[static_cast<std::size_t>(old_row)];
        const Time from = std::max(old, now());
        const auto top = static_cast<std::size_t>(
            std::min<std::int64_t>(machine().profile(old_row).max_free(from, old + j.window),
                                   static_cast<std::int64_t>(w_max)));
        for (std::size_t v = top; v >= 1 && reach[v] > from; --v) {  // reach grows with v
            reach[v] = from;
            reach_min_[v] = std::min(reach_min_[v], from);
        }
    };
    for (const Slot s : compress_order_) {
        Job& j = job(s);
        const Time old = j.reserved_start;
        const std::int32_t old_row = j.reserved_row;
        const auto w = static_cast<std::size_t>(j.spec.procs);
        if (old >= now()) {
            if (j.settled == gain_epoch_) continue;           // no row gained anything since
            if (use_reach && reach_min_[w] >= old) continue;  // nowhere to go earlier
            if (old > now() && exact) {
                if (use_reach)
                    for (std::size_t r = 0; r < reach_.size(); ++r) reach_now_[r] = reach_[r][w];
                const auto [t, row] = earliest_move(j, reach_now_.data());
                if (t == kForever) {
                    j.settled = gain_epoch_;
                    continue;
                }
                move_reservation(s, t, row);
                ++counters().reservations_moved;
                if (use_reach) vacated(j, old, old_row);
                continue;
            }
        }
        unreserve(s);
        for (std::size_t r = 0; r < row_ok_.size(); ++r)
            row_ok_[r] = unlimited || reserved_in_row_[r] < cfg().reservation_depth;
        auto [t, row] = machine().earliest(demand(j), from_now(j), &row_ok_, &picked_);
        if (old >= now()) {
            if (t > old) throw Error(Errc::internal, "compression would delay a reservation");
            // A move is only ever to an earlier time: on a tie it keeps its
            // row, and at node level the nodes free there (picked_ holds the
            // other row's).
            if (t == old && row != old_row) {
                row = old_row;
                if (machine().node_level()) {
                    for (std::size_t r = 0; r < row_ok_.size(); ++r)
                        row_ok_[r] = static_cast<std::int32_t>(r) == old_row;
                    t = machine().earliest(demand(j), old, &row_ok_, &picked_).first;
                    if (t != old)
                        throw Error(Errc::internal, "compression lost a reservation's nodes");
                }
            }
        }
        if (t == kForever) continue;  // placed anew from a jumped clock, and nothing fits
        reserve_at(s, t, row);
        if (old >= now() && t < old) ++counters().reservations_moved;
        if (use_reach && (t != old || row != old_row)) vacated(j, old, old_row);
    }
}

}  // namespace rota
