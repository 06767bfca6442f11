// The simulated machine, one for every mode (docs/design.md, "The
// simulator"). Only the active row of the Ousterhout matrix executes: with
// one row every running job executes from its START; with more, a job
// executes between RESUME and SUSPEND, pays the context-switch overhead
// when switched in at a slice boundary, and cannot progress while a
// migration checkpoints and restarts it ([Zhang00] §4-5): a migrated job
// pays its checkpoint/restart time out of its own execution, so every
// migration costs the node-time of eq. (4)/(5). A job finishes
// when its dedicated time reaches its runtime. With one row the engine
// kills a job at its estimate (KILL); with more the machine ends it there.
#include "simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <queue>
#include <span>

#include "huge_pages.h"

namespace rota::sim {

namespace {

constexpr std::int64_t kUs = 1'000'000;
constexpr std::int64_t kNone = INT64_MAX;

void check(rota_engine* e, int rc, const char* what) {
    if (rc != ROTA_OK && rc != ROTA_DONE)
        throw SimError(std::string(what) + ": " + rota_status_name(rc) + ": " + rota_errmsg(e));
}

// The engine speaks of a job by the id the simulator submits, its index in
// the workload; the user knows it by the trace's id. An engine message
// about job i names it as the trace does.
std::string job_message(const rota_engine* e, std::uint32_t i, std::int64_t id) {
    std::string msg = rota_errmsg(e);
    const std::string engine_name = "job " + std::to_string(i);
    if (msg.compare(0, engine_name.size() + 1, engine_name + ":") == 0)
        msg.replace(0, engine_name.size(), "job " + std::to_string(id));
    return msg;
}

void check_job(rota_engine* e, int rc, const char* what, std::uint32_t i, std::int64_t id) {
    if (rc == ROTA_OK || rc == ROTA_DONE) return;
    throw SimError(std::string(what) + ": " + rota_status_name(rc) + ": " + job_message(e, i, id));
}

// The engine's time axis, in microseconds: a job's window, its estimate
// times the rows from its submission, must end within it.
constexpr std::int64_t kAxisUs = std::numeric_limits<std::int64_t>::max() / 4;

// Throws naming the job when, submitted at `at_us`, its window would leave
// the time axis (the engine would refuse it, naming neither cause).
void check_window(const TraceJob& j, std::int64_t at_us, std::int32_t rows) {
    if (j.estimate * kUs <= (kAxisUs - at_us) / std::max(rows, 1)) return;
    throw SimError("job " + std::to_string(j.id) + ": submit time " + std::to_string(at_us / kUs) +
                   " s plus its estimate " + std::to_string(j.estimate) + " s" +
                   (rows > 1 ? " times " + std::to_string(rows) + " rows" : std::string()) +
                   " is past the end of the time axis (" + std::to_string(kAxisUs / kUs) + " s)");
}

// A running job as the machine sees it.
struct Running {
    std::int64_t done = 0;          // dedicated time so far, us
    std::int64_t need = 0;          // min(runtime, estimate), us
    std::int64_t since = -1;        // executing since (after overhead), us
    std::int64_t switched_in = -1;  // when the current execution began, overhead included
    // Migration ([Zhang00] §5.4, eq. (4)/(5)): checkpoint and restart time
    // the job still owes, paid on its own columns before it progresses
    // again, whenever it next executes; `paying` of the current execution's
    // lead-in [switched_in, since) is such a debt (the rest is overhead).
    std::int64_t owed = 0;
    std::int64_t paying = 0;
    std::uint64_t order = 0;  // start order: pyss ends same-time jobs in this order
    bool executing = false;
    bool end_due = false;  // resized in the actions being drained: its end is due anew
    // Malleable jobs ([Weissman03] §4.3): the processors it holds and its run
    // time there over its run time on its ideal; `done` and `need` count
    // time on the ideal.
    std::int32_t procs = 0;
    double factor = 1.0;
    std::int64_t resized = 0;  // its last start, grow or shrink, us
};

// [Weissman03] §4.3, as the engine applies it to estimates.
double exec_factor(int model, std::int32_t p, std::int32_t ideal) {
    const double r = static_cast<double>(ideal) / static_cast<double>(p);
    return model == 0 ? r : 0.5 * r + 0.5 / r;
}

struct EndEvent {
    std::int64_t time;  // us
    std::uint64_t order;
    std::uint32_t job;
    bool operator<(const EndEvent& o) const {
        return time != o.time ? time < o.time : order < o.order;
    }
};

// Executing jobs' ends, earliest first, at most one per job. A job's end
// moves at every resize ([Weissman03]) and migration: its entry moves in place
// (a heap that knows each job's position), where queuing a new event each
// time left the old ones to be popped as stale, four times as many pops
// as ends in a harvest-heavy run. Ends are ordered by (time, start order),
// unique per job.
class EndQueue {
  public:
    explicit EndQueue(std::size_t jobs) : pos_(jobs, kNowhere) {}
    bool empty() const { return heap_.empty(); }
    const EndEvent& top() const { return heap_.front(); }
    void pop() { erase(heap_.front().job); }
    // Queues job e.job's end, or moves it there.
    void set(const EndEvent& e) {
        const std::uint32_t at = pos_[e.job];
        std::size_t k = at;
        if (at == kNowhere) {
            k = heap_.size();
            heap_.push_back(e);
        } else {
            heap_[k] = e;
        }
        up(down(k));
    }
    // Forgets job's end, if queued.
    void erase(std::uint32_t job) {
        const std::uint32_t at = pos_[job];
        if (at == kNowhere) return;
        const std::size_t k = at;
        pos_[job] = kNowhere;
        const EndEvent last = heap_.back();
        heap_.pop_back();
        if (k == heap_.size()) return;
        heap_[k] = last;
        up(down(k));
    }

