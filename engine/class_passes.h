// Job classes with two passes and lazy preemption ([Feitelson97] §4.2-4.5;
// classes.cpp, preempt.cpp): each job has a class with a priority, a maximum
// wait, a do-not-disturb multiplier and a processor limit (Table 1). Pass 1
// reserves a processor set for a job past its class's maximum wait, lazily
// swapping out its jobs as their do-not-disturb times end; pass 2 loads
// waiting jobs in class priority order, preempting lower classes past their
// do-not-disturb time. A swapped-out job waits again.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "class_queue.h"
#include "discipline.h"

namespace rota {

class ClassPasses final : public Discipline {
  public:
    explicit ClassPasses(Scheduler& core);

    void schedule() override;
    bool keeps_profile() const override { return false; }
    bool keeps_running_list() const override { return true; }
    bool tracks_queue_positions() const override { return true; }
    std::string never_starts(const Job& j) const override { return never_loads(j); }
    void batch_columns(JobBatch& b) override;
    std::optional<Time> next_wakeup() const override;
    void queued(Slot s, std::size_t pos, bool appended) override;
    void dequeued(Slot s) override;
    void cancelled(Slot s) override;
    void released(Slot s, bool early) override;
    void capacity_lost() override { classes_dirty_ = true; }
    void capacity_gained() override { classes_dirty_ = true; }
    void adopted(Slot s, std::int32_t row) override;
    void policy_changed() override { classes_dirty_ = true; }
    void rekeyed(bool resorted) override;
    const char* snapshot_name() const override { return "classes"; }
    void save_records(std::string& out) const override;
    void load_records(SnapshotReader& in) override;
    void check_job(const Job& j, const std::string& who) const override;
    void restored() override;

    // [Feitelson97] §4.5, gangster's user controls (Scheduler::suspend).
    void suspend(Slot s);
    void resume(Slot s);
    void set_class(Slot s, std::int32_t cls);

    // The class parameters in force now (the period's, or the base set).
    const ClassParams& class_params() const {
        return params_at_ == now() && params_ ? *params_ : find_class_params();
    }
    // The job pass 1 holds processors for, and their count (-1, 0: none).
    JobId class_reserved_job() const {
        return class_reserved_ == kNoSlot ? -1 : job(class_reserved_).spec.id;
    }
    std::int32_t class_reserved_nodes() const { return NodePool::count(class_set_); }
    std::int64_t class_loaded(std::size_t c) const {
        return c < class_loaded_.size() ? class_loaded_[c] : 0;
    }
    // The name of the [[classes.period]] in force, "" for the base set.
    const char* period_name() const {
        const std::int32_t p = period_at(now());
        return p < 0 ? "" : cfg().classes.periods[static_cast<std::size_t>(p)].name.c_str();
    }
    // When a job loaded at `from` may first be preempted (§4.2).
    Time dnd_end_from(const Job& j, Time from) const;

