// The scheduling pass for space sharing (ARCHITECTURE §4, phase
// `schedule`): admission, queue order, start in order while jobs fit,
// reservations up to the configured depth, then backfilling.
//
//   reservation_depth 1    EASY (seed 002 §2.1; seed 000 §3)
//   reservation_depth -1   conservative backfilling (seed 000 §3, Figure 4)
//   reservation_depth 0    no reservations: FPFS (seed 001 §3) with the
//                          jump limit enforced by the backfill_select hook
//   backfill = false       FCFS (seed 002 §2.1)
//
// Reservations persist across passes, so a reservation once given is never
// delayed; when capacity comes back early they are compressed in queue
// order, each moved to its earliest slot with every other one in place.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "error.h"
#include "scheduler.h"

namespace rota {

namespace {

std::uint64_t elapsed_ns(std::chrono::steady_clock::time_point t0) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count());
}

}  // namespace

bool Scheduler::call_ok(Hook h, const HookOutcome& o, std::uint64_t ns) {
    HookStats& st = counters_.hooks[static_cast<int>(h)];
    ++st.calls;
    st.nanoseconds += ns;
    if (o.ok) return true;
    ++st.failures;
    // Log the first failures of each hook; later ones are only counted, so
    // a broken script cannot flood the embedder's log.
    auto& n = logged_failures_[static_cast<int>(h)];
    if (log_ && n < 10) {
        ++n;
        log_(std::string("policy hook ") + hook_name(h) + " failed: " + o.error +
             (n == 10 ? " (further failures of this hook are only counted)" : "") +
             "; using its fallback");
    }
    return false;
}

void Scheduler::schedule() {
    begin_event();
    ++counters_.passes;
    if (cfg_.gang.enabled) {
        admit();
        gang_pass();
        return;
    }
    profile_.advance(now_);
    admit();
    if (dirty_) compress_reservations();
    dirty_ = false;
    schedule_queue();
}

PassContext Scheduler::context(Slot head) const {
    PassContext c;
    c.now = now_;
    c.machine_procs = cfg_.procs;
    c.free_procs = cfg_.gang.enabled ? matrix_.free(active_row_) : nodes_.idle();
    c.queue_length = static_cast<std::int32_t>(queue_.size());  // live jobs
    if (head != static_cast<Slot>(-1)) {
        const Job& h = job(head);
        c.head_id = h.spec.id;
        c.head_procs = h.spec.procs;
        c.head_jumps = h.jumps;
        if (h.reserved()) {
            c.shadow_time = h.reserved_start;
            c.extra_procs = profile_.free_procs_at(h.reserved_start);
        }
    }
    return c;
}

void Scheduler::reject(Slot s, std::string reason) {
    Action a{ActionType::reject, job(s).spec.id, now_};
    a.reason = static_cast<std::int32_t>(reason_arena_.size());
    reason_arena_.push_back(reason);
    emit(a);
    job(s).state = JobState::rejected;
    ++counters_.rejected;
    forget(s);
}

void Scheduler::queue_insert(Slot s) {
    Job& j = job(s);
    j.state = JobState::queued;
    auto before = [this](const JobQueue::Entry& a, const JobQueue::Entry& b) {
        const Job& x = job(a.slot);
        const Job& y = job(b.slot);
        return x.order_key != y.order_key ? x.order_key < y.order_key : x.seq < y.seq;
    };
    JobQueue::Entry e{s, j.spec.procs, j.spec.estimate};
    const JobQueue::Entry* last = queue_.last_live();
    if (!last || !before(e, *last)) {
        queue_.push_back(e);  // the common case under FCFS
        return;
    }
    queue_.insert_sorted(e, before);
    rescan_ = true;  // positions changed, and it lands before walked jobs
}

void Scheduler::queue_erase(Slot s) {
    queue_.kill_slot(s);
    rescan_ = true;
}

void Scheduler::find_next_reservation() {
    next_reservation_ = kForever;
    std::int32_t seen = 0;
    for (std::size_t i = 0; i < queue_.span() && seen < reserved_count_; ++i) {
        if (!queue_[i].live()) continue;
        const Job& j = job(queue_[i].slot);
        if (!j.reserved()) continue;
        ++seen;
        next_reservation_ = std::min(next_reservation_, j.reserved_start);
    }
}