  private:
    // Positions fit 32 bits, as job indices do: 4 bytes a job.
    static constexpr std::uint32_t kNowhere = static_cast<std::uint32_t>(-1);
    std::vector<EndEvent> heap_;
    std::vector<std::uint32_t> pos_;  // by job: its entry's index, or kNowhere

    // Sift the entry at k; each returns where it came to rest.
    std::size_t up(std::size_t k) {
        const EndEvent e = heap_[k];
        for (std::size_t parent; k > 0 && e < heap_[parent = (k - 1) / 2]; k = parent)
            place(k, heap_[parent]);
        place(k, e);
        return k;
    }
    std::size_t down(std::size_t k) {
        const EndEvent e = heap_[k];
        const std::size_t n = heap_.size();
        for (std::size_t c; (c = 2 * k + 1) < n; k = c) {
            if (c + 1 < n && heap_[c + 1] < heap_[c]) ++c;
            if (!(heap_[c] < e)) break;
            place(k, heap_[c]);
        }
        place(k, e);
        return k;
    }
    void place(std::size_t k, const EndEvent& e) {
        heap_[k] = e;
        pos_[e.job] = static_cast<std::uint32_t>(k);
    }
};

class Machine {
  public:
    Machine(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt)
        : e_(e), in_(jobs), opt_(opt), slot_(jobs.size(), kNoRun), ends_(jobs.size()) {
        rota_machine_info mi{};
        mi.size = sizeof(mi);
        check(e_, rota_machine_info_get(e_, &mi), "rota_machine_info_get");
        procs_ = mi.procs;
        rows_ = mi.rows;
        const PoolDemands* pd = opt.pools && !opt.pools->empty() ? opt.pools : nullptr;
        if (static_cast<std::size_t>(mi.npools) != (pd ? pd->count() : 0))
            throw SimError("the engine has " + std::to_string(mi.npools) +
                           " pools and the workload demands " +
                           std::to_string(pd ? pd->count() : 0));
        if (pd && pd->demand.size() != jobs.size() * pd->count())
            throw SimError("the pool demands do not cover every job of the workload");
        pools_ = pd;
        if (opt.adapt_bytes && !opt.adapt_bytes->empty() && opt.adapt_bytes->size() != jobs.size())
            throw SimError("the adaptation bytes do not cover every job of the workload");
        if (opt.components && !opt.components->empty()) {
            if (opt.components->jobs() != jobs.size())
                throw SimError("the components do not cover every job of the workload");
            components_ = opt.components;
            res_.clusters.offset = components_->offset;
            res_.clusters.widths.assign(components_->widths.size(), -1);
        }
        overhead_ = static_cast<std::int64_t>(opt.cs_overhead * static_cast<double>(mi.slice));
        const bool deps = opt.deps && !opt.deps->empty();
        if (opt.arrival_order && opt.arrival_order->size() == jobs.size() && !deps) {
            arrival_ = *opt.arrival_order;
        } else {
            own_arrival_.resize(jobs.size());
            std::iota(own_arrival_.begin(), own_arrival_.end(), 0u);
            if (deps) link_dependencies(*opt.deps);
            std::stable_sort(
                own_arrival_.begin(), own_arrival_.end(),
                [&](std::uint32_t a, std::uint32_t b) { return jobs[a].submit < jobs[b].submit; });
            arrival_ = own_arrival_;
        }
        reserve_huge(res_.jobs, jobs.size());
        res_.jobs.resize(jobs.size());
        if (opt.record_nodes) res_.nodes.resize(jobs.size());
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const TraceJob& j = jobs[i];
            const double share = pools_ ? pools_->mean_share(i, j.procs, procs_)
                                        : static_cast<double>(j.procs) / procs_;
            JobOutcome& o = res_.jobs[i];
            o.id = j.id;
            o.submit = j.submit;
            o.start = o.finish = -1;
            o.procs = j.procs;
            o.requested_time = j.estimate;
            o.run_time = -1;
            o.state = FinalState::unfinished;
            o.share = share;
        }
        if (!arrival_.empty()) window_first_ = in_[arrival_.front()].submit * kUs;
        // Found before the run, not when the job arrives: followers are
        // checked when they are released.
        for (std::uint32_t i : arrival_) check_window(in_[i], in_[i].submit * kUs, rows_);
    }