  private:
    // What a job may use (classes_fit.cpp): with node constraints, the
    // nodes of the first of its partitions that can hold it (or any)
    // without its exclusions, and those it must include; the machine's
    // pools beside. `any`: no node constraint, and the passes count
    // processors as the paper does.
    struct Fit {
        bool any = true;
        NodeBits allowed;
        const std::vector<NodeRun>* include = nullptr;
    };
    // What idle processors and victims would give a job: processors it may
    // use, and what each pool would have free.
    struct Cover {
        std::int64_t procs = 0;
        std::vector<std::int64_t> pools;
    };
    PoolUse pools_;  // held by the loaded jobs
    Fit fit_of(const Job& j) const;
    std::int64_t usable(const Fit& f, const std::vector<NodeRun>& runs) const;
    void keep_usable(const Fit& f, std::vector<NodeRun>& runs) const;
    std::int64_t idle_for(const Fit& f, bool outside_set) const;
    bool includes_idle(const Fit& f, bool outside_set) const;
    // Pools free for `j` now; leaving the reserved job's share to it.
    Cover cover_now(const Job& j, std::int64_t idle, bool leave_reserved) const;
    void cover_add(Cover& c, const Fit& f, const Job& v, int sign) const;
    bool covers(const Cover& c, const Job& j) const;
    bool take_pools_for(const Job& j);
    bool fits_idle(const Job& j, const Fit& f, bool outside_set, bool leave_reserved) const;
    Fit reserved_fit_;                // the reserved job's
    std::vector<Slot> owner_;         // per node: the loaded job, kNoSlot if idle
    std::vector<Time> node_free_at_;  // per node: when its last job's state is on disk
    Time node_free_max_ = 0;          // the latest of node_free_at_
    Slot class_reserved_ = kNoSlot;   // pass 1's one reservation
    std::vector<NodeRun> class_set_;  // its processors
    NodePool set_nodes_;              // its processors as a bitset: a node of the set is busy
    std::int64_t loaded_procs_ = 0, swapped_procs_ = 0, large_loaded_ = 0;
    std::vector<std::int64_t> class_loaded_;
    std::vector<std::int32_t> period_bounds_;  // seconds of the week where a period starts or ends
    Time classes_wakeup_ = kForever;
    BeginTimes begins_;  // queued jobs whose begin time is ahead
    std::vector<Slot> requeued_;
    // The waiting jobs by class (class_queue.h), kept as the queue changes;
    // rebuilt from the queue when keys change (a re-key) or a waiting job
    // changes class.
    std::vector<ClassQueue> class_queues_;
    std::vector<std::uint32_t> class_queue_pos_;  // by slot: its entry in its class's queue
    bool class_index_stale_ = true;
    bool class_pos_stale_ = true;  // class_pos_ after an insertion moved queue entries
    // The classes grouped by priority, highest first, for the parameter set
    // class_levels_for_.
    struct ClassLevel {
        std::int32_t priority;
        std::vector<std::int32_t> classes;
    };
    std::vector<ClassLevel> class_levels_;
    const ClassParams* class_levels_for_ = nullptr;
    // A walk of the waiting jobs in the passes' order (class priority, then
    // queue order), one level at a time: cursor[k] is the next position in
    // the queue of the level's k-th class.
    struct ClassWalk {
        std::size_t level = 0;
        std::vector<std::size_t> cursor;
        bool fresh = true;  // the level's cursors are not set yet
        double key = 0;     // the job returned last
        std::uint64_t seq = 0;
        std::size_t last_k = 0, last_i = 0;  // its class in the level, its entry there
        std::int64_t set_idle = 0;           // pass 2: idle processors of the reserved set
        Slot skip = kNoSlot;                 // pass 2: the reserved job
    };
    ClassWalk walk_;             // the passes' walk, kept for its cursors' storage
    bool victims_dirty_ = true;  // preemptable_procs: count afresh from the loaded jobs
    bool classes_dirty_ = true;  // an event since the last pass: run both passes
    mutable const ClassParams* params_ = nullptr;  // class_params() at params_at_
    mutable Time params_at_ = kNoTime;
    const ClassParams& find_class_params() const;
    mutable std::vector<NodeRun> idle_scratch_;
    // Scratch of best_fit and of the passes' victim lists: a pass
    // allocates nothing once they have grown.
    mutable std::vector<NodeRun> fit_scratch_;
    std::vector<Slot> victims_scratch_, chosen_scratch_;
    // By level of class_levels_: the processors of the loaded jobs of that
    // level's priority or lower that pass 1 (pre1_) and pass 2 (pre2_: also
    // past their do-not-disturb time, outside the reserved set) may preempt,
    // from the same sums at each level (victims1_, victims2_), kept as of
    // victims_at_; by slot, what a loaded job adds to them (0: nothing, 1:
    // to pass 1's, 2: to both).
    std::vector<std::int64_t> pre1_, pre2_, victims1_, victims2_;
    bool victims_sums_stale_ = true;  // pre1_ and pre2_ not summed since
    Time victims_at_ = kNoTime;
    std::vector<std::uint8_t> victims_counted_;
    // Loaded at victims_at_ (slot, seq): victims from the next time on.
    std::vector<std::pair<Slot, std::uint64_t>> victims_fresh_;
    std::vector<std::size_t> class_level_of_;  // by class: its level in class_levels_
    // For a job of class level `level` (class_levels()). Levels have
    // distinct priorities, highest first: those of priority <= the level's
    // from it on, those of lower priority from the next.
    std::int64_t preemptable_procs(std::size_t level, bool pass1) {
        if (victims_dirty_ || victims_sums_stale_ || victims_at_ != now() || !levels_known())
            sum_victims();
        return pass1 ? pre1_[level] : pre2_[level + 1];
    }
    void sum_victims();
    void victims_at_now();
    void victim_add(Slot v, std::uint8_t k);
    void victim_past_dnd(Slot v);
    void victim_loaded(Slot v);
    void victim_unloaded(Slot v);
    void victims_set_changed(bool taken);
    std::size_t class_level(const Job& j);
    bool outside_set(const Job& v) const;
    void set_owners(std::vector<Slot>& out);
    // The jobs on the reserved set when it was listed, each with its first
    // processor there: no job can be loaded on the set while it is
    // reserved (only adopted), so those still on it are the set's jobs.
    std::vector<std::pair<Slot, std::int32_t>> set_owner_nodes_;
    bool set_owners_known_ = false;
    std::vector<std::size_t> class_pos_;  // the waiting jobs' queue positions, by slot
    struct Victims {
        std::vector<Slot> jobs;
        std::int64_t procs = 0;
        double cost = 0;
        Time ready = 0;  // when the last one's do-not-disturb time is over
    };
    // pass 1's candidate sets; cleared without freeing the sets' storage,
    // so that listing them allocates nothing once it has grown.
    class VictimSets {
      public:
        void clear() { n_ = 0; }
        bool empty() const { return n_ == 0; }
        std::size_t size() const { return n_; }
        Victims& add() {
            if (n_ == sets_.size()) sets_.emplace_back();
            return sets_[n_++];
        }
        void pop() { --n_; }  // the last one added
        const Victims& operator[](std::size_t i) const { return sets_[i]; }
        std::vector<Victims>::const_iterator begin() const { return sets_.begin(); }
        std::vector<Victims>::const_iterator end() const {
            return sets_.begin() + static_cast<std::ptrdiff_t>(n_);
        }

