// The iScheduler ([Weissman03] §2.2, Figure 3(a); malleable.cpp): malleable
// jobs run on anything from their min to their ideal processors; an
// arriving job that does not fit may harvest processors from running jobs,
// and the processors a termination frees are distributed among queued and
// running jobs. The harvest and distribution hooks decide how much; the
// control policy (MalleableConfig) bounds every harvest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "discipline.h"

namespace rota {

// [Weissman03] §4.3: a job's run time on p processors over its run time on its
// ideal, under execution model m.
double exec_factor(ExecModel m, std::int32_t p, std::int32_t ideal);

class IScheduler final : public Discipline {
  public:
    explicit IScheduler(Scheduler& core);

    void schedule() override;
    bool keeps_profile() const override { return false; }
    bool keeps_running_list() const override { return true; }
    std::int32_t least_procs(const Job& j) const override { return j.min_procs(); }
    void check_spec(const JobSpec& spec) const override;
    double progress(const Job& j) const override;
    void progress_reported(Slot s, double done) override;
    void queued(Slot s, std::size_t pos, bool appended) override;
    void released(Slot s, bool early) override;
    void adopted(Slot s, std::int32_t) override { pools_.add(job(s), +1); }
    // A node back in service frees processors as an end does: the next
    // pass distributes them (Figure 3(a), termination), or jobs that
    // waited would wait for an end that may never come.
    void capacity_gained() override { ++freed_; }
    std::optional<Time> next_wakeup() const override {
        return begins_.empty() ? std::nullopt : std::optional<Time>(begins_.next());
    }
    const char* snapshot_name() const override { return "malleable"; }
    void save_records(std::string& out) const override;
    void load_records(SnapshotReader& in) override;
    void check_job(const Job& j, const std::string& who) const override;
    void restored() override;

  private:
    std::vector<Slot> waiting_;  // the queue at the start of the phase
    std::int64_t freed_ = 0;     // processors freed by ends since the last pass
    // Jobs queued since the last malleable pass (queued()), the only ones
    // Figure 3(a)'s arrival step can find: one, with no end, spares the
    // pass its walk of the queue. Unknown until a pass has walked it.
    std::int64_t entered_ = 0;
    Slot entered_last_ = 0;
    bool entered_known_ = false;
    MalleableBatch mall_;           // harvest victims or distribution candidates
    std::vector<Slot> mall_slots_;  // their slots
    std::vector<std::int64_t> take_, give_;
    std::vector<NodeRun> moved_;  // the nodes of one grow or shrink
    BeginTimes begins_;           // queued jobs whose begin time is ahead
    // The pools running jobs hold: a job's demand is fixed, whatever its
    // width, from its start to its end (docs/design.md, "Composing the
    // disciplines").
    PoolUse pools_;

    Time run_time(const Job& j, std::int32_t p) const;
    Time adapt_cost(const Job& j) const;
    void settle_work(Job& j);
    void retime(Slot s, Time end);
    void start_malleable(Slot s, std::int32_t p);
    void resize(Slot s, std::int32_t delta);
    void begin_malleable_batch(std::size_t n);
    void end_malleable_batch(std::size_t k);
    void put_malleable(std::size_t k, Slot s);
    void fill_malleable(MalleableColumn c);
    MalleableContext malleable_context(std::int32_t needed) const;
    bool mpl_reached() const;
    void arrive(Slot s);
    bool harvest_for(Slot s, std::int32_t needed);
    bool harvest_costs_more(const Job& j, std::int32_t needed) const;
    void distribute();
};

}  // namespace rota
