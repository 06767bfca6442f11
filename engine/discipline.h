// A schedule discipline: the phase of the pass that decides which waiting
// jobs run, and the state it keeps to decide (docs/design.md, "The core and
// its disciplines"). The core (Scheduler, scheduler.h) owns the jobs, the
// queue, the machine, events, actions, counters and the policies; it runs
// admission and order, then hands the pass to its one discipline and tells
// it of every event that concerns it. Three disciplines implement the
// papers' schedulers:
//
//   MatrixWalk   the walk of the queue with reservations and backfilling,
//                on the Ousterhout matrix ([Zhang00]; one row is space
//                sharing) with pools, clusters and partitions (walk.h)
//   IScheduler   malleable jobs, harvest and distribution ([Weissman03],
//                ischeduler.h)
//   ClassPasses  job classes, two passes and lazy preemption
//                ([Feitelson97] §4.3, class_passes.h)
//
// A discipline reaches the core's state through the accessors below; its
// own state is its own.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scheduler.h"

namespace rota {

class SnapshotReader;

// Queued jobs whose begin time is still ahead (JobSpec::begin), for a
// discipline to skip them until then and to wake up when the first comes
// due. An entry is a job's slot and arrival number, checked when it comes
// due, so that a job that left the queue meanwhile needs no removal.
class BeginTimes {
  public:
    using Slot = std::uint32_t;
    void add(Time begin, std::uint64_t seq, Slot s) {
        heap_.push_back({begin, seq, s});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
    }
    bool empty() const { return heap_.empty(); }
    Time next() const { return heap_.empty() ? kForever : heap_.front().begin; }
    // Drops the entries due by `now`; whether any was.
    bool pop_due(Time now) {
        bool any = false;
        while (!heap_.empty() && heap_.front().begin <= now) {
            std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
            heap_.pop_back();
            any = true;
        }
        return any;
    }
    void clear() { heap_.clear(); }
    // The queued jobs of `queue` whose begin time is after `now`.
    template <class JobOf>
    void rebuild(const JobQueue& queue, Time now, JobOf&& job) {
        heap_.clear();
        queue.for_each_live([&](const JobQueue::Entry& q) {
            const Job& j = job(q.slot);
            if (j.spec.begin > now) add(j.spec.begin, j.seq, q.slot);
        });
    }

  private:
    struct Entry {
        Time begin;
        std::uint64_t seq;
        Slot slot;
        auto operator<=>(const Entry&) const = default;
    };
    std::vector<Entry> heap_;
};

// What running jobs hold of the machine's pools now, for a discipline that
// keeps no profile of them (the class passes, the iScheduler). A job holds
// its demand, whatever its width, from its start (or load) to its end (or
// swap-out).
class PoolUse {
  public:
    void init(const std::vector<PoolConfig>& pools) {
        capacity_.clear();
        for (const PoolConfig& p : pools) capacity_.push_back(p.capacity);
        used_.assign(capacity_.size(), 0);
    }
    void add(const Job& j, std::int64_t sign) {
        for (std::size_t k = 0; k < used_.size(); ++k) used_[k] += sign * j.spec.pools[k];
    }
    std::int64_t free(std::size_t k) const { return capacity_[k] - used_[k]; }
    std::int64_t used(std::size_t k) const { return used_[k]; }
    std::size_t size() const { return used_.size(); }
    // Whether job j's demand fits what is free, and `also`'s besides.
    bool fits(const Job& j, const Job* also = nullptr) const {
        for (std::size_t k = 0; k < used_.size(); ++k)
            if (used_[k] + j.spec.pools[k] + (also ? also->spec.pools[k] : 0) > capacity_[k])
                return false;
        return true;
    }

  private:
    std::vector<std::int64_t> capacity_, used_;
};

class Discipline {
  public:
    using Slot = Scheduler::Slot;
    static constexpr Slot kNoSlot = Scheduler::kNoSlot;

    explicit Discipline(Scheduler& core) : core_(core) {}
    virtual ~Discipline() = default;
    Discipline(const Discipline&) = delete;
    Discipline& operator=(const Discipline&) = delete;

    // The schedule phase of a pass, after admission and order (pass.cpp).
    virtual void schedule() = 0;

    // What the core asks of the discipline.
    //
    // Whether running jobs' windows are promised in the machine's profiles
    // (the walk plans on them; the passes and the iScheduler look only at
    // what is idle now, so loading, swapping, grows and shrinks skip them).
    virtual bool keeps_profile() const { return true; }
    // Whether the core keeps its list of running jobs in start order.
    virtual bool keeps_running_list() const { return false; }
    // Whether queue positions must stay put when a job is inserted before
    // others (the class queues point into the queue).
    virtual bool tracks_queue_positions() const { return false; }
    // The fewest processors a job can start on (its min under the iScheduler).
    virtual std::int32_t least_procs(const Job& j) const { return j.spec.procs; }
    // Why a job admitted now can never start, or "": it is then rejected.
    virtual std::string never_starts(const Job&) const { return {}; }
    // Checks a job as submitted, beyond what the core checks; throws
    // rota::Error(Errc::invalid).
    virtual void check_spec(const JobSpec&) const {}
    // The share of its work a running job has done.
    virtual double progress(const Job& j) const;
    // Columns of the batches the core builds (admission, order) that depend
    // on the discipline.
    virtual void batch_columns(JobBatch&) {}
    // The next time before which nothing changes on its own (a slice
    // boundary), and what happens there: the core stops at the first as it
    // advances the clock to `until`, before walltime kills, and the
    // discipline passes every boundary up to `until` at once.
    virtual Time next_boundary() const { return kForever; }
    virtual void boundary(Time /*until*/) {}
    // The earliest time the discipline must be woken, if any.
    virtual std::optional<Time> next_wakeup() const { return std::nullopt; }