    SimResult run() {
        const bool pyss = opt_.order == EventOrder::pyss;
        while (true) {
            const std::int64_t t = next_time();
            if (t == kNone) break;
            account(t);
            ++res_.event_times;
            check(e_, rota_advance(e_, t), "rota_advance");
            drain();  // walltime kills, slice switches
            if (pyss) {
                // pyss: arrivals before ends, a pass after every event.
                for (std::uint32_t i : due(t)) {
                    arrive(i);
                    pass(t);
                }
                // Ends in start order, a pass after each. A job killed at its
                // estimate is one of them: the engine freed it in
                // rota_advance (pyss counts it free at t too), but pyss
                // handles its termination in start order like any other, and
                // the pass after it may start jobs before the next end frees
                // more processors.
                std::sort(killed_.begin(), killed_.end());
                std::size_t k = 0;
                while (true) {
                    const bool end_next = !ends_.empty() && ends_.top().time <= t;
                    if (k < killed_.size() && (!end_next || killed_[k].first < ends_.top().order)) {
                        ++k;
                    } else if (!end_due(t)) {
                        break;
                    }
                    pass(t);
                }
                killed_.clear();
                for (std::uint32_t i : due(t)) {  // followers of those ends, without think time
                    arrive(i);
                    pass(t);
                }
                pass(t);  // reservations that start now, when nothing else happened
            } else {
                while (end_due(t)) {
                }
                // The engine releases the followers due now at the pass,
                // after the jobs submitted before it; a job of the trace
                // that comes after one of them in workload order (the order
                // of the arrivals at one time) is submitted after a pass
                // that releases them.
                bool follower = false;
                for (std::uint32_t i : due(t)) {
                    const bool f = deps_ && deps_->after[i] >= 0;
                    if (!f && follower) {
                        pass(t);
                        follower = false;
                    }
                    follower = follower || f;
                    arrive(i);
                }
                pass(t);
            }
            if (opt_.stop && opt_.stop(res_.jobs)) {
                res_.stopped = true;
                res_.stop_time = t / kUs;
                break;
            }
        }
        res_.arrived = static_cast<std::int64_t>(next_arrival_) + followed_;
        std::int64_t first = -1, last = -1;
        for (const auto& o : res_.jobs) {
            if (first < 0 || o.submit < first) first = o.submit;
            if (o.finish > last) last = o.finish;
        }
        res_.capacity_loss =
            last > first ? loss_.value(static_cast<double>(last - first), procs_) : 0;
        // The window ends at the last arrival; a stopped run's where it
        // stopped, when jobs were still to come.
        const bool cut = res_.stopped && (next_arrival_ < arrival_.size() || !followers_.empty());
        const std::int64_t window_last = cut ? last_t_ : last_arrival_;
        const double integral = cut ? queue_integral_ : integral_at_last_arrival_;
        res_.mean_queue = window_last > window_first_
                              ? integral / static_cast<double>(window_last - window_first_)
                              : std::numeric_limits<double>::quiet_NaN();
        res_.counters.size = sizeof(rota_counters);
        check(e_, rota_counters_get(e_, &res_.counters), "rota_counters_get");
        for (int h = 0; rota_hook_name(h) != nullptr; ++h) {
            rota_hook_stats st{};
            st.size = sizeof(st);
            check(e_, rota_hook_stats_get(e_, h, &st), "rota_hook_stats_get");
            res_.hooks.push_back({rota_hook_name(h), st});
        }
        return std::move(res_);
    }

  private:
    rota_engine* e_;
    const std::vector<TraceJob>& in_;
    const SimOptions& opt_;
    // Running state for the jobs that run, not for every job of the
    // workload: slot_[i] is job i's place in runs_ while it runs.
    static constexpr std::uint32_t kNoRun = UINT32_MAX;
    std::vector<std::uint32_t> slot_;
    std::vector<Running> runs_;
    std::vector<std::uint32_t> free_runs_;
    Running& state(std::uint32_t i) { return runs_[slot_[i]]; }
    const Running& state(std::uint32_t i) const { return runs_[slot_[i]]; }
    void open_run(std::uint32_t i) {
        if (free_runs_.empty()) {
            slot_[i] = static_cast<std::uint32_t>(runs_.size());
            runs_.emplace_back();
        } else {
            slot_[i] = free_runs_.back();
            free_runs_.pop_back();
            runs_[slot_[i]] = Running{};
        }
    }
    void close_run(std::uint32_t i) {
        free_runs_.push_back(slot_[i]);
        slot_[i] = kNoRun;
    }
    SimResult res_;
    // The arrival order: the caller's (SimOptions::arrival_order) when it
    // gives one and no job follows another, else own_arrival_.
    std::span<const std::uint32_t> arrival_;
    std::vector<std::uint32_t> own_arrival_;
    std::size_t next_arrival_ = 0;
    EndQueue ends_;
    std::vector<std::uint32_t> end_due_;    // jobs resized in the drain under way
    std::vector<std::uint32_t> executing_;  // jobs of the active row
    // pyss: killed at their estimate by rota_advance(t), with their start order
    std::vector<std::pair<std::uint64_t, std::uint32_t>> killed_;
    std::uint64_t started_ = 0;
    std::int32_t procs_ = 0, rows_ = 1;
    std::int64_t overhead_ = 0;
    std::int64_t busy_ = 0;     // processors of executing jobs
    std::int64_t waiting_ = 0;  // submitted, neither started nor rejected
    std::int64_t last_t_ = -1;
    CapacityLoss loss_;
    const PoolDemands* pools_ = nullptr;
    const Components* components_ = nullptr;
    // The ready queue integrated from the first arrival on, job x us, and
    // its value at the last arrival so far.
    std::int64_t window_first_ = 0, last_arrival_ = 0;
    double queue_integral_ = 0, integral_at_last_arrival_ = 0;
    // Dependencies (SimOptions::deps): the jobs that follow each job
    // (CSR: follower_[follower_at_[i] .. follower_at_[i + 1])), and the
    // followers released by an end, by submit time (us) then workload order.
    const Dependencies* deps_ = nullptr;
    std::vector<std::uint32_t> follower_at_, follower_;
    std::priority_queue<std::pair<std::int64_t, std::uint32_t>,
                        std::vector<std::pair<std::int64_t, std::uint32_t>>, std::greater<>>
        followers_;
    std::int64_t followed_ = 0;   // followers arrived (released by the engine)
    std::int64_t submitted_ = 0;  // all jobs arrived
    std::vector<std::uint32_t> due_;
    // Followers submitted to the engine and not yet released (1), by job.
    std::vector<std::uint8_t> unreleased_;

