// The machine under gang scheduling (seed 000 §4-5): only the active row
// of the Ousterhout matrix executes; a job in k rows gets k slices per
// cycle; a job switched in at a slice boundary first pays the
// context-switch overhead; it finishes when its dedicated run time reaches
// its runtime, or is ended at its estimate (killed at walltime).
// Migrations idle a job for their checkpoint and restart time.
#include <algorithm>
#include <numeric>

#include "sim_common.h"
#include "simulation.h"

namespace rota::sim {

namespace {

using detail::check;
using detail::kUs;

constexpr std::int64_t kNone = INT64_MAX;

struct Running {
    std::int64_t done = 0;           // dedicated time so far, us
    std::int64_t need = 0;           // min(runtime, estimate), us
    std::int64_t since = -1;         // executing since (after overhead), us; -1 if suspended
    std::int64_t switched_in = -1;   // when the current execution began, overhead included
    std::int64_t blocked_until = 0;  // migration: no progress before this
    bool executing = false;
};

class GangMachine {
  public:
    GangMachine(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt)
        : e_(e), in_(jobs), opt_(opt), state_(jobs.size()) {
        rota_machine_info mi{sizeof(mi)};
        check(e_, rota_machine(e_, &mi), "rota_machine");
        procs_ = mi.procs;
        overhead_ = static_cast<std::int64_t>(opt.cs_overhead * static_cast<double>(mi.slice));
        arrival_ = detail::arrival_order(jobs);
        res_.jobs = detail::initial_outcomes(jobs);
    }

    SimResult run() {
        std::int64_t t_prev = -1;
        while (true) {
            std::int64_t t = next_time();
            if (t == kNone) break;
            account(t_prev, t);
            t_prev = t;
            ++res_.event_times;
            check(e_, rota_advance(e_, t), "rota_advance");
            drain(t);  // kills at the bound, slice switches
            // Ends first, then arrivals, then one pass (the batched order).
            for (std::uint32_t i : finishing(t)) end(i, t);
            while (next_arrival_ < arrival_.size() && arrival_us(next_arrival_) == t)
                submit(arrival_[next_arrival_++]);
            check(e_, rota_schedule(e_), "rota_schedule");
            drain(t);
            if (opt_.after_pass) opt_.after_pass(e_, t);
        }
        std::int64_t first = -1, last = -1;
        for (const auto& o : res_.jobs) {
            if (first < 0 || o.submit < first) first = o.submit;
            if (o.finish > last) last = o.finish;
        }
        // Eq. (3) of seed 000: empty columns of the active row, unused ends
        // of slices, context-switch and migration time while jobs wait,
        // over the span and the machine.
        res_.capacity_loss =
            last > first ? lost_ / (static_cast<double>(last - first) * kUs * procs_) : 0.0;
        res_.counters.size = sizeof(rota_counters);
        check(e_, rota_counters_get(e_, &res_.counters), "rota_counters_get");
        return std::move(res_);
    }

  private:
    rota_engine* e_;
    const std::vector<TraceJob>& in_;
    const SimOptions& opt_;
    std::vector<Running> state_;
    SimResult res_;
    std::vector<std::uint32_t> arrival_;
    std::size_t next_arrival_ = 0;
    std::vector<std::uint32_t> executing_;  // jobs of the active row
    std::int32_t procs_ = 0;
    std::int64_t overhead_ = 0;
    double lost_ = 0;           // node-microseconds lost (eq. 3 numerator)
    std::int64_t waiting_ = 0;  // submitted, neither started nor rejected
    std::vector<std::uint32_t> done_while_suspended_;

    std::int64_t arrival_us(std::size_t k) const { return in_[arrival_[k]].submit * kUs; }

    std::int64_t completion(std::uint32_t i) const {
        const Running& r = state_[i];
        return r.since + (r.need - r.done);
    }

    std::int64_t next_time() {
        std::int64_t t = kNone;
        if (next_arrival_ < arrival_.size()) t = arrival_us(next_arrival_);
        for (std::uint32_t i : executing_) t = std::min(t, completion(i));
        rota_time w;
        int rc = rota_next_wakeup(e_, &w);
        check(e_, rc, "rota_next_wakeup");
        if (rc == ROTA_OK) t = std::min(t, w);
        return t;
    }

