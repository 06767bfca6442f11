// The schedule phase ([Zhang00] §4.2 "Schedule", §5.1 for GS, §5.2 for BGS;
// ARCHITECTURE §4): one walk of the queue in policy order, the same in
// every mode and every row.
//
//   * A job whose reservation is due starts in its reserved row.
//   * While no job is blocked, a job that can start now (in the best-fit
//     row, [Zhang00] §5.1) starts.
//   * The first job that cannot start is the head. Without backfilling
//     (FCFS, GS) nothing passes it. Otherwise each job that cannot start
//     gets a reservation at its earliest slot while its rows allow one more
//     (reservation_depth per row: 1 EASY, unlimited conservative and BGS,
//     0 FPFS), and each job past the head that fits now without touching a
//     reservation is a backfill candidate.
//   * Candidates go to backfill_select in one call, before the next
//     reservation is made (so a conservative walk gives every job its slot
//     in queue order, as pyss does) and at the end. A policy that streams
//     gets them a chunk at a time, a chunk being enough candidates to use up
//     the free columns, and the walk stops when nothing more can start.
//
// Reservations persist across passes and only move earlier (compression,
// reservations.cpp); the walk is incremental (docs/design.md).
#include "walk.h"

#include <algorithm>
#include <chrono>

#include "answers.h"
#include "error.h"