    // Checks the dependencies, takes the followers out of the arrivals and
    // indexes them by the job they follow.
    void link_dependencies(const Dependencies& d) {
        const std::size_t n = in_.size();
        if (d.after.size() != n || d.think.size() != n)
            throw SimError("the dependencies do not cover every job of the workload");
        follower_at_.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const std::int32_t a = d.after[i];
            if (a < 0) continue;
            if (static_cast<std::size_t>(a) >= i)
                throw SimError("job " + std::to_string(in_[i].id) + " follows job " +
                               (static_cast<std::size_t>(a) < n ? std::to_string(in_[a].id)
                                                                : "#" + std::to_string(a)) +
                               ", which is not an earlier job of the workload");
            if (d.think[i] < 0)
                throw SimError("job " + std::to_string(in_[i].id) + ": think time " +
                               std::to_string(d.think[i]) + " s is negative");
            ++follower_at_[static_cast<std::size_t>(a) + 1];
        }
        for (std::size_t i = 0; i < n; ++i) follower_at_[i + 1] += follower_at_[i];
        follower_.resize(follower_at_[n]);
        std::vector<std::uint32_t> fill(follower_at_.begin(), follower_at_.end() - 1);
        for (std::size_t i = 0; i < n; ++i)
            if (d.after[i] >= 0)
                follower_[fill[static_cast<std::size_t>(d.after[i])]++] =
                    static_cast<std::uint32_t>(i);
        std::erase_if(own_arrival_, [&](std::uint32_t i) { return d.after[i] >= 0; });
        unreleased_.assign(n, 0);
        deps_ = &d;
    }

    // Job i has ended at t: the engine releases its followers after their
    // think time (rota_job.depends, ROTA_AFTER_ANY), and they arrive then.
    void release_followers(std::uint32_t i, std::int64_t t) {
        if (!deps_) return;
        for (std::uint32_t k = follower_at_[i]; k < follower_at_[i + 1]; ++k) {
            const std::uint32_t f = follower_[k];
            const std::int64_t think = deps_->think[f] * kUs;
            if (think > kAxisUs - t)
                throw SimError("job " + std::to_string(in_[f].id) + ": submitted when job " +
                               std::to_string(in_[i].id) + " ends at " + std::to_string(t / kUs) +
                               " s plus its think time " + std::to_string(deps_->think[f]) +
                               " s, past the end of the time axis (" +
                               std::to_string(kAxisUs / kUs) + " s)");
            check_window(in_[f], t + think, rows_);
            followers_.push({t + think, f});
        }
    }

    // The jobs submitted at t: the trace's arrivals and the followers due,
    // in workload order.
    const std::vector<std::uint32_t>& due(std::int64_t t) {
        due_.clear();
        while (next_arrival_ < arrival_.size() && arrival_us(next_arrival_) == t)
            due_.push_back(arrival_[next_arrival_++]);
        if (!followers_.empty() && followers_.top().first == t) {
            while (!followers_.empty() && followers_.top().first == t) {
                const std::uint32_t f = followers_.top().second;
                followers_.pop();
                res_.jobs[f].submit = t / kUs;
                due_.push_back(f);
                ++followed_;
            }
            std::sort(due_.begin(), due_.end());
        }
        if (!due_.empty()) {
            last_arrival_ = t;
            integral_at_last_arrival_ = queue_integral_;
        }
        return due_;
    }

    std::int64_t arrival_us(std::size_t k) const { return in_[arrival_[k]].submit * kUs; }

    std::int64_t completion(std::uint32_t i) const {
        const Running& r = state(i);
        if (r.factor == 1.0) return r.since + (r.need - r.done);
        return r.since + static_cast<std::int64_t>(
                             std::ceil(static_cast<double>(r.need - r.done) * r.factor));
    }

    // Ideal-time work done over [since, t) at the current rate.
    std::int64_t worked(const Running& r, std::int64_t t) const {
        if (t <= r.since) return 0;
        if (r.factor == 1.0) return t - r.since;
        return std::llround(static_cast<double>(t - r.since) / r.factor);
    }

    // (Re)schedules the end of an executing job.
    void schedule_end(std::uint32_t i) {
        const Running& r = state(i);
        // With one row a job outliving its estimate is the engine's to kill.
        if (rows_ == 1 && in_[i].runtime >= in_[i].estimate)
            ends_.erase(i);
        else
            ends_.set({completion(i), r.order, i});
    }

    std::int64_t next_time() {
        std::int64_t t = kNone;
        if (next_arrival_ < arrival_.size()) t = arrival_us(next_arrival_);
        if (!followers_.empty()) t = std::min(t, followers_.top().first);
        if (!ends_.empty()) t = std::min(t, ends_.top().time);
        rota_time w;
        int rc = rota_next_wakeup(e_, &w);
        check(e_, rc, "rota_next_wakeup");
        if (rc == ROTA_OK) t = std::min(t, w);
        if (opt_.cycle > 0) t = cycle(t);
        return t;
    }