    // Node time lost between two instants: idle columns of the active row,
    // and nodes of jobs still paying their context-switch overhead.
    // Only while jobs wait: capacity is lost when something could use it
    // (seed 000 §2.3, the definition behind eq. 2 and 3).
    void account(std::int64_t t0, std::int64_t t1) {
        if (t0 < 0 || t1 <= t0 || waiting_ == 0) return;
        std::int64_t busy = 0;
        double switching = 0;
        for (std::uint32_t i : executing_) {
            busy += in_[i].procs;
            const Running& r = state_[i];
            const std::int64_t a = std::max(t0, r.switched_in), b = std::min(t1, r.since);
            if (b > a) switching += static_cast<double>(b - a) * in_[i].procs;
        }
        lost_ += static_cast<double>(procs_ - busy) * static_cast<double>(t1 - t0) + switching;
    }

    std::vector<std::uint32_t> finishing(std::int64_t t) {
        std::vector<std::uint32_t> v;
        v.swap(done_while_suspended_);
        for (std::uint32_t i : executing_)
            if (completion(i) <= t) v.push_back(i);
        return v;
    }

    void submit(std::uint32_t i) {
        detail::submit_job(e_, in_, i, opt_, next_arrival_, arrival_.size());
        ++waiting_;
    }

    void stop_executing(std::uint32_t i, std::int64_t t) {
        Running& r = state_[i];
        if (!r.executing) return;
        if (t > r.since) r.done += t - r.since;
        r.executing = false;
        r.since = -1;
        executing_.erase(std::find(executing_.begin(), executing_.end(), i));
        // Suspended exactly as its work ran out: it ends now, not when its
        // row comes round again.
        if (r.done >= r.need && res_.jobs[i].state == FinalState::unfinished)
            done_while_suspended_.push_back(i);
    }

    void finish(std::uint32_t i, std::int64_t t, FinalState st) {
        stop_executing(i, t);
        JobOutcome& o = res_.jobs[i];
        o.finish = t / kUs;
        // The dedicated execution time (t^e of seed 000 §2.3), not the span.
        o.run_time = std::min(state_[i].done, state_[i].need) / kUs;
        o.state = st;
    }

    void end(std::uint32_t i, std::int64_t t) {
        if (res_.jobs[i].state != FinalState::unfinished) return;
        state_[i].done = state_[i].need;
        check(e_, rota_job_end(e_, i), "rota_job_end");
        const TraceJob& j = in_[i];
        finish(i, t, j.runtime >= j.estimate ? FinalState::killed : FinalState::finished);
    }

    void drain(std::int64_t t) {
        rota_action a{sizeof(rota_action)};
        bool boundary = false;  // a slice switch: resumed jobs pay the overhead
        int rc;
        while ((rc = rota_next_action(e_, &a)) == ROTA_OK) {
            if (a.type == ROTA_ACTION_SWITCH) {
                boundary = true;
                ++res_.slices;
                continue;
            }
            const auto i = static_cast<std::uint32_t>(a.job);
            const TraceJob& j = in_[i];
            switch (a.type) {
                case ROTA_ACTION_START:
                    res_.jobs[i].start = a.time / kUs;
                    --waiting_;
                    state_[i].need = std::min(j.runtime, j.estimate) * kUs;
                    break;
                case ROTA_ACTION_RESUME: {
                    Running& r = state_[i];
                    r.executing = true;
                    r.switched_in = a.time;
                    r.since = std::max(a.time + (boundary ? overhead_ : 0), r.blocked_until);
                    executing_.push_back(i);
                    break;
                }
                case ROTA_ACTION_SUSPEND:
                    stop_executing(i, a.time);
                    break;
                case ROTA_ACTION_MIGRATE: {
                    // Checkpoint and restart (seed 000 §5.4): no progress
                    // for `delay`, on whatever columns the job now holds.
                    Running& r = state_[i];
                    r.blocked_until = std::max(r.blocked_until, a.time + a.delay);
                    if (r.executing) {
                        if (a.time > r.since) {
                            r.done += a.time - r.since;
                            r.since = a.time;
                        }
                        r.since = std::max(r.since, r.blocked_until);
                    }
                    break;
                }
                case ROTA_ACTION_KILL:
                    finish(i, a.time, FinalState::killed);
                    break;
                case ROTA_ACTION_REJECT:
                    res_.jobs[i].state = FinalState::rejected;
                    --waiting_;
                    res_.rejections.emplace_back(j.id, a.reason ? a.reason : "");
                    break;
                default:  // replicate, unreplicate, move: the rows, read when active
                    break;
            }
        }
        check(e_, rc, "rota_next_action");
        (void)t;
    }
};

}  // namespace

SimResult simulate_gang(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt) {
    return GangMachine(e, jobs, opt).run();
}

}  // namespace rota::sim