// Admission and order for the jobs that arrived since the last pass and for
// held ones: one hook call each, with the whole batch.
void Scheduler::admit() {
    if (pending_.empty() && held_.empty()) return;
    batch_slots_.clear();
    // Held jobs arrived earlier than pending ones: keep arrival order.
    for (Slot s : held_) batch_slots_.push_back(s);
    held_.clear();
    for (Slot s : pending_) {
        std::string why;
        if (!possible(job(s), why)) {
            reject(s, why);  // can never run here, whatever the policy says
            continue;
        }
        batch_slots_.push_back(s);
    }
    pending_.clear();
    if (batch_slots_.empty()) return;

    batch_.clear();
    for (Slot s : batch_slots_) batch_.push(job(s));
    const PassContext ctx = context(static_cast<Slot>(-1));

    bool decided = false;
    if (auto& p = policy_[static_cast<int>(Hook::admission)]) {
        auto t0 = std::chrono::steady_clock::now();
        admissions_.clear();
        HookOutcome o = p->admission(batch_, ctx, admissions_);
        if (o.ok && admissions_.size() != batch_.size())
            o = HookOutcome::failure("answered " + std::to_string(admissions_.size()) +
                                     " decisions for " + std::to_string(batch_.size()) + " jobs");
        for (const auto& a : admissions_)
            if (o.ok && a.kind == AdmissionKind::reject && a.reason.empty())
                o = HookOutcome::failure("a reject needs a reason");
        decided = call_ok(Hook::admission, o, elapsed_ns(t0));
    }
    if (!decided) admissions_.assign(batch_.size(), Admission{});

    // Order keys for the accepted ones, in one more call.
    std::size_t accepted = 0;
    for (std::size_t i = 0; i < batch_slots_.size(); ++i) {
        Slot s = batch_slots_[i];
        switch (admissions_[i].kind) {
            case AdmissionKind::reject:
                reject(s, admissions_[i].reason);
                break;
            case AdmissionKind::hold:
                job(s).state = JobState::held;
                held_.push_back(s);
                break;
            case AdmissionKind::accept:
                batch_slots_[accepted++] = s;
                break;
        }
    }
    batch_slots_.resize(accepted);
    if (accepted == 0) return;

    bool keyed = false;
    if (auto& p = policy_[static_cast<int>(Hook::order)]) {
        batch_.clear();
        for (Slot s : batch_slots_) batch_.push(job(s));
        auto t0 = std::chrono::steady_clock::now();
        keys_.clear();
        HookOutcome o = p->order(batch_, ctx, keys_);
        if (o.ok && keys_.size() != batch_.size())
            o = HookOutcome::failure("answered " + std::to_string(keys_.size()) + " keys for " +
                                     std::to_string(batch_.size()) + " jobs");
        for (double k : keys_)
            if (o.ok && !std::isfinite(k)) o = HookOutcome::failure("a key is not a finite number");
        keyed = call_ok(Hook::order, o, elapsed_ns(t0));
    }
    for (std::size_t i = 0; i < batch_slots_.size(); ++i) {
        Job& j = job(batch_slots_[i]);
        // The FCFS fallback: arrival time orders, ties by arrival sequence.
        j.order_key = keyed ? keys_[i] : static_cast<double>(j.submit);
        queue_insert(batch_slots_[i]);
    }
}

void Scheduler::reserve(Slot s, Time t) {
    Job& j = job(s);
    profile_.take(t, t + j.spec.estimate, demand(j));
    j.reserved_start = t;
    ++reserved_count_;
}

void Scheduler::unreserve(Slot s) {
    Job& j = job(s);
    profile_.give(j.reserved_start, j.reserved_start + j.spec.estimate, demand(j));
    j.reserved_start = kNoTime;
    --reserved_count_;
}

// A reservation moves only to an earlier or equal slot: every other
// reservation stays in place while one is moved, so none is delayed.
void Scheduler::compress_reservations() {
    if (reserved_count_ == 0) return;
    rescan_ = true;
    const std::int32_t total = reserved_count_;
    std::int32_t done = 0;
    for (std::size_t i = 0; i < queue_.span() && done < total; ++i) {
        if (!queue_[i].live()) continue;
        Slot s = queue_[i].slot;
        Job& j = job(s);
        if (!j.reserved()) continue;
        ++done;
        Time old = j.reserved_start;
        unreserve(s);
        Time t = profile_.earliest(now_, demand(j), j.spec.estimate);
        // A reservation the clock jumped past can only be placed from now.
        if (t > std::max(old, now_))
            throw Error(Errc::internal, "compression would delay a reservation");
        reserve(s, t);
    }
}

void Scheduler::start(Slot s) {
    Job& j = job(s);
    if (j.reserved()) {
        // Its reservation already holds the capacity from now on.
        j.reserved_start = kNoTime;
        --reserved_count_;
    } else {
        profile_.take(now_, now_ + j.spec.estimate, demand(j));
    }
    if (j.spec.procs > nodes_.idle())
        throw Error(Errc::internal, "start: profile and idle nodes disagree");
    nodes_.allocate(j.spec.procs, j.nodes);
    j.start = now_;
    j.state = JobState::running;
    ++running_count_;
    ++counters_.started;
    expiries_.push({j.estimated_end(), j.seq, s});
    emit_with_runs(Action{ActionType::start, j.spec.id, now_}, j);
}