    // The scheduling cycle (SimOptions::cycle): the next multiple of it
    // while jobs wait, if earlier than `t`, the next event. When nothing
    // else is left and kIdleCycles cycles in a row started or rejected
    // nothing, the jobs left waiting are left unfinished: an admission
    // policy that holds a job for ever must not keep the run going.
    static constexpr std::int64_t kIdleCycles = 100000;
    std::int64_t idle_cycles_ = 0;
    std::size_t cycle_mark_ = 0;
    bool cycled_ = false;
    std::int64_t cycle(std::int64_t t) {
        const std::size_t mark = static_cast<std::size_t>(started_) + res_.rejections.size();
        if (mark != cycle_mark_)
            idle_cycles_ = 0;
        else if (cycled_)
            ++idle_cycles_;
        cycle_mark_ = mark;
        cycled_ = false;
        if (waiting_ == 0 || last_t_ < 0 || (t == kNone && idle_cycles_ >= kIdleCycles)) return t;
        const std::int64_t c = opt_.cycle * kUs;
        const std::int64_t tick = (last_t_ / c + 1) * c;
        if (tick < t) {
            cycled_ = true;
            return tick;
        }
        return t;
    }

    // Eq. (2) and (3) of [Zhang00] over [last event, t): idle columns of the
    // active row and node time spent switching in or blocked by a
    // migration, only while jobs wait (capacity is lost when something
    // could use it, §2.3).
    void account(std::int64_t t) {
        if (last_t_ >= 0 && waiting_ > 0) {
            const std::int64_t a = std::max(last_t_, window_first_), b = t;
            if (b > a)
                queue_integral_ += static_cast<double>(waiting_) * static_cast<double>(b - a);
        }
        if (rows_ > 1 && last_t_ >= 0 && t > last_t_ && waiting_ > 0) {
            double switching = 0;
            for (std::uint32_t i : executing_) {
                const Running& r = state(i);
                const std::int64_t a = std::max(last_t_, r.switched_in), b = std::min(t, r.since);
                if (b > a) switching += static_cast<double>(b - a) * in_[i].procs;
            }
            loss_.add_lost(switching / kUs);
        }
        loss_.step(static_cast<double>(t) / kUs, static_cast<double>(procs_ - busy_), waiting_ > 0);
        last_t_ = t;
    }

    // Ends the next job due at t, if any.
    bool end_due(std::int64_t t) {
        if (ends_.empty() || ends_.top().time > t) return false;
        const std::uint32_t i = ends_.top().job;
        ends_.pop();
        check_job(e_, rota_job_end(e_, i), "rota_job_end", i, in_[i].id);
        const TraceJob& j = in_[i];
        finish(i, t, j.runtime >= j.estimate ? FinalState::killed : FinalState::finished);
        return true;
    }

    // Job i arrives at the current time and joins the ready queue. A job
    // of the trace is submitted now. A follower was submitted earlier,
    // depending on the job it follows (ROTA_AFTER_ANY, its think time as
    // the delay): the engine held it (ROTA_JOB_WAITING) and releases it at
    // this time's pass, as if submitted now.
    void arrive(std::uint32_t i) {
        if (deps_ && deps_->after[i] >= 0)
            unreleased_[i] = 0;
        else
            submit(i, nullptr);
        if (deps_) submit_followers(i);
        // A job the engine refused at submission (submit) never waits.
        if (res_.jobs[i].state != FinalState::rejected) ++waiting_;
        ++submitted_;
        if (opt_.progress && submitted_ % opt_.progress_every == 0)
            opt_.progress(submitted_, static_cast<std::int64_t>(in_.size()));
    }

    // Followers are submitted ahead, kLookahead steps down their chains:
    // a job's followers, theirs and so on down to that depth with the
    // first job of the chain (the one that follows no other), then each
    // arrival the jobs that far below it. Each is submitted while the job
    // it follows is in the engine, not yet ended. The engine releases the
    // jobs due at one time in the order they were submitted, and the
    // simulation submits them in workload order, its order for arrivals
    // at one time: whole chains of up to kLookahead + 1 jobs are submitted
    // at once, in workload order (feitelson96's repeated runs: at most 32
    // runs). The engine looks at every job it holds at every pass; a bound
    // keeps a chain of thousands from being held whole.
    static constexpr int kLookahead = 64;
    std::vector<std::pair<std::uint32_t, int>> walk_;
    std::vector<std::uint32_t> ahead_;
    void submit_followers(std::uint32_t i) {
        if (follower_at_[i] == follower_at_[i + 1]) return;
        const bool first = deps_->after[i] < 0;
        ahead_.clear();
        walk_.assign(1, {i, 0});
        while (!walk_.empty()) {
            const auto [p, depth] = walk_.back();
            walk_.pop_back();
            for (std::uint32_t k = follower_at_[p]; k < follower_at_[p + 1]; ++k) {
                const std::uint32_t f = follower_[k];
                if (first || depth + 1 == kLookahead) ahead_.push_back(f);
                if (depth + 1 < kLookahead) walk_.push_back({f, depth + 1});
            }
        }
        std::sort(ahead_.begin(), ahead_.end());
        for (const std::uint32_t f : ahead_) {
            const rota_dependency dep{static_cast<std::int64_t>(deps_->after[f]), ROTA_AFTER_ANY,
                                      deps_->think[f] * kUs};
            submit(f, &dep);
            unreleased_[f] = 1;
        }
    }