      private:
        std::vector<Victims> sets_;
        std::size_t n_ = 0;
    };
    VictimSets sets_;
    struct CandidateVictim {  // candidate_sets: a victim and what its orders compare
        Slot v;
        double cost;      // victim_cost
        double per_node;  // victim_cost per node
        Time dnd_left;
        std::int32_t procs, priority;  // procs: those the job may use
    };
    std::vector<CandidateVictim> eligible_;
    // candidate_sets' scratch, by position in eligible_: the orders' keys,
    // those of one order not taken yet, the rest of an order sorted, the
    // set being built.
    std::vector<std::uint64_t> order_keys_, left_keys_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> rest_scratch_;
    std::vector<std::uint32_t> chosen_idx_;
    std::vector<double> class_weight_;                            // by class: node_weight
    std::vector<std::pair<std::int32_t, double>> priority_cost_;  // cost per node by priority
    struct DndMark {  // a loaded job's do-not-disturb end, as it was at load
        Time end, start;
        std::uint64_t seq;
        Slot slot;
        auto operator<=>(const DndMark&) const = default;
    };
    std::vector<DndMark> dnd_marks_;  // a min-heap by end (next_dnd_wakeup)
    // preemptable_procs: loaded jobs counted in pass 1's sums only, a
    // min-heap by do-not-disturb end.
    std::vector<DndMark> victims_heap_;
    std::vector<Slot> fresh_;  // loaded at fresh_at_ with no do-not-disturb time left
    Time fresh_at_ = kNoTime;
    bool dnd_marks_stale_ = true;  // rebuilt from running_ when next needed
    bool dnd_fixed_ = false;       // no class's preemptable flag varies by period
    bool dnd_mark_valid(const DndMark& m) const;
    void mark_dnd(Slot s);
    Time next_dnd_wakeup();
    std::int32_t period_at(Time t) const;
    Time next_period_change() const;
    const JobClassConfig& job_class(const Job& j) const {
        return class_params().classes[static_cast<std::size_t>(j.cls)];
    }
    std::string never_loads(const Job& j) const;
    bool system_allows(const Job& j) const;
    bool limits_allow(const Job& j) const;
    bool class_allows(const Job& j) const;
    bool may_preempt(const Job& victim, const Job& for_job, bool pass1) const;
    double victim_cost(const Job& v, const Job& for_job) const;
    void pass1();
    void pass2();
    void drop_class_reservation();
    void drop_needless(std::vector<Slot>& victims, Cover& have, const Job& j, const Fit& f) const;
    void candidate_sets(Slot s, const Fit& f);
    // candidate_sets' steps, over eligible_ and its scratch below.
    void list_eligible(const Job& j, const Fit& f);
    void fill_order_keys();
    bool lowest_class_is_cheapest();
    bool take_in_order(std::size_t o, const Job& j, const Fit& f, Cover& have);
    std::uint32_t next_in_order(std::size_t k);
    void drop_needless_picks(Cover& have, const Job& j, const Fit& f);
    void add_candidate_set(std::int64_t procs);
    void pass1_reserve(const ClassParams& p);
    void build_set(const Job& j, const Victims& set, const Fit& f);
    void pass1_serve();
    void pass2_job(Slot s, std::int64_t set_idle, std::vector<NodeRun>& runs);
    void offer_candidates(std::vector<NodeRun>& runs);
    // Pass 2's backfill candidates, when a backfill_select policy is set.
    std::vector<Slot> cand_slots_;
    JobBatch cand_batch_;
    std::vector<std::int64_t> cand_picks_;
    // The preempt hook's choice among sets_ (preempt.cpp).
    PreemptBatch preempt_sets_;
    std::vector<std::int64_t> pick_;
    PreemptContext preempt_context(const Job& j) const;
    std::ptrdiff_t choose_set(Slot s);
    void free_runs(bool outside_set, std::vector<NodeRun>& out) const;
    void best_fit(const Job& j, bool outside_set, std::vector<NodeRun>& out, const Fit& f) const;
    void load(Slot s, const std::vector<NodeRun>& runs);
    void swap_out(Slot s, bool by_user);
    void unload(Slot s);
    void find_classes_wakeup();
    void class_index_insert(Slot s, std::size_t pos);
    void class_index_erase(Slot s);
    void rebuild_class_index();
    void refresh_class_pos();
    // The class levels of the parameter set in force.
    bool levels_known() const {
        return params_at_ == now() && params_ && class_levels_for_ == params_;
    }
    const std::vector<ClassLevel>& class_levels() {
        return levels_known() ? class_levels_ : find_class_levels();
    }
    const std::vector<ClassLevel>& find_class_levels();
    Slot walk_next(ClassWalk& w, bool pass1);
};

}  // namespace rota