void Scheduler::schedule_queue() {
    const bool unlimited = cfg_.reservation_depth == SchedulerConfig::kUnlimited;
    const bool full = rescan_ || now_ >= next_reservation_;
    std::size_t r = full ? 0 : std::min(scanned_, queue_.span());
    Slot head = full ? kNoSlot : head_;  // first job in order that could not start
    // Reservations held by jobs before position r: a partial walk starts
    // past every job that held one at the end of the last walk.
    std::int32_t reserved_ahead = full ? 0 : reserved_count_;
    // Backfill candidates appear only once the reservation depth is used
    // up, after which the walk makes no reservation: a candidate's fit
    // cannot be spoiled by a later step of the walk.
    batch_slots_.clear();
    batch_.clear();
    cand_pos_.clear();

    for (; r < queue_.span(); ++r) {
        if (head != kNoSlot && cfg_.backfill && !unlimited &&
            reserved_count_ >= cfg_.reservation_depth && reserved_ahead == reserved_count_) {
            collect_candidates(r);  // the rest of the queue, nothing else to do
            break;
        }
        const JobQueue::Entry q = queue_[r];
        if (!q.live()) continue;
        const Slot s = q.slot;
        Job& j = job(s);
        if (j.reserved() && j.reserved_start < now_) {
            // The clock jumped past this reservation (an embedder need not
            // stop at every wakeup): its window is partly gone, so it is
            // placed anew from now, as if it had just been made.
            unreserve(s);
            Time t = profile_.earliest(now_, demand(j), j.spec.estimate);
            reserve(s, t);
            next_reservation_ = std::min(next_reservation_, t);
        }
        if (j.reserved()) {
            ++reserved_ahead;
            if (j.reserved_start == now_) {
                start(s);
                queue_.kill(r);
            } else if (head == kNoSlot) {
                head = s;
            }
        } else if (head == kNoSlot && fits_now(j)) {
            start(s);
            queue_.kill(r);
        } else if (!cfg_.backfill) {
            // FCFS: nothing passes the first job that cannot start.
            head = s;
            break;
        } else if (unlimited || reserved_count_ < cfg_.reservation_depth) {
            Time t = profile_.earliest(now_, demand(j), j.spec.estimate);
            if (t == now_) {
                start(s);
                queue_.kill(r);
            } else {
                reserve(s, t);
                ++reserved_ahead;
                next_reservation_ = std::min(next_reservation_, t);
                if (head == kNoSlot) head = s;
            }
        } else if (head == kNoSlot) {
            head = s;
        } else if (fits_now(j)) {
            add_candidate(s, r);
        }
    }
    if (full) find_next_reservation();
    rescan_ = false;
    head_ = head;
    if (!batch_slots_.empty()) backfill(head);
    if (queue_.maybe_compact()) rescan_ = true;
    scanned_ = queue_.span();
}

void Scheduler::add_candidate(Slot s, std::size_t pos) {
    batch_slots_.push_back(s);
    batch_.push(job(s));
    cand_pos_.push_back(pos);
}

// The hot loop of a walk: past the head, with no reservation left to give
// or to honour, a job is a candidate exactly when it fits now. Nothing
// starts here, so the idle nodes and the profile hold still, and most jobs
// are ruled out from their queue entry alone (tombstones are infinitely
// wide).
void Scheduler::collect_candidates(std::size_t r) {
    const std::int32_t idle = nodes_.idle();
    const std::size_t span = queue_.span();
    if (!pool_capacity_.empty()) {
        for (; r < span; ++r) {
            const JobQueue::Entry& q = queue_[r];
            if (q.procs <= idle && fits_now(job(q.slot))) add_candidate(q.slot, r);
        }
        return;
    }
    refresh_limits();
    for (; r < span; ++r) {
        const JobQueue::Entry& q = queue_[r];
        if (q.procs > idle) continue;
        if (q.estimate > limit_of(q.procs) - now_) continue;
        add_candidate(q.slot, r);
    }
}

// Among the jobs past the head that fit now without delaying a
// reservation (the batch built by the walk), the backfill_select hook
// chooses which to start and in what order; the engine re-checks each pick
// against the profile as it changes.
void Scheduler::backfill(Slot head) {
    picks_.clear();
    if (auto& p = policy_[static_cast<int>(Hook::backfill_select)]) {
        auto t0 = std::chrono::steady_clock::now();
        HookOutcome o = p->backfill_select(batch_, context(head), picks_);
        if (o.ok) {
            picked_.assign(batch_slots_.size(), 0);
            for (auto i : picks_) {
                if (i >= batch_slots_.size()) {
                    o = HookOutcome::failure("picked candidate " + std::to_string(i + 1) + " of " +
                                             std::to_string(batch_slots_.size()));
                    break;
                }
                if (picked_[i]++) {
                    o = HookOutcome::failure("picked candidate " + std::to_string(i + 1) +
                                             " twice");
                    break;
                }
            }
        }
        if (!call_ok(Hook::backfill_select, o, elapsed_ns(t0))) {
            rescan_ = true;  // offer them again next pass
            return;          // fallback: no backfill
        }
    } else {
        for (std::uint32_t i = 0; i < batch_slots_.size(); ++i) picks_.push_back(i);  // first fit
    }
    // A candidate the policy passed over may be chosen at a later pass even
    // if nothing else changes, so it must be offered again.
    if (picks_.size() < batch_slots_.size()) rescan_ = true;

    for (auto i : picks_) {
        Slot s = batch_slots_[i];
        if (!fits_now(job(s))) continue;
        start(s);
        queue_.kill(cand_pos_[i]);
        ++counters_.backfilled;
        ++job(head).jumps;
    }
}

}  // namespace rota
