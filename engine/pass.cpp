// The scheduling pass (ARCHITECTURE §4): the core's phases, then its
// discipline's schedule phase (discipline.h); and how the core asks every
// hook (the circuit breaker, the pass budget).
//
//   admission, order      new jobs into the queue (admit)
//   re-key                the whole queue, when the keys age (rekey_queue)
//   schedule              the discipline: the matrix walk (walk.h), the
//                         iScheduler (ischeduler.h), the class passes
//                         (class_passes.h)
#include <algorithm>
#include <chrono>
#include <optional>

#include "answers.h"
#include "discipline.h"
#include "error.h"

namespace rota {

void Scheduler::schedule() {
    begin_event();
    pass_work_ = 0;
    ++counters_.passes;
    machine_.advance(now_);
    admit();
    if (now_ > kTimeAxisEnd - longest_window_) reject_past_axis();
    if (now_ >= next_rekey_) {
        // The first pass at or after each multiple of the interval.
        next_rekey_ = (now_ / cfg_.rekey_interval + 1) * cfg_.rekey_interval;
        if (aging()) rekey_queue();
    }
    discipline_->schedule();
}

bool Scheduler::call_ok(Hook h, const HookOutcome& o, std::uint64_t ns) {
    const auto i = static_cast<std::size_t>(h);
    if (policy_[i]) pass_work_ += policy_[i]->last_work();
    HookStats& st = counters_.hooks[i];
    ++st.calls;
    st.nanoseconds += ns;
    if (o.ok) {
        failing_[i] = 0;
        quarantines_[i] = 0;
        return true;
    }
    ++st.failures;
    // The circuit breaker: a hook that keeps failing costs its budget at
    // every pass (a runaway script, up to its instruction budget each
    // time) and decides nothing; past a run of failures its fallback is
    // used without calling it.
    if (cfg_.quarantine_after > 0 && ++failing_[i] >= cfg_.quarantine_after) {
        // Each quarantine in a row lasts twice the last (up to a week, or
        // quarantine_time if longer): a hook broken for good costs a few
        // dozen calls over a year of simulated time, one that recovers is
        // soon tried again.
        const Time cap = std::max<Time>(cfg_.quarantine_time, 7 * 24 * 3600 * kSecond);
        Time length = cfg_.quarantine_time;
        for (std::int32_t k = 0; k < quarantines_[i] && length < cap; ++k) length *= 2;
        length = std::min(length, cap);
        // A quarantine after the one call a quarantine's end allows says so:
        // "after 50 consecutive failures" would read as 50 new calls.
        const std::string why =
            quarantines_[i] == 0
                ? " quarantined after " + std::to_string(failing_[i]) + " consecutive failures"
                : " quarantined again (" + std::to_string(quarantines_[i] + 1) +
                      " quarantines in a row): its one call after the last failed too";
        ++quarantines_[i];
        quarantine_end_[i] = cfg_.quarantine_time > 0 ? now_ + length : kForever;
        st.quarantined = true;
        if (log_)
            log_(log_warning,
                 std::string("policy hook ") + hook_name(h) + why + " (last: " + o.error + "); " +
                     (quarantine_end_[i] == kForever
                          ? std::string("until the policies are reloaded")
                          : "for " + std::to_string((quarantine_end_[i] - now_) / kSecond) +
                                " s of engine time or until the policies are reloaded") +
                     "; meanwhile: " + hook_fallback(h));
    }
    // Log the first failures of each hook; later ones are only counted, so
    // a broken script cannot flood the embedder's log.
    auto& n = logged_failures_[static_cast<int>(h)];
    if (log_ && n < 10) {
        ++n;
        log_(log_warning, std::string("policy hook ") + hook_name(h) + " failed: " + o.error +
                              (n == 10 ? " (further failures of this hook are only counted)" : "") +
                              "; using its fallback: " + hook_fallback(h));
    }
    return false;
}

// Whether hook h is not to be called now: quarantined, or the pass's
// budget is spent. Either way its fallback applies and the skip is counted.
bool Scheduler::quarantined(Hook h) {
    const auto i = static_cast<std::size_t>(h);
    if (quarantine_end_[i] != kNoTime) {
        if (now_ < quarantine_end_[i]) {
            ++counters_.hooks[i].skipped;
            return true;
        }
        // The cool-down is over: one more try.
        quarantine_end_[i] = kNoTime;
        failing_[i] = cfg_.quarantine_after - 1;  // a failure quarantines it again
        counters_.hooks[i].quarantined = false;
        if (log_)
            log_(log_info, std::string("policy hook ") + hook_name(h) +
                               " is called again: its quarantine is over");
    }
    if (cfg_.pass_budget > 0 && pass_work_ >= cfg_.pass_budget) {
        ++counters_.hooks[i].skipped;
        if (!pass_budget_logged_ && log_) {
            log_(log_warning,
                 "policy: the pass budget of " + std::to_string(cfg_.pass_budget) +
                     " instructions is spent; hooks use their fallbacks until the next pass "
                     "(logged once; counted as skipped calls)");
            pass_budget_logged_ = true;
        }
        return true;
    }
    return false;
}

void Scheduler::end_quarantines() {
    for (std::size_t i = 0; i < failing_.size(); ++i) {
        failing_[i] = 0;
        quarantines_[i] = 0;
        quarantine_end_[i] = kNoTime;
        counters_.hooks[i].quarantined = false;
        logged_failures_[i] = 0;
    }
}

CommonContext Scheduler::common_context() const {
    CommonContext c;
    c.now = now_;
    c.machine_procs = cfg_.procs;
    c.rows = cfg_.rows;
    c.free_procs = machine_.matrix().free(active_row_);
    c.queue_length = static_cast<std::int32_t>(queue_.size());  // live jobs
    c.running = static_cast<std::int32_t>(running_count_);
    c.users = usage_.users();
    c.total_usage = usage_.total(now_);
    c.user_usage = {&usage_, now_};
    c.user_procs = {&usage_, now_};
    c.user_running = {&usage_, now_};
    c.names = &names_;
    return c;
}

// Admission and order for the jobs that arrived since the last pass and for
// held ones: one hook call each, with the whole batch. Held jobs are asked
// again at every pass (docs/lua-api.md, "admission"), so their rows stay in
// held_batch_ from one pass to the next: a pass pushes the new jobs' rows
// only, and the rows of jobs that leave (accepted, rejected) are squeezed
// out. Before, the batch was built whole at every pass, and a policy that
// held every job made a run quadratic in the engine as well as in the
// script (docs/reliability.md).
void Scheduler::admit() {
    if (!waiting_.empty()) release_waiting();
    if (pending_.empty() && held_.empty()) return;
    screen_pending();
    if (admit_slots_.empty() && held_.empty()) return;

    // The batch and the context are for the hooks: made only when one is
    // called (most runs have neither an admission nor an order policy, and
    // every arrival passes through here); without an admission policy every
    // job is accepted, without an order policy its key is its submit time.
    std::optional<CommonContext> ctx;
    // Held jobs arrived earlier than pending ones: keep arrival order.
    const std::size_t nheld = held_.size();
    const bool asked = ask_admission(nheld, ctx);
    apply_admissions(nheld, asked);
    if (accepted_.empty()) return;
    order_accepted(ctx);
}

const CommonContext& Scheduler::lazy_context(std::optional<CommonContext>& ctx) const {
    if (!ctx) ctx = common_context();
    return *ctx;
}

void Scheduler::screen_pending() {
    admit_slots_.clear();
    for (Slot s : pending_) {
        if (std::string why = unfit_reason(s); !why.empty())
            reject(s, std::move(why));
        else
            admit_slots_.push_back(s);
    }
    pending_.clear();
}

std::string Scheduler::unfit_reason(Slot s) {
    const Job& j = job(s);
    // A job that can never fit the machine is rejected whatever the
    // policy says, so that FCFS never blocks forever on it.
    // A malleable job only needs its min ([Weissman03]).
    const std::int32_t need = discipline_->least_procs(j);
    if (need > cfg_.procs)
        return "requests " + std::to_string(need) + " processors" +
               (need < j.spec.procs ? " at least" : "") + "; the machine has " +
               std::to_string(cfg_.procs);
    if (std::string why = partition_reason(job(s)); !why.empty()) return why;
    if (std::string why = nodes_reason(j); !why.empty()) return why;
    if (std::string why = discipline_->never_starts(j); !why.empty()) return why;
    for (std::size_t k = 0; k < cfg_.pools.size(); ++k)
        if (j.spec.pools[k] > cfg_.pools[k].capacity)
            return "requests " + std::to_string(j.spec.pools[k]) + " of " + cfg_.pools[k].name +
                   "; the machine has " + std::to_string(cfg_.pools[k].capacity);
    return {};
}

bool Scheduler::ask_admission(std::size_t nheld, std::optional<CommonContext>& ctx) {
    if (policy_[static_cast<int>(Hook::admission)] == nullptr) return false;
    discipline_->batch_columns(held_batch_);
    if (!held_batch_ok_ || held_batch_.size() != nheld) {
        held_batch_.clear();
        for (Slot s : held_) held_batch_.push(job(s));
    } else if (cfg_.classes.enabled) {
        for (std::size_t i = 0; i < nheld; ++i) held_batch_.refresh_classes(i, job(held_[i]));
    }
    for (Slot s : admit_slots_) held_batch_.push(job(s));
    const auto context = [&]() -> const CommonContext& { return lazy_context(ctx); };
    ask<Hook::admission>(held_batch_, context, admissions_);
    return true;
}

void Scheduler::apply_admissions(std::size_t nheld, bool asked) {
    const std::size_t n = nheld + admit_slots_.size();
    const auto slot_at = [&](std::size_t i) {
        return i < nheld ? held_[i] : admit_slots_[i - nheld];
    };
    accepted_.clear();
    held_keep_.assign(n, 0);
    std::size_t kept = 0;
    held_until_ = kForever;  // every held job is being asked again
    for (std::size_t i = 0; i < n; ++i) {
        const Slot s = slot_at(i);
        const AdmissionKind kind = asked ? admissions_[i].kind : AdmissionKind::accept;
        switch (kind) {
            case AdmissionKind::reject:
                reject(s, admissions_[i].reason);
                break;
            case AdmissionKind::hold:
                job(s).state = JobState::held;
                held_keep_[i] = 1;
                // In place: kept <= i, and held_[i] was read above.
                if (kept < held_.size())
                    held_[kept] = s;
                else
                    held_.push_back(s);
                ++kept;
                if (admissions_[i].until > now_)
                    held_until_ = std::min(held_until_, admissions_[i].until);
                break;
            case AdmissionKind::accept:
                accepted_.push_back(s);
                break;
        }
    }
    held_.resize(kept);
    if (asked)
        held_batch_.keep_rows(held_keep_);
    else
        held_batch_.clear();
    held_batch_ok_ = true;
}

// Order keys for the accepted ones, in one more call.
void Scheduler::order_accepted(std::optional<CommonContext>& ctx) {
    const bool keyed = policy_[static_cast<int>(Hook::order)] != nullptr;
    if (keyed) {
        discipline_->batch_columns(batch_);
        batch_.clear();
        for (Slot s : accepted_) batch_.push(job(s));
        const auto context = [&]() -> const CommonContext& { return lazy_context(ctx); };
        ask<Hook::order>(batch_, context, keys_);
    }
    for (std::size_t i = 0; i < accepted_.size(); ++i) {
        Job& j = job(accepted_[i]);
        // The FCFS fallback: arrival time orders, ties by arrival sequence.
        j.order_key = keyed ? keys_[i] : static_cast<double>(j.submit);
        queue_insert(accepted_[i]);
    }
}

// Near the axis's end, a queued job whose window from now would pass it is
// rejected rather than started: new_job's bound keeps every job on the
// axis while the machine is busy, and this is what is left when it idled
// while jobs waited (held, out of service nodes, a begin time).
void Scheduler::reject_past_axis() {
    std::vector<Slot> late;
    queue_.for_each_live([&](const JobQueue::Entry& q) {
        const Job& j = job(q.slot);
        if (j.state == JobState::queued && j.window > kTimeAxisEnd - now_) late.push_back(q.slot);
    });
    for (Slot s : late) {
        const Time window = job(s).window;
        discipline_->cancelled(s);
        queue_erase(s);
        reject(s, "its window of " + std::to_string(window) + " us from now (" +
                      std::to_string(now_) + " us) would end past the time axis (" +
                      std::to_string(kTimeAxisEnd) + " us)");
    }
}

bool Scheduler::aging() const {
    const auto& p = policy_[static_cast<int>(Hook::order)];
    return p && p->ages(Hook::order);
}

void Scheduler::rekey() {
    begin_event();
    pass_work_ = 0;
    rekey_queue();
}

// The whole queue in one order call; if the keys put it in another order,
// it is re-sorted and the walk starts over. Under a finite reservation
// depth (EASY) the reservations belong to the first blocked jobs of the
// order, so they are given up and the next walk places them in the new
// one; unlimited (conservative, BGS), they are promises and stay, and the
// new order decides who moves up first when capacity comes back
// (docs/design.md, "Order keys that change"). A failed call keeps the old
// keys and the old order.
void Scheduler::rekey_queue() {
    if (!policy_[static_cast<int>(Hook::order)] || queue_.empty()) return;
    discipline_->batch_columns(batch_);
    batch_.clear();
    keyed_.clear();
    queue_.for_each_live([&](const JobQueue::Entry& q) {
        const Job& j = job(q.slot);
        batch_.push(j);
        keyed_.push_back({0.0, j.seq, q});
    });
    const bool ok = ask<Hook::order>(
        batch_, [&] { return common_context(); }, keys_);
    batch_.clear();
    if (!ok) return;
    ++counters_.rekeys;
    bool sorted = true;
    for (std::size_t i = 0; i < keyed_.size(); ++i) {
        keyed_[i].key = keys_[i];
        job(keyed_[i].entry.slot).order_key = keys_[i];
        if (i > 0 && keyed_[i] < keyed_[i - 1]) sorted = false;
    }
    if (!sorted) {
        std::sort(keyed_.begin(), keyed_.end());
        queue_.assign(keyed_.size(), [&](std::size_t i) { return keyed_[i].entry; });
        ++counters_.resorts;
    }
    discipline_->rekeyed(!sorted);
}

}  // namespace rota