    void submit(std::uint32_t i, const rota_dependency* dep) {
        const TraceJob& j = in_[i];
        rota_job rj{};
        rj.size = sizeof(rj);
        rj.id = i;  // outcomes carry the trace id
        rj.estimate = j.estimate * kUs;
        rj.procs = j.procs;
        rj.user = j.user;
        if (opt_.min_procs) rj.min_procs = (*opt_.min_procs)[i];
        if (opt_.min_procs && opt_.adapt_bytes && !opt_.adapt_bytes->empty())
            rj.adapt_bytes = (*opt_.adapt_bytes)[i];
        if (opt_.job_class) rj.job_class = (*opt_.job_class)[i];
        if (opt_.partition && !opt_.partition->empty() && (*opt_.partition)[i] >= 0)
            rj.partition = partition_text(i, (*opt_.partition)[i]);  // copied by rota_submit
        if (pools_) {
            rj.npools = static_cast<std::int32_t>(pools_->count());
            rj.pools = pools_->of(i);
        }
        if (components_) {
            rj.ncomponents = components_->count(i);
            rj.components = components_->of(i);
        }
        if (dep) {
            rj.ndepends = 1;
            rj.depends = dep;
        }
        const int rc = rota_submit(e_, &rj);
        // Each job's own window was checked before the run (check_window);
        // the engine refuses one whose window could end past the axis after
        // the windows of the jobs it holds, which it may start first
        // (engine/scheduler.cpp, new_job). That job is a rejection, named
        // by its trace id, and the run goes on.
        if (rc == ROTA_EINVAL && std::strstr(rota_errmsg(e_), "past the time axis")) {
            res_.jobs[i].state = FinalState::rejected;
            std::string why = job_message(e_, i, j.id);
            if (const std::string who = "job " + std::to_string(j.id) + ": ";
                why.rfind(who, 0) == 0)
                why.erase(0, who.size());  // the rejection names the job already
            res_.rejections.emplace_back(j.id, std::move(why));
            release_followers(i, rota_now(e_));
            return;
        }
        check_job(e_, rc, "rota_submit", i, j.id);
    }

    // A partition number's name, or the number in decimal, written once
    // per number: traces have a handful of partitions and every job names
    // one.
    static constexpr std::int32_t kPartitionTexts = 4096;
    std::vector<std::string> partition_texts_;
    std::string partition_scratch_;
    const char* partition_text(std::uint32_t i, std::int32_t p) {
        if (const auto* names = opt_.partition_names; names && !names->empty()) {
            if (p < 1 || static_cast<std::size_t>(p) > names->size())
                throw SimError("job " + std::to_string(in_[i].id) + ": partition number " +
                               std::to_string(p) + " (SWF field 16) names no partition: " +
                               std::to_string(names->size()) + " are named, from 1");
            return (*names)[static_cast<std::size_t>(p) - 1].c_str();
        }
        if (p >= kPartitionTexts) {
            partition_scratch_ = std::to_string(p);
            return partition_scratch_.c_str();
        }
        const auto k = static_cast<std::size_t>(p);
        if (k >= partition_texts_.size()) partition_texts_.resize(k + 1);
        std::string& t = partition_texts_[k];
        if (t.empty()) t = std::to_string(p);
        return t.c_str();
    }

    void pass(std::int64_t t) {
        check(e_, rota_schedule(e_), "rota_schedule");
        drain();
        if (opt_.after_pass) opt_.after_pass(e_, t);
    }

    void start_executing(std::uint32_t i, std::int64_t from, std::int64_t switched_in) {
        Running& r = state(i);
        r.executing = true;
        r.switched_in = switched_in;
        r.since = from + r.owed;
        r.paying = r.owed;
        r.owed = 0;
        if (rows_ > 1) executing_.push_back(i);  // only time sharing switches
        busy_ += r.procs;
        schedule_end(i);
    }

    void stop_executing(std::uint32_t i, std::int64_t t) {
        Running& r = state(i);
        if (!r.executing) return;
        r.done += worked(r, t);
        // Suspended before its migration debt was paid: the rest is owed.
        if (t < r.since) r.owed += std::min(r.paying, r.since - t);
        r.paying = 0;
        r.executing = false;
        r.since = -1;
        ends_.erase(i);
        if (rows_ > 1) executing_.erase(std::find(executing_.begin(), executing_.end(), i));
        busy_ -= r.procs;
        // Suspended exactly as its work ran out: it ends now, not when its
        // row comes round again.
        if (r.done >= r.need && res_.jobs[i].state == FinalState::unfinished)
            ends_.set({t, r.order, i});
    }

    void finish(std::uint32_t i, std::int64_t t_us, FinalState st) {
        JobOutcome& o = res_.jobs[i];
        o.state = st;  // first: stopping it must not schedule its end again
        stop_executing(i, t_us);
        ends_.erase(i);  // one queued as it stopped, at its end of work
        o.finish = t_us / kUs;
        if (o.node_seconds >= 0)
            o.node_seconds += static_cast<double>(state(i).procs) *
                              static_cast<double>(t_us - state(i).resized) / kUs;
        // The dedicated execution time (t^e of [Zhang00] §2.3); with one
        // row, finish - start, unless it was swapped out ([Feitelson97]).
        o.run_time = rows_ == 1 && o.preemptions == 0
                         ? o.finish - o.start
                         : std::min(state(i).done, state(i).need) / kUs;
        close_run(i);
        release_followers(i, t_us);
    }

