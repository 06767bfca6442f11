#include "simulation.h"

#include <algorithm>
#include <numeric>
#include <queue>

#include "sim_common.h"

namespace rota::sim {

namespace {

using detail::check;
using detail::kUs;

struct EndEvent {
    std::int64_t time;    // microseconds
    std::uint64_t order;  // start order: pyss ends same-time jobs in this order
    std::uint32_t job;
    bool operator>(const EndEvent& o) const {
        return time != o.time ? time > o.time : order > o.order;
    }
};

class Machine {
  public:
    Machine(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt)
        : e_(e), in_(jobs), opt_(opt) {
        rota_machine_info mi{sizeof(mi)};
        check(e_, rota_machine(e_, &mi), "rota_machine");
        idle_ = mi.procs;
        procs_ = mi.procs;
        arrival_ = detail::arrival_order(jobs);
        res_.jobs = detail::initial_outcomes(jobs);
    }

    SimResult run() {
        const bool pyss = opt_.order == EventOrder::pyss;
        while (true) {
            std::int64_t t = next_time();
            if (t == kNone) break;
            ++res_.event_times;
            check(e_, rota_advance(e_, t), "rota_advance");
            drain();  // walltime kills
            if (pyss) {
                while (next_arrival_ < arrival_.size() && arrival_us(next_arrival_) == t) {
                    submit(arrival_[next_arrival_++]);
                    pass(t);
                }
                while (!ends_.empty() && ends_.top().time == t) {
                    end_top();
                    pass(t);
                }
                pass(t);  // reservations that start now, when nothing else happened
            } else {
                while (!ends_.empty() && ends_.top().time == t) end_top();
                while (next_arrival_ < arrival_.size() && arrival_us(next_arrival_) == t)
                    submit(arrival_[next_arrival_++]);
                pass(t);
            }
            loss_.step(t / kUs, idle_, waiting_ > 0);
        }
        std::int64_t first = -1, last = -1;
        for (const auto& o : res_.jobs) {
            if (first < 0 || o.submit < first) first = o.submit;
            if (o.finish > last) last = o.finish;
        }
        res_.capacity_loss = last > first ? loss_.value(last - first, procs_) : 0.0;
        res_.counters.size = sizeof(rota_counters);
        check(e_, rota_counters_get(e_, &res_.counters), "rota_counters_get");
        return std::move(res_);
    }

  private:
    static constexpr std::int64_t kNone = INT64_MAX;
    rota_engine* e_;
    const std::vector<TraceJob>& in_;
    const SimOptions& opt_;
    SimResult res_;
    std::vector<std::uint32_t> arrival_;
    std::size_t next_arrival_ = 0;
    std::priority_queue<EndEvent, std::vector<EndEvent>, std::greater<>> ends_;
    std::uint64_t started_ = 0;
    std::int64_t idle_ = 0, procs_ = 0, waiting_ = 0;
    CapacityLoss loss_;

    std::int64_t arrival_us(std::size_t k) const { return in_[arrival_[k]].submit * kUs; }

    std::int64_t next_time() {
        std::int64_t t = kNone;
        if (next_arrival_ < arrival_.size()) t = arrival_us(next_arrival_);
        if (!ends_.empty()) t = std::min(t, ends_.top().time);
        rota_time w;
        int rc = rota_next_wakeup(e_, &w);
        check(e_, rc, "rota_next_wakeup");
        if (rc == ROTA_OK) t = std::min(t, w);
        return t;
    }

    void submit(std::uint32_t i) {
        detail::submit_job(e_, in_, i, opt_, next_arrival_, arrival_.size());
        ++waiting_;
    }

    void end_top() {
        EndEvent ev = ends_.top();
        ends_.pop();
        JobOutcome& o = res_.jobs[ev.job];
        if (o.state != FinalState::unfinished) return;  // already killed at its walltime
        check(e_, rota_job_end(e_, ev.job), "rota_job_end");
        finish(ev.job, ev.time, FinalState::finished);
    }

    void finish(std::uint32_t i, std::int64_t t_us, FinalState st) {
        JobOutcome& o = res_.jobs[i];
        o.finish = t_us / kUs;
        o.run_time = o.finish - o.start;
        o.state = st;
        idle_ += in_[i].procs;
    }

    void pass(std::int64_t t) {
        check(e_, rota_schedule(e_), "rota_schedule");
        drain();
        if (opt_.after_pass) opt_.after_pass(e_, t);
    }

    void drain() {
        rota_action a{sizeof(rota_action)};
        int rc;
        while ((rc = rota_next_action(e_, &a)) == ROTA_OK) {
            const auto i = static_cast<std::uint32_t>(a.job);
            const TraceJob& j = in_[i];
            JobOutcome& o = res_.jobs[i];
            switch (a.type) {
                case ROTA_ACTION_START: {
                    o.start = a.time / kUs;
                    idle_ -= j.procs;
                    --waiting_;
                    // A job that would outlive its estimate is left to the
                    // engine, which kills it at its walltime.
                    if (j.runtime < j.estimate) ends_.push({a.time + j.runtime * kUs, started_, i});
                    ++started_;
                    break;
                }
                case ROTA_ACTION_KILL:
                    finish(i, a.time, FinalState::killed);
                    break;
                case ROTA_ACTION_REJECT:
                    o.state = FinalState::rejected;
                    --waiting_;
                    res_.rejections.emplace_back(j.id, a.reason ? a.reason : "");
                    break;
            }
        }
        check(e_, rc, "rota_next_action");
    }
};

}  // namespace

SimResult simulate(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt) {
    rota_machine_info mi{sizeof(mi)};
    check(e, rota_machine(e, &mi), "rota_machine");
    if (mi.gang) return simulate_gang(e, jobs, opt);
    return Machine(e, jobs, opt).run();
}

}  // namespace rota::sim