    // Events, after the core changed its own state.
    //
    // Job s entered the queue at position `pos` (kNoPos: not known), at its
    // end or before jobs already there.
    static constexpr std::size_t kNoPos = static_cast<std::size_t>(-1);
    virtual void queued(Slot, std::size_t /*pos*/, bool /*appended*/) {}
    // Job s leaves the queue without starting (cancelled, or started by the
    // discipline itself through the core), before its entry is removed.
    virtual void dequeued(Slot) {}
    // A queued or suspended job s is cancelled, before the core forgets it.
    virtual void cancelled(Slot) {}
    // Running job s leaves its nodes (an end, a kill, a cancel, a requeue,
    // a preemption); `early`: before its window ended.
    virtual void released(Slot, bool /*early*/) {}
    // Capacity was taken away (a node left, a job was adopted or requeued):
    // promises made on it may not hold.
    virtual void capacity_lost() {}
    // A node came back.
    virtual void capacity_gained() {}
    // Running job s was adopted (rota_adopt) in row `row`.
    virtual void adopted(Slot, std::int32_t /*row*/) {}
    // A policy was set, replaced or reloaded.
    virtual void policy_changed() {}
    // The order hook re-keyed the queue (`resorted`: its order changed).
    virtual void rekeyed(bool /*resorted*/) {}
    // The embedder reported a running job's progress (done in [0, 1]).
    virtual void progress_reported(Slot s, double done);

    // Snapshots (snapshot.cpp): the discipline's records after the core's,
    // and their reading; check_job refuses a job record the discipline
    // could not have left (Errc::invalid through SnapshotReader::bad).
    virtual const char* snapshot_name() const = 0;  // "walk", "malleable" or "classes"
    virtual void save_records(std::string& out) const = 0;
    virtual void load_records(SnapshotReader& in) = 0;
    // By default, the walk's rules: a window of estimate x rows (grown by a
    // cycle each time a gang-scheduled job overran it), no suspended job,
    // a running job on its processors (under buddy packing, its block).
    virtual void check_job(const Job& j, const std::string& who) const;
    // After every job record is read and placed: rebuild what derives.
    virtual void restored() {}

  protected:
    Scheduler& core_;

    // The core's state, as a discipline sees it.
    Time now() const { return core_.now_; }
    const SchedulerConfig& cfg() const { return core_.cfg_; }
    Machine& machine() { return core_.machine_; }
    const Machine& machine() const { return core_.machine_; }
    Job& job(Slot s) { return core_.jobs_[s]; }
    const Job& job(Slot s) const { return core_.jobs_[s]; }
    std::vector<Job>& jobs() { return core_.jobs_; }
    const std::vector<Job>& jobs() const { return core_.jobs_; }
    JobQueue& queue() { return core_.queue_; }
    const JobQueue& queue() const { return core_.queue_; }
    Counters& counters() { return core_.counters_; }
    UsageBook& usage() { return core_.usage_; }
    const std::vector<Slot>& running() const { return core_.running_; }
    std::size_t running_count() const { return core_.running_count_; }
    ExpiryHeap& expiries() { return core_.expiries_; }
    std::int32_t active_row() const { return core_.active_row_; }
    void set_active_row(std::int32_t r) { core_.active_row_ = r; }
    const std::shared_ptr<Policy>& policy(Hook h) const {
        return core_.policy_[static_cast<std::size_t>(h)];
    }
    bool time_sharing() const { return core_.time_sharing(); }
    bool clustered() const { return core_.clustered(); }
    Demand demand(const Job& j) const { return core_.demand(j); }
    CommonContext common_context() const { return core_.common_context(); }
    template <Hook H, class MakeContext, class Extra = std::nullptr_t>
    bool ask(const typename HookSpec<H>::Batch& b, MakeContext&& make_context,
             typename HookSpec<H>::Answer& a, Extra&& extra = nullptr) {
        return core_.ask<H>(b, std::forward<MakeContext>(make_context), a,
                            std::forward<Extra>(extra));
    }
    void emit(const Action& a) { core_.emit(a); }
    void emit_with_runs(const Action& a, const std::vector<NodeRun>& runs, std::int32_t nodes) {
        core_.emit_with_runs(a, runs, nodes);
    }
    void emit_job_runs(const Action& a, const Job& j, const std::vector<NodeRun>& runs) {
        core_.emit_job_runs(a, j, runs);
    }
    // Actions held back while the matrix phases run, then told after the
    // net change of the matrix (slices.cpp).
    void hold_actions() {
        core_.pass_actions_.clear();
        core_.buffer_pass_ = true;
    }
    void stop_holding_actions() { core_.buffer_pass_ = false; }
    void append_held_actions() {
        core_.actions_.insert(core_.actions_.end(), core_.pass_actions_.begin(),
                              core_.pass_actions_.end());
        core_.pass_actions_.clear();
    }
    // The core's bookkeeping of a job that runs from now on j.alloc.
    void now_running(Slot s) { core_.now_running(s); }
    void release(Slot s) { core_.release(s); }
    void queue_insert(Slot s) { core_.queue_insert(s); }
    void queue_erase(Slot s) { core_.queue_erase(s); }
    // Who backfill_select's blocked head is (none: -1s), in its context.
    static void set_head(BackfillContext& c, const Job* head);
    void log(int level, const std::string& line) const {
        if (core_.log_) core_.log_(level, line);
    }
};

// The discipline the core's configuration asks for.
std::unique_ptr<Discipline> make_discipline(Scheduler& core);

}  // namespace rota