    // Where the engine put each component of a job it started.
    void record_clusters(std::uint32_t i) {
        std::int32_t* out = res_.clusters.widths.data() + res_.clusters.offset[i];
        const std::size_t cap = static_cast<std::size_t>(components_->count(i));
        std::size_t n = 0;
        check(e_, rota_job_clusters(e_, i, out, cap, &n), "rota_job_clusters");
        if (n != cap)
            throw SimError("job " + std::to_string(in_[i].id) + " has " + std::to_string(cap) +
                           " components and the engine placed " + std::to_string(n));
    }

    void drain() {
        rota_action a{};
        a.size = sizeof(a);
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
                case ROTA_ACTION_START: {
                    res_.jobs[i].start = a.time / kUs;
                    --waiting_;
                    if (components_) record_clusters(i);
                    if (opt_.record_nodes) res_.nodes.set(i, node_intervals(a.runs, a.nruns));
                    open_run(i);
                    Running& r = state(i);
                    r.need = std::min(j.runtime, j.estimate) * kUs;
                    r.order = started_++;
                    r.procs = a.nnodes;
                    res_.jobs[i].start_procs = a.nnodes;
                    r.resized = a.time;
                    if (opt_.min_procs) res_.jobs[i].node_seconds = 0;
                    if (opt_.min_procs) r.factor = exec_factor(opt_.exec_model, a.nnodes, j.procs);
                    // One row: it runs from now on, after its delay ([Feitelson97]:
                    // the nodes' former jobs are being swapped out). More:
                    // when RESUME says so.
                    if (rows_ == 1) start_executing(i, a.time + a.delay, a.time);
                    break;
                }
                case ROTA_ACTION_SWAP_OUT:  // [Feitelson97]: preempted (or suspended): waits again
                    stop_executing(i, a.time);
                    // The count saturates at 2^23 - 1 (JobOutcome's field).
                    if (res_.jobs[i].preemptions < (1 << 23) - 1) ++res_.jobs[i].preemptions;
                    ++waiting_;
                    break;
                case ROTA_ACTION_SWAP_IN:  // anywhere, after its state is read back
                    --waiting_;
                    state(i).procs = a.nnodes;
                    start_executing(i, a.time + a.delay, a.time);
                    break;
                case ROTA_ACTION_RESUME:
                    start_executing(i, a.time + (boundary ? overhead_ : 0), a.time);
                    break;
                case ROTA_ACTION_SUSPEND:
                    stop_executing(i, a.time);
                    break;
                case ROTA_ACTION_MIGRATE: {
                    // Checkpoint and restart ([Zhang00] §5.4): the job's
                    // tasks make no progress for `delay` of their own
                    // execution time, now if it executes, else when it next
                    // does. Every migration costs its node-time of eq. (4)
                    // or (5), even when the job's row is not active.
                    Running& r = state(i);
                    res_.migration_node_seconds +=
                        static_cast<double>(a.delay) * static_cast<double>(j.procs) / kUs;
                    // The job keeps its size: it counts in utilization as
                    // procs x its execution time, as without migration
                    // (its node-seconds held would count the time its row
                    // is switched out too, up to the MPL times over).
                    if (r.executing) {
                        if (a.time >= r.since) {
                            r.done += a.time - r.since;
                            r.since = a.time;
                            r.paying = 0;
                        }
                        r.since += a.delay;
                        r.paying += a.delay;
                        schedule_end(i);
                    } else {
                        r.owed += a.delay;
                    }
                    break;
                }
                case ROTA_ACTION_GROW:
                case ROTA_ACTION_SHRINK: {
                    // [Weissman03]: the work so far at the old size, then the new
                    // size's rate after the adaptation's pause (§4.1).
                    Running& r = state(i);
                    const std::int32_t delta = a.type == ROTA_ACTION_GROW ? a.nnodes : -a.nnodes;
                    JobOutcome& o = res_.jobs[i];
                    if (o.node_seconds < 0) o.node_seconds = 0;
                    o.node_seconds += static_cast<double>(r.procs) *
                                      static_cast<double>(a.time - r.resized) / kUs;
                    r.resized = a.time;
                    if (r.executing) {
                        if (a.time >= r.since) {
                            r.done += worked(r, a.time);
                            r.since = a.time;
                        }
                        busy_ += delta;
                    }
                    r.procs += delta;
                    r.factor = exec_factor(opt_.exec_model, r.procs, j.procs);
                    // One row: the job executes throughout, so its pause
                    // starts now, or when an earlier one ends. A pass
                    // often resizes a job several times (a distribution
                    // grows it, then harvests shrink it): its end is
                    // queued once, after the last.
                    if (r.executing) {
                        r.since += a.delay;
                        if (!r.end_due) {
                            r.end_due = true;
                            end_due_.push_back(i);
                        }
                    } else {
                        r.owed += a.delay;
                    }
                    if (a.type == ROTA_ACTION_SHRINK) ++res_.jobs[i].harvested;
                    break;
                }
                case ROTA_ACTION_KILL:
                    if (opt_.order == EventOrder::pyss) killed_.push_back({state(i).order, i});
                    finish(i, a.time, FinalState::killed);
                    break;
                case ROTA_ACTION_REJECT:
                    // A follower's dependency is on a job the engine holds
                    // (submitted before it) and accepts any end: it is never
                    // rejected before it is released.
                    if (deps_ && unreleased_[i])
                        throw SimError("job " + std::to_string(j.id) +
                                       " was rejected while waiting for job " +
                                       std::to_string(in_[deps_->after[i]].id) +
                                       " to end: " + (a.reason ? a.reason : ""));
                    res_.jobs[i].state = FinalState::rejected;
                    --waiting_;
                    res_.rejections.emplace_back(j.id, a.reason ? a.reason : "");
                    release_followers(i, a.time);
                    break;
                default:  // replicate, unreplicate, move: the rows, read when active
                    break;
            }
        }
        check(e_, rc, "rota_next_action");
        for (const std::uint32_t i : end_due_) {
            if (res_.jobs[i].state != FinalState::unfinished) continue;  // its state is gone
            Running& r = state(i);
            r.end_due = false;
            if (r.executing) schedule_end(i);
        }
        end_due_.clear();
    }
};

}  // namespace