namespace rota {

std::int32_t MatrixWalk::row_now(const Job& j) const {
    if (simple()) return machine().fits_now_fast(j.spec.procs, j.window, now()) ? 0 : -1;
    if (j.spec.begin > now()) return -1;
    return machine().row_for_now(demand(j), now());
}

std::int64_t MatrixWalk::free_columns() const {
    std::int64_t f = 0;
    for (std::int32_t r = 0; r < cfg().rows; ++r) f += machine().matrix().free(r);
    return f;
}

bool MatrixWalk::nothing_more_can_start() const {
    return free_columns() == 0;
}

void MatrixWalk::queued(Slot s, std::size_t, bool appended) {
    if (!appended) rescan_ = true;  // positions changed, and it lands before walked jobs
    if (const Job& j = job(s); j.spec.begin > now()) begins_.add(j.spec.begin, j.seq, s);
}

void MatrixWalk::dequeued(Slot) {
    rescan_ = true;
}

void MatrixWalk::find_next_reservation() {
    next_reservation_ = kForever;
    std::int32_t seen = 0;
    for (std::size_t i = 0; i < queue().span() && seen < reserved_count_; ++i) {
        if (!queue()[i].live()) continue;
        const Job& j = job(queue()[i].slot);
        if (!j.reserved()) continue;
        ++seen;
        next_reservation_ = std::min(next_reservation_, j.reserved_start);
    }
}

void MatrixWalk::schedule_phase() {
    const bool full = rescan_ || now() >= next_reservation_;
    std::size_t r = full ? 0 : std::min(scanned_, queue().span());
    Slot head = full ? kNoSlot : head_;  // first job in order that could not start
    // Reservations held by jobs before position r: a partial walk starts
    // past every job that held one at the end of the last walk.
    std::int32_t reserved_ahead = full ? 0 : reserved_count_;
    batch_slots_.clear();
    batch_.clear();
    cand_pos_.clear();
    cand_procs_ = 0;
    rescan_ = false;  // set again below if a policy passes over a candidate
    const auto& bf = policy(Hook::backfill_select);
    const bool streams = bf && bf->streams(Hook::backfill_select);
    // Candidates are collected only while something more can start.
    bool collecting = true;
    auto flush = [&] {
        const std::int32_t before = reserved_count_;
        if (!flush_candidates(head)) collecting = false;
        reserved_ahead += reserved_count_ - before;  // made for candidates behind r
    };

    for (; r < queue().span(); ++r) {
        if (head != kNoSlot && cfg().backfill && !can_reserve() &&
            reserved_ahead == reserved_count_) {
            // No reservation left to give or to honour: the rest of the
            // queue can only yield candidates.
            if (collecting) collect_candidates(r, head);
            r = queue().span();
            break;
        }
        const JobQueue::Entry q = queue()[r];
        if (!q.live()) continue;
        const Slot s = q.slot;
        Job& j = job(s);
        if (j.reserved() && j.reserved_start < now()) {
            // The clock jumped past this reservation (an embedder need not
            // stop at every wakeup): its window is partly gone, so it is
            // placed anew from now, as if it had just been made.
            unreserve(s);
            reserve(s);
        }
        if (j.reserved()) {
            if (j.reserved_start == now()) {  // starting uses its reservation up
                start(s, j.reserved_row);
                queue().kill(r);
                continue;
            }
            ++reserved_ahead;
            if (head == kNoSlot) head = s;
            continue;
        }
        if (head == kNoSlot) {
            const std::int32_t row = row_now(j);
            if (row >= 0) {
                start(s, row);
                queue().kill(r);
                continue;
            }
            head = s;
            if (can_reserve()) {
                const Time t = reserve(s);
                if (t == now()) {  // cannot happen while profiles agree; kept safe
                    start(s, j.reserved_row);
                    queue().kill(r);
                } else if (t != kForever) {
                    ++reserved_ahead;
                }
            }
            if (!cfg().backfill) break;  // FCFS, GS: nothing passes the head
            continue;
        }
        if (!cfg().backfill) break;  // past the head of FCFS, GS (an incremental walk)
        if (row_now(j) >= 0) {
            if (!collecting) {
                rescan_ = true;  // the policy wanted no more: offer it again next pass
                continue;
            }
            add_candidate(s, r);
            if (streams && cand_procs_ >= free_columns()) flush();
            continue;
        }
        if (can_reserve() && !batch_slots_.empty())
            flush();  // they come before this job in the queue, and may reserve
        if (can_reserve()) {
            const Time t = reserve(s);
            if (t == now()) {
                start(s, j.reserved_row);
                queue().kill(r);
            } else if (t != kForever) {
                ++reserved_ahead;
            }
        }
    }
    if (!batch_slots_.empty()) flush_candidates(head);
    if (full) find_next_reservation();
    head_ = head;
    if (queue().maybe_compact()) rescan_ = true;
    scanned_ = queue().span();
}

namespace {

// A context field back to its initial value; a vector only emptied, so
// that it keeps its capacity.
template <class T>
void reset_field(T& f) {
    f = T{};
}
template <class T>
void reset_field(std::vector<T>& f) {
    f.clear();
}

}  // namespace

// Filled in place: its vectors keep their capacity from call to call (four
// allocations a call otherwise).
const BackfillContext& MatrixWalk::backfill_context(Slot head) {
    BackfillContext& c = backfill_ctx_;
#define ROTA_X(name, type, doc) reset_field(c.name);
    ROTA_CONTEXT_BACKFILL(ROTA_X)
    ROTA_CONTEXT_BACKFILL_HEAD(ROTA_X)
#undef ROTA_X
    static_cast<CommonContext&>(c) = common_context();
    set_head(c, head == kNoSlot ? nullptr : &job(head));
    if (head != kNoSlot) {
        const Job& h = job(head);
        if (h.reserved()) {
            c.shadow_time.t = h.reserved_start;
            c.head_row = h.reserved_row;
            c.extra_procs = static_cast<std::int32_t>(
                machine().profile(h.reserved_row).free_at(h.reserved_start));
        }
    }
    // [Leinberger99] §3's S_i and the head's R_i, processors first: what a
    // K-resource policy (backfill/balanced.lua, lowest.lua) scores against.
    const auto& inv = batch_.inv_capacity;
    c.resources = static_cast<std::int32_t>(inv.size());
    c.capacity.push_back(cfg().procs);
    c.usage.push_back(static_cast<double>(cfg().procs - c.free_procs) * inv[0]);
    for (std::size_t k = 0; k < cfg().pools.size(); ++k) {
        c.capacity.push_back(cfg().pools[k].capacity);
        c.usage.push_back(
            static_cast<double>(cfg().pools[k].capacity - machine().pool_free_at(now(), k)) *
            inv[k + 1]);
    }
    if (head != kNoSlot) {
        const Job& h = job(head);
        c.head_demand.push_back(static_cast<double>(h.spec.procs) * inv[0]);
        for (std::size_t k = 0; k < cfg().pools.size(); ++k)
            c.head_demand.push_back(static_cast<double>(h.spec.pools[k]) * inv[k + 1]);
        if (h.reserved()) {
            c.extra.push_back(static_cast<double>(c.extra_procs) * inv[0]);
            for (std::size_t k = 0; k < cfg().pools.size(); ++k)
                c.extra.push_back(static_cast<double>(machine().pool_free_at(h.reserved_start, k)) *
                                  inv[k + 1]);
        }
    }
    return c;
}

void MatrixWalk::add_candidate(Slot s, std::size_t pos) {
    batch_slots_.push_back(s);
    batch_.push(job(s));
    cand_pos_.push_back(pos);
    cand_procs_ += job(s).spec.procs;
}

// The hot loop of a walk: past the head, with no reservation left to give
// or to honour, a job is a candidate exactly when it fits now. With one row
// and no pools most jobs are ruled out from their queue entry alone
// (tombstones are infinitely wide). Returns false when it stopped early
// because nothing more can start or the policy wants no more.
// Whether some job of queue block b may fit now (one row, no pools, fit
// limits prepared): for each width class that fits the free columns, its
// shortest window against how long its narrowest width fits.
bool MatrixWalk::block_may_start(std::size_t b, std::int64_t free) const {
    for (std::size_t k = 0; k < JobQueue::kClasses; ++k) {
        const std::int32_t narrowest = std::int32_t{1} << k;
        if (narrowest > free) break;
        if (queue().block_min_window(b, k) <= machine().fit_limit(narrowest) - now()) return true;
    }
    return false;
}

bool MatrixWalk::collect_candidates(std::size_t r, Slot head) {
    const auto& bf = policy(Hook::backfill_select);
    const bool streams = bf && bf->streams(Hook::backfill_select);
    const std::size_t span = queue().span();
    std::int64_t free = free_columns();
    if (free == 0) return false;
    const bool fast = simple();
    // A chunk is enough once its candidates could use up the free columns.
    // Those whose windows run past the profile's lowest point (`lowest`
    // free, first reached `long_after` from now) share that much only: the
    // head's reservation leaves EASY a few such columns while hundreds are
    // free until it starts, and counting them against every free column
    // handed hundreds of narrow candidates to a call that could start one.
    // Worked out only for a chunk past a few candidates: most passes have
    // fewer, and the profile's lowest point costs a sweep.
    constexpr std::size_t kFew = 8;
    std::int64_t lowest = -1, long_procs = 0;  // -1: not worked out for this chunk
    Time long_after = kForever;
    const auto chunk_is_enough = [&](const JobQueue::Entry& q) {
        if (cand_procs_ >= free) return true;
        if (!fast || batch_slots_.size() < kFew) return false;
        if (lowest < 0) {
            lowest = machine().free_throughout(now());
            long_after = lowest < free
                             ? machine().fit_limit(static_cast<std::int32_t>(lowest) + 1) - now()
                             : kForever;
            long_procs = 0;
            for (const Slot s : batch_slots_)
                if (job(s).window > long_after) long_procs += job(s).spec.procs;
        } else if (q.window > long_after) {
            long_procs += q.procs;
        }
        return long_procs > 0 && long_procs >= lowest;
    };
    if (fast) machine().prepare_fit_limits(now());
    for (; r < span; ++r) {
        if (fast && r % JobQueue::kBlock == 0 && !block_may_start(r / JobQueue::kBlock, free)) {
            r += JobQueue::kBlock - 1;
            continue;
        }
        const JobQueue::Entry& q = queue()[r];
        if (fast) {
            if (q.procs > free) continue;  // tombstones too: they are infinitely wide
            if (q.window > machine().fit_limit(q.procs) - now()) continue;
        } else if (!q.live() || row_now(job(q.slot)) < 0) {
            continue;
        }
        add_candidate(q.slot, r);
        if (streams && chunk_is_enough(q)) {
            if (!flush_candidates(head)) return false;
            free = free_columns();
            lowest = -1;
            if (fast) machine().prepare_fit_limits(now());
        }
    }
    return true;
}

// Among the candidates (jobs past the head that fit now without delaying a
// reservation), the backfill_select hook chooses which to start and in what
// order; the engine re-checks each pick against the machine as it changes.
// A pick that no longer fits gets a reservation if its rows allow one more.
// Returns false when no more candidates are wanted in this walk: the
// streaming policy picked none of its chunk, or nothing more can start.
bool MatrixWalk::flush_candidates(Slot head) {
    const std::size_t n = batch_slots_.size();
    auto& p = policy(Hook::backfill_select);
    const bool streams = p && p->streams(Hook::backfill_select);
    const bool ok = ask<Hook::backfill_select>(
        batch_, [&]() -> const BackfillContext& { return backfill_context(head); }, picks_);
    bool more = ok;  // the fallback, no backfill this pass, ends the walk's backfilling
    // A candidate the policy passed over may be chosen at a later pass even
    // if nothing else changes, so the next walk must offer it again.
    if (picks_.size() < n) rescan_ = true;
    if (streams && picks_.empty()) more = false;
    for (std::int64_t i : picks_) {
        const Slot s = batch_slots_[static_cast<std::size_t>(i)];
        Job& j = job(s);
        const std::int32_t row = row_now(j);
        if (row >= 0) {
            start(s, row);
            queue().kill(cand_pos_[static_cast<std::size_t>(i)]);
            ++counters().backfilled;
            ++job(head).jumps;
        } else if (can_reserve()) {
            reserve(s);
        }
    }
    if (can_reserve() && picks_.size() < n) {
        // A candidate the policy passed over and that the picks have now
        // crowded out is a waiting job like any other: under conservative
        // backfilling it gets its slot, in queue order, so that no later
        // job can delay it (a policy that picks every candidate, first fit,
        // never gets here: it stays exactly pyss's walk). One that still
        // fits stays a candidate for the next pass.
        pick_mark_.assign(n, 0);
        for (std::int64_t i : picks_) pick_mark_[static_cast<std::size_t>(i)] = 1;
        for (std::size_t i = 0; i < n && can_reserve(); ++i) {
            const Slot s = batch_slots_[i];
            if (pick_mark_[i] || job(s).state != JobState::queued || job(s).reserved()) continue;
            if (row_now(job(s)) < 0) reserve(s);
        }
    }
    batch_slots_.clear();
    batch_.clear();
    cand_pos_.clear();
    cand_procs_ = 0;
    return more && !nothing_more_can_start();
}

}  // namespace rota
