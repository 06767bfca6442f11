// The scheduling pass (ARCHITECTURE §4): one order of phases for every
// mode, each phase named as in [Zhang00] §4.2 and §5.4. With one row the
// matrix phases have nothing to do and cost nothing.
//
//   admission, order      new jobs into the queue (admit)
//   re-key                the whole queue, when the keys age (rekey_queue)
//   CleanMatrix           every job keeps only its home row
//   CollapseMatrix-1      jobs move into fuller rows, same columns
//   compression           reservations move up when capacity came back
//   Schedule-1            the walk: starts, reservations, backfilling
//   CollapseMatrix-2      with migration (MGS, MBGS)
//   Schedule-2            into what migration freed
//   FillMatrix-1, -2      replicas into rows where columns are free
#include <algorithm>
#include <chrono>
#include <optional>

#include "answers.h"
#include "error.h"
#include "scheduler.h"

namespace rota {

void Scheduler::schedule() {
    begin_event();
    pass_work_ = 0;
    ++counters_.passes;
    machine_.advance(now_);
    admit();
    if (now_ >= next_rekey_) {
        // The first pass at or after each multiple of the interval.
        next_rekey_ = (now_ / cfg_.rekey_interval + 1) * cfg_.rekey_interval;
        if (aging()) rekey_queue();
    }
    if (cfg_.malleable.enabled) {  // [Weissman03]: Figure 3(a) is the schedule phase
        malleable_phase();
        return;
    }
    if (cfg_.classes.enabled) {  // [Feitelson97]: the two passes of §4.3 are the schedule phase
        classes_phase();
        return;
    }
    if (time_sharing()) begin_rows_pass();  // CleanMatrix, CollapseMatrix-1
    if (dirty_) compress_reservations();
    dirty_ = false;
    schedule_phase();  // Schedule-1
    if (time_sharing() && cfg_.migration) {
        collapse_matrix(true);  // CollapseMatrix-2
        schedule_phase();       // Schedule-2
    }
    if (time_sharing()) end_rows_pass();  // FillMatrix-1, -2; the pass's actions; slices
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

const BackfillContext& Scheduler::backfill_context(Slot head) {
    BackfillContext& c = backfill_ctx_;
#define ROTA_X(name, type, doc) reset_field(c.name);
    ROTA_CONTEXT_BACKFILL(ROTA_X)
    ROTA_CONTEXT_BACKFILL_HEAD(ROTA_X)
#undef ROTA_X
    static_cast<CommonContext&>(c) = common_context();
    c.head_id = -1;
    c.head_row = -1;
    c.head_user = -1;
    if (head != kNoSlot) {
        const Job& h = job(head);
        c.head_id = h.spec.id;
        c.head_procs = h.spec.procs;
        c.head_jumps = h.jumps;
        c.head_user = h.spec.user;
        c.head_account = h.account;
        c.head_partition = h.partition;
        c.head_qos = h.qos;
        if (h.reserved()) {
            c.shadow_time.t = h.reserved_start;
            c.head_row = h.reserved_row;
            c.extra_procs = static_cast<std::int32_t>(
                machine_.profile(h.reserved_row).free_at(h.reserved_start));
        }
    }
    // [Leinberger99] §3's S_i and the head's R_i, processors first: what a
    // K-resource policy (backfill/balanced.lua, lowest.lua) scores against.
    const auto& inv = batch_.inv_capacity;
    c.resources = static_cast<std::int32_t>(inv.size());
    c.capacity.push_back(cfg_.procs);
    c.usage.push_back(static_cast<double>(cfg_.procs - c.free_procs) * inv[0]);
    for (std::size_t k = 0; k < cfg_.pools.size(); ++k) {
        c.capacity.push_back(cfg_.pools[k].capacity);
        c.usage.push_back(
            static_cast<double>(cfg_.pools[k].capacity - machine_.pool_free_at(now_, k)) *
            inv[k + 1]);
    }
    if (head != kNoSlot) {
        const Job& h = job(head);
        c.head_demand.push_back(static_cast<double>(h.spec.procs) * inv[0]);
        for (std::size_t k = 0; k < cfg_.pools.size(); ++k)
            c.head_demand.push_back(static_cast<double>(h.spec.pools[k]) * inv[k + 1]);
        if (h.reserved()) {
            c.extra.push_back(static_cast<double>(c.extra_procs) * inv[0]);
            for (std::size_t k = 0; k < cfg_.pools.size(); ++k)
                c.extra.push_back(static_cast<double>(machine_.pool_free_at(h.reserved_start, k)) *
                                  inv[k + 1]);
        }
    }
    return c;
}

MigrationContext Scheduler::migration_context() {
    MigrationContext c;
    static_cast<CommonContext&>(c) = common_context();
    c.migration_budget = migration_budget();
    c.migration_cost = static_cast<double>(cfg_.migration_cost) / 1e6;
    return c;
}

// [Feitelson97]: the class columns of the batches admit() and rekey_queue()
// build read each class's priority in the parameter set in force.
void Scheduler::class_columns() {
    if (!cfg_.classes.enabled) return;
    std::vector<std::int32_t>& p = batch_.class_priorities;
    p.clear();
    for (const JobClassConfig& c : class_params().classes) p.push_back(c.priority);
}

// Admission and order for the jobs that arrived since the last pass and for
// held ones: one hook call each, with the whole batch.
void Scheduler::admit() {
    if (pending_.empty() && held_.empty()) return;
    class_columns();
    admit_slots_.clear();
    // Held jobs arrived earlier than pending ones: keep arrival order.
    for (Slot s : held_) admit_slots_.push_back(s);
    held_.clear();
    for (Slot s : pending_) {
        const Job& j = job(s);
        // A job that can never fit the machine is rejected whatever the
        // policy says, so that FCFS never blocks forever on it.
        // A malleable job only needs its min ([Weissman03]).
        const std::int32_t need = cfg_.malleable.enabled ? j.min_procs() : j.spec.procs;
        if (need > cfg_.procs) {
            reject(s, "requests " + std::to_string(need) + " processors" +
                          (need < j.spec.procs ? " at least" : "") + "; the machine has " +
                          std::to_string(cfg_.procs));
            continue;
        }
        if (cfg_.classes.enabled) {
            std::string why = never_loads(j);
            if (!why.empty()) {
                reject(s, std::move(why));
                continue;
            }
        }
        if (clustered()) {
            std::string why = unplaceable(j);
            if (!why.empty()) {
                reject(s, std::move(why));
                continue;
            }
        }
        bool ok = true;
        for (std::size_t k = 0; ok && k < cfg_.pools.size(); ++k) {
            if (j.spec.pools[k] > cfg_.pools[k].capacity) {
                reject(s, "requests " + std::to_string(j.spec.pools[k]) + " of " +
                              cfg_.pools[k].name + "; the machine has " +
                              std::to_string(cfg_.pools[k].capacity));
                ok = false;
            }
        }
        if (ok) admit_slots_.push_back(s);
    }
    pending_.clear();
    if (admit_slots_.empty()) return;

    // The batch and the context are for the hooks: made only when one of
    // them may be called (most runs have neither an admission nor an order
    // policy, and every arrival passes through here).
    auto& admission = policy_[static_cast<int>(Hook::admission)];
    std::optional<CommonContext> ctx;
    if (admission || policy_[static_cast<int>(Hook::order)]) ctx = common_context();

    bool decided = false;
    if (auto& p = admission; p && !quarantined(Hook::admission)) {
        batch_.clear();
        for (Slot s : admit_slots_) batch_.push(job(s));
        auto t0 = std::chrono::steady_clock::now();
        admissions_.clear();
        HookOutcome o = p->admission(batch_, *ctx, admissions_);
        if (o.ok) {
            std::string why = check_admission(admissions_, batch_.size());
            if (!why.empty()) o = invalid_answer(Hook::admission, *p, why);
        }
        decided = call_ok(Hook::admission, o, elapsed_ns(t0));
    }
    // Undecided (no admission policy, or its call failed), every job is
    // accepted: admit_slots_ stays as it is.
    std::size_t accepted = decided ? 0 : admit_slots_.size();
    held_until_ = kForever;  // every held job is being asked again
    for (std::size_t i = 0; decided && i < admit_slots_.size(); ++i) {
        Slot s = admit_slots_[i];
        switch (admissions_[i].kind) {
            case AdmissionKind::reject:
                reject(s, admissions_[i].reason);
                break;
            case AdmissionKind::hold:
                job(s).state = JobState::held;
                held_.push_back(s);
                if (admissions_[i].until > now_)
                    held_until_ = std::min(held_until_, admissions_[i].until);
                break;
            case AdmissionKind::accept:
                admit_slots_[accepted++] = s;
                break;
        }
    }
    admit_slots_.resize(accepted);
    if (accepted == 0) return;

    // Order keys for the accepted ones, in one more call.
    bool keyed = false;
    if (auto& p = policy_[static_cast<int>(Hook::order)]; p && !quarantined(Hook::order)) {
        batch_.clear();
        for (Slot s : admit_slots_) batch_.push(job(s));
        auto t0 = std::chrono::steady_clock::now();
        keys_.clear();
        if (!ctx) ctx = common_context();
        HookOutcome o = p->order(batch_, *ctx, keys_);
        if (o.ok) {
            std::string why = check_keys(keys_, batch_.size());
            if (!why.empty()) o = invalid_answer(Hook::order, *p, why);
        }
        keyed = call_ok(Hook::order, o, elapsed_ns(t0));
    }
    for (std::size_t i = 0; i < admit_slots_.size(); ++i) {
        Job& j = job(admit_slots_[i]);
        // The FCFS fallback: arrival time orders, ties by arrival sequence.
        j.order_key = keyed ? keys_[i] : static_cast<double>(j.submit);
        queue_insert(admit_slots_[i]);
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
    auto& p = policy_[static_cast<int>(Hook::order)];
    if (!p || queue_.empty() || quarantined(Hook::order)) return;
    class_columns();
    batch_.clear();
    keyed_.clear();
    queue_.for_each_live([&](const JobQueue::Entry& q) {
        const Job& j = job(q.slot);
        batch_.push(j);
        keyed_.push_back({0.0, j.seq, q});
    });
    auto t0 = std::chrono::steady_clock::now();
    keys_.clear();
    HookOutcome o = p->order(batch_, common_context(), keys_);
    if (o.ok) {
        std::string why = check_keys(keys_, batch_.size());
        if (!why.empty()) o = invalid_answer(Hook::order, *p, why);
    }
    const bool ok = call_ok(Hook::order, o, elapsed_ns(t0));
    batch_.clear();
    if (!ok) return;
    ++counters_.rekeys;
    class_index_stale_ = true;  // the keys the class queues are sorted by changed
    bool sorted = true;
    for (std::size_t i = 0; i < keyed_.size(); ++i) {
        keyed_[i].key = keys_[i];
        job(keyed_[i].entry.slot).order_key = keys_[i];
        if (i > 0 && keyed_[i] < keyed_[i - 1]) sorted = false;
    }
    if (sorted) return;
    std::sort(keyed_.begin(), keyed_.end());
    queue_.assign(keyed_.size(), [&](std::size_t i) { return keyed_[i].entry; });
    ++counters_.resorts;
    rescan_ = true;
    classes_dirty_ = true;
    if (cfg_.reservation_depth != SchedulerConfig::kUnlimited && reserved_count_ > 0)
        replace_reservations();
}

}  // namespace rota