void NodeTexts::set(std::size_t job, std::string_view text) {
    if (block_.back().size() + text.size() + 1 > kBlock) {
        if (block_.size() == std::size_t{1} << (32 - kBlockBits))
            throw SimError("the node lists of the jobs exceed 4 GiB");
        block_.emplace_back();
        block_.back().reserve(std::max(kBlock, text.size() + 1));
    }
    std::string& b = block_.back();
    offset_[job] = static_cast<std::uint32_t>((block_.size() - 1) << kBlockBits | b.size());
    b.append(text);
    b.push_back('\0');
}

namespace {

// From the first submission to the last, plus the longest estimate: an
// upper bound of the time over which passes can happen.
double workload_span(const std::vector<TraceJob>& jobs) {
    std::int64_t first = jobs.front().submit, last = first, longest = 0;
    for (const TraceJob& j : jobs) {
        first = std::min(first, j.submit);
        last = std::max(last, j.submit);
        longest = std::max(longest, j.estimate);
    }
    return static_cast<double>(last - first + longest);
}

constexpr double kManyPasses = 1e9;

}  // namespace

std::string slice_warning(const rota_engine* e, const std::vector<TraceJob>& jobs) {
    rota_machine_info mi{};
    mi.size = sizeof mi;
    if (jobs.empty() || rota_machine_info_get(e, &mi) != ROTA_OK || mi.rows <= 1 || mi.slice <= 0)
        return {};
    const double slice = static_cast<double>(mi.slice) / kUs;
    const double span = workload_span(jobs);
    const double switches = span / slice;
    if (switches <= kManyPasses) return {};
    return fmt::format(
        "a slice of {:g} s over a workload spanning about {:.0f} s is up to {:.2g} slice "
        "switches, each a scheduling pass: the run may take hours; a longer slice ends sooner",
        slice, span, switches);
}

std::string cycle_warning(std::int64_t cycle, const std::vector<TraceJob>& jobs) {
    if (jobs.empty() || cycle <= 0) return {};
    const double span = workload_span(jobs);
    const double passes = span / static_cast<double>(cycle);
    if (passes <= kManyPasses) return {};
    return fmt::format(
        "a scheduling cycle of {} s over a workload spanning about {:.0f} s is up to {:.2g} "
        "passes while jobs wait: the run may take hours; a longer --cycle ends sooner",
        cycle, span, passes);
}

std::string node_intervals(const rota_node_run* runs, std::int32_t nruns) {
    std::string s;
    for (std::int32_t k = 0; k < nruns; ++k) {
        if (k > 0) s += ' ';
        s += std::to_string(runs[k].first);
        if (runs[k].count > 1) s += '-' + std::to_string(runs[k].first + runs[k].count - 1);
    }
    return s;
}

SimResult simulate(rota_engine* e, const std::vector<TraceJob>& jobs, const SimOptions& opt) {
    // Times are converted to microseconds: a value past the engine's time
    // axis would overflow the conversion, so it is refused here, by job.
    constexpr std::int64_t kMaxSeconds = kMaxSimSeconds;
    static_assert(kMaxSeconds == std::numeric_limits<std::int64_t>::max() / 4 / kUs);
    for (const TraceJob& j : jobs)
        for (const auto& [what, v] : {std::pair<const char*, std::int64_t>{"submit time", j.submit},
                                      {"run time", j.runtime},
                                      {"estimate", j.estimate}})
            if (v < 0 || v > kMaxSeconds)
                throw SimError("job " + std::to_string(j.id) + ": " + what + " " +
                               std::to_string(v) + " s is outside 0.." +
                               std::to_string(kMaxSeconds) + " s, the time axis");
    if (opt.cycle < 0 || opt.cycle > kMaxSeconds)
        throw SimError("the scheduling cycle " + std::to_string(opt.cycle) + " s is outside 0.." +
                       std::to_string(kMaxSeconds) + " s, the time axis");
    // A think time is the delay of the follower's dependency, which the
    // engine bounds by a quarter of its time axis (rota.h, rota_dependency).
    constexpr std::int64_t kMaxThink = kAxisUs / 4 / kUs;
    if (opt.deps)
        for (std::size_t i = 0; i < opt.deps->think.size() && i < jobs.size(); ++i)
            if (opt.deps->think[i] > kMaxThink)
                throw SimError("job " + std::to_string(jobs[i].id) + ": think time " +
                               std::to_string(opt.deps->think[i]) + " s is outside 0.." +
                               std::to_string(kMaxThink) +
                               " s, the longest delay a dependency may have (a quarter of the "
                               "time axis)");
    return Machine(e, jobs, opt).run();
}

}  // namespace rota::sim
