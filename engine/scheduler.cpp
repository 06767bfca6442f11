// Events, actions and queries.
#include "scheduler.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "error.h"

namespace rota {

SchedulerConfig checked(SchedulerConfig cfg) {
    auto fail = [](const std::string& m) { throw Error(Errc::config, m); };
    if (cfg.procs <= 0) fail("machine.procs must be positive, got " + std::to_string(cfg.procs));
    if (cfg.rows < 1 || cfg.rows > 32) fail("gang.mpl must be between 1 and 32");
    if (cfg.rows > 1 && cfg.slice <= 0) fail("gang.slice must be positive");
    if (cfg.reservation_depth < SchedulerConfig::kUnlimited)
        fail("scheduler.reservation_depth must be -1 (unlimited) or >= 0");
    if (cfg.migration_cost < 0) fail("gang.migration_cost must not be negative");
    if (cfg.migration_q < -1) fail("gang.migration_q must be -1 (unlimited) or >= 0");
    // Buddy packing places a job in a block of columns free now; a promise
    // in a row's profile counts columns, and could come due with enough of
    // them free but no block; migration moves jobs to any free columns.
    if (cfg.packing == Packing::buddy) {
        if (!cfg.clusters.empty() || cfg.malleable.enabled || cfg.classes.enabled)
            fail(
                "gang.packing = \"buddy\" cannot be combined with machine.clusters, [malleable] "
                "or [classes]");
        if (cfg.reservation_depth != 0)
            fail(
                "gang.packing = \"buddy\" needs scheduler.reservation_depth = 0 (no reservations)");
        if (cfg.migration) fail("gang.packing = \"buddy\" cannot be combined with gang.migration");
    }
    if (cfg.rekey_interval < 0) fail("scheduler.rekey_interval must not be negative");
    if (cfg.usage_half_life < 0) fail("scheduler.usage_half_life must not be negative");
    for (const auto& p : cfg.pools)
        if (p.capacity <= 0) fail("pool '" + p.name + "' needs a positive capacity");
    if (!cfg.clusters.empty()) {
        std::int64_t total = 0;
        for (const auto& c : cfg.clusters) {
            if (c.nodes <= 0) fail("cluster '" + c.name + "' needs a positive number of nodes");
            total += c.nodes;
        }
        if (total != cfg.procs)
            fail("the clusters have " + std::to_string(total) + " nodes; machine.procs is " +
                 std::to_string(cfg.procs));
        if (cfg.rows > 1) fail("machine.clusters cannot be combined with gang scheduling");
        if (cfg.clusters.size() > 256) fail("at most 256 clusters");
    }
    if (cfg.malleable.enabled) {
        if (cfg.rows > 1 || !cfg.pools.empty() || !cfg.clusters.empty())
            fail(
                "[malleable] ([Weissman03]) is space sharing on one pool of processors: no gang "
                "scheduling, pools or clusters");
        if (cfg.malleable.mpl_limit < 0) fail("malleable.mpl_limit must be >= 0");
        if (cfg.malleable.max_harvests < 0) fail("malleable.max_harvests must be >= 0");
        if (cfg.malleable.protect_age < 0 || cfg.malleable.adapt_latency < 0 ||
            !(cfg.malleable.adapt_per_byte >= 0))
            fail("malleable times and costs must not be negative");
    }
    if (cfg.classes.enabled) {
        const ClassesConfig& c = cfg.classes;
        if (cfg.rows > 1 || !cfg.pools.empty() || !cfg.clusters.empty() || cfg.malleable.enabled)
            fail(
                "[classes] ([Feitelson97]) is one pool of processors: no gang scheduling, pools, "
                "clusters or [malleable]");
        if (c.base.classes.empty()) fail("[classes] needs at least one class");
        if (c.base.classes.size() > 1000) fail("[classes]: at most 1000 classes");
        if (c.default_class < 0 ||
            static_cast<std::size_t>(c.default_class) >= c.base.classes.size())
            fail("classes.default is not a class");
        if (c.swap_time < 0) fail("classes.swap_time must not be negative");
        for (const ClassPeriod& p : c.periods) {
            if (p.params.classes.size() != c.base.classes.size())
                fail("classes.period '" + p.name + "' does not give every class");
            if (p.from < 0 || p.from > 86400 || p.to < 0 || p.to > 86400 || p.from == p.to ||
                p.days == 0 || p.days > 0x7f)
                fail("classes.period '" + p.name + "' has no valid days or hours");
        }
        auto check = [&](const ClassParams& p) {
            for (const JobClassConfig& k : p.classes)
                if (k.max_wait < 0 || k.dnd < 0 || k.procs < 0)
                    fail("class '" + k.name + "': times and limits must not be negative");
            const ClassLimits& l = p.limits;
            if (l.large_job < 0 || l.large_procs < 0 || l.job_procs < 0 || l.system_procs < 0)
                fail("classes: limits must not be negative");
        };
        check(c.base);
        for (const ClassPeriod& p : c.periods) check(p.params);
    }
    return cfg;
}

Scheduler::Scheduler(SchedulerConfig cfg)
    : cfg_(checked(std::move(cfg))),
      machine_(cfg_),
      reserved_in_row_(static_cast<std::size_t>(cfg_.rows), 0),
      row_ok_(static_cast<std::size_t>(cfg_.rows), 1),
      reach_(static_cast<std::size_t>(cfg_.rows)),
      row_gain_(static_cast<std::size_t>(cfg_.rows), 0),
      usage_(cfg_.usage_half_life),
      next_rekey_(cfg_.rekey_interval > 0 ? cfg_.rekey_interval : kForever) {
    // Batches carry every job's demand as shares of the capacities (R_ij).
    batch_.inv_capacity.push_back(1.0 / static_cast<double>(cfg_.procs));
    for (const PoolConfig& p : cfg_.pools)
        batch_.inv_capacity.push_back(1.0 / static_cast<double>(p.capacity));
    if (cfg_.classes.enabled) {
        class_loaded_.assign(cfg_.classes.base.classes.size(), 0);
        dnd_fixed_ = true;
        for (const ClassPeriod& p : cfg_.classes.periods)
            for (std::size_t c = 0; c < p.params.classes.size(); ++c)
                dnd_fixed_ =
                    dnd_fixed_ && c < cfg_.classes.base.classes.size() &&
                    p.params.classes[c].preemptable == cfg_.classes.base.classes[c].preemptable;
        const auto n = static_cast<std::size_t>(cfg_.procs);
        owner_.assign(n, kNoSlot);
        node_free_at_.assign(n, 0);
        // Where in the week each period starts and ends.
        for (const ClassPeriod& p : cfg_.classes.periods)
            for (int d = 0; d < 7; ++d) {
                if (!((p.days >> d) & 1u)) continue;
                const std::int32_t day = d * 86400;
                period_bounds_.push_back(day + p.from);
                period_bounds_.push_back((day + (p.from < p.to ? 0 : 86400) + p.to) % (7 * 86400));
            }
        std::sort(period_bounds_.begin(), period_bounds_.end());
        period_bounds_.erase(std::unique(period_bounds_.begin(), period_bounds_.end()),
                             period_bounds_.end());
    }
    batch_.with_components = clustered();
    place_batch_.with_components = clustered();
    place_batch_.inv_capacity = batch_.inv_capacity;
    batch_.names = &names_;
    place_batch_.names = &names_;
    mall_.names = &names_;
    mall_.fill = [this](MalleableColumn c) { fill_malleable(c); };
    mig_.names = &names_;
}

void Scheduler::idle_nodes(std::vector<std::int32_t>& out) const {
    machine_.matrix().free_columns(active_row_, out);
}

// Action arenas live until the embedder has drained them and calls again.
void Scheduler::begin_event() {
    if (action_head_ == actions_.size() && !actions_.empty()) {
        actions_.clear();
        action_head_ = 0;
        run_arena_.clear();
        run_cluster_arena_.clear();
        reason_arena_.clear();
    }
}

Scheduler::Slot Scheduler::slot_of(JobId id) const {
    Slot s = index_.find(id);
    if (s == JobIndex::kNone) throw Error(Errc::not_found, "no job " + std::to_string(id));
    return s;
}

const Job* Scheduler::find(JobId id) const {
    Slot s = index_.find(id);
    return s == JobIndex::kNone ? nullptr : &jobs_[s];
}

void Scheduler::submit(const JobSpec& spec) {
    begin_event();
    const Slot s = new_job(spec);
    pending_.push_back(s);
    ++counters_.submitted;
}

namespace {

// A duration in microseconds, too large for an integer, as seconds.
std::string seconds_text(double us) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g s", us / 1e6);
    return buf;
}

}  // namespace

// Checks a job as submitted and gives it a slot, indexed, pending.
Scheduler::Slot Scheduler::new_job(const JobSpec& spec) {
    // Built only for an error: every submission passes through here.
    const auto who = [&spec] { return "job " + std::to_string(spec.id); };
    if (spec.id < 0) throw Error(Errc::invalid, who() + ": ids must be >= 0");
    if (spec.procs <= 0) throw Error(Errc::invalid, who() + ": procs must be positive");
    if (spec.estimate <= 0) throw Error(Errc::invalid, who() + ": estimate must be positive");
    // Windows (estimate x rows) must fit in the time axis with room to spare.
    if (const Time most = (kTimeAxisEnd - now_) / cfg_.rows; spec.estimate > most)
        throw Error(Errc::invalid, who() + ": estimate " + std::to_string(spec.estimate) +
                                       " us would end past the time axis (now " +
                                       std::to_string(now_) + " us: at most " +
                                       std::to_string(most) + " us" +
                                       (cfg_.rows > 1 ? " with the rows' windows" : "") + ")");
    if (spec.pools.size() != cfg_.pools.size())
        throw Error(Errc::invalid, who() + ": gives " + std::to_string(spec.pools.size()) +
                                       " pool amounts; the machine has " +
                                       std::to_string(cfg_.pools.size()) + " pools");
    for (auto v : spec.pools)
        if (v < 0) throw Error(Errc::invalid, who() + ": pool amounts must be >= 0");
    if (!spec.components.empty()) {
        std::int64_t sum = 0;
        for (auto w : spec.components) {
            if (w <= 0) throw Error(Errc::invalid, who() + ": component widths must be positive");
            sum += w;
        }
        if (sum != spec.procs)
            throw Error(Errc::invalid, who() + ": its components add up to " + std::to_string(sum) +
                                           " nodes, not procs = " + std::to_string(spec.procs));
        if (!clustered() && spec.components.size() > 1)
            throw Error(Errc::invalid, who() + ": has " + std::to_string(spec.components.size()) +
                                           " components; the machine has no clusters");
    }
    if (spec.min_procs < 0 || spec.min_procs > spec.procs)
        throw Error(Errc::invalid, who() + ": min_procs " + std::to_string(spec.min_procs) +
                                       " must be between 1 and procs = " +
                                       std::to_string(spec.procs) + " (0: rigid)");
    if (spec.adapt_bytes < 0) throw Error(Errc::invalid, who() + ": adapt_bytes must be >= 0");
    if (cfg_.malleable.enabled) {
        // On its min it runs longest (both execution models slow down as
        // processors are taken) and adapts at the highest cost: both must
        // fit in the time axis as the estimate does.
        const std::int32_t least = spec.min_procs > 0 ? spec.min_procs : spec.procs;
        const auto limit = static_cast<double>((kTimeAxisEnd - now_) / cfg_.rows);
        const double longest = static_cast<double>(spec.estimate) *
                               exec_factor(cfg_.malleable.exec_model, least, spec.procs);
        if (!(longest <= limit))
            throw Error(Errc::invalid, who() + ": estimate " + std::to_string(spec.estimate) +
                                           " us runs " + seconds_text(longest) + " on its min of " +
                                           std::to_string(least) +
                                           " processors, beyond the time axis");
        const double cost = static_cast<double>(cfg_.malleable.adapt_latency) +
                            cfg_.malleable.adapt_per_byte * static_cast<double>(spec.adapt_bytes) /
                                static_cast<double>(least);
        if (!(cost <= limit / 1024))
            throw Error(Errc::invalid,
                        who() + ": adapting its " + std::to_string(spec.adapt_bytes) +
                            " bytes on its min of " + std::to_string(least) + " processors takes " +
                            seconds_text(cost) + ", beyond the time axis");
    }
    if (spec.job_class != -1) {
        const auto classes = static_cast<std::int32_t>(cfg_.classes.base.classes.size());
        // Numbered from 1 in the ABI (rota.h); the engine counts from 0.
        if (!cfg_.classes.enabled)
            throw Error(Errc::invalid, who() + ": job_class " + std::to_string(spec.job_class + 1) +
                                           " given, but there is no [classes] table");
        if (spec.job_class < 0 || spec.job_class >= classes)
            throw Error(Errc::invalid, who() + ": job_class " + std::to_string(spec.job_class + 1) +
                                           " is outside 1.." + std::to_string(classes));
    }
    if (spec.submitted < 0 || spec.submitted > now_)
        throw Error(Errc::invalid, who() + ": submitted at " + std::to_string(spec.submitted) +
                                       " us, after now (" + std::to_string(now_) +
                                       " us) or negative");
    for (auto [what, name] : {std::pair{"account", &spec.account},
                              std::pair{"partition", &spec.partition}, std::pair{"qos", &spec.qos}})
        if (!good_name(*name)) throw Error(Errc::invalid, who() + ": its " + bad_name(what, *name));
    if (index_.find(spec.id) != JobIndex::kNone)
        throw Error(Errc::exists, who() + " was already submitted");

    Slot s;
    if (!free_slots_.empty()) {
        s = free_slots_.back();
        free_slots_.pop_back();
        // The slot's job made again in place: every member of Job has its
        // initializer, so default-initialization is Job{} without the
        // zeroing of a temporary and the member-by-member move from it.
        Job& old = jobs_[s];
        auto runs = std::move(old.alloc.runs);  // keep its capacity: no allocation per job
        std::destroy_at(&old);
        ::new (static_cast<void*>(&old)) Job;
        old.alloc.runs = std::move(runs);
    } else {
        s = static_cast<Slot>(jobs_.size());
        jobs_.emplace_back();
    }
    Job& j = jobs_[s];
    j.spec = spec;
    if (!clustered())
        j.spec.components.clear();  // one component: the job itself
    else if (j.spec.components.empty())
        j.spec.components.push_back(spec.procs);
    j.submit = spec.submitted > 0 ? spec.submitted : now_;
    j.window = spec.estimate * cfg_.rows;
    j.seq = next_seq_++;
    j.cls = static_cast<std::int16_t>(spec.job_class >= 0 ? spec.job_class
                                                          : cfg_.classes.default_class);
    j.wait_from = j.submit;
    j.account = names_.intern(spec.account);
    j.partition = names_.intern(spec.partition);
    j.qos = names_.intern(spec.qos);
    j.state = JobState::pending;
    index_.insert(spec.id, s);
    return s;
}

void Scheduler::stop_running(Slot s, JobState final_state) {
    release(s);
    job(s).state = final_state;
    forget(s);
}

// A running job gives its cells and the rest of its window back.
void Scheduler::release(Slot s) {
    Job& j = job(s);
    Allocation& a = j.alloc;
    for (std::int32_t r = 0; r < cfg_.rows; ++r)
        if (a.row_mask & (1u << r)) machine_.matrix().clear(r, a.runs);
    const Time end = j.estimated_end();
    // The rest of its window is free again: reservations may move up. Every
    // end asks for a compression, walltime kills included, as pyss does
    // (docs/design.md, "Reservations persist and are compressed").
    if (now_ < end) {
        if (keeps_profile()) machine_.give(a.home_row, now_, end, demand(j));
        gained(a.home_row);
    }
    j.clusters.clear();
    // A job killed at its walltime stopped using its processors then.
    usage_.stopped(j.spec.user, a.procs, std::min(now_, end));
    if (!node_state_.empty()) retire_drained(a.runs);
    expiries_.erase(s);
    dirty_ = true;
    rescan_ = true;
    classes_dirty_ = true;
    a.row_mask = 0;
    freed_ += a.procs;
    if (cfg_.classes.enabled) unload(s);
    if (time_sharing() || cfg_.malleable.enabled || cfg_.classes.enabled) {
        running_.erase(std::find(running_.begin(), running_.end(), s));
        auto it = std::find(executing_.begin(), executing_.end(), s);
        if (it != executing_.end()) executing_.erase(it);
        it = std::find(unannounced_.begin(), unannounced_.end(), s);
        if (it != unannounced_.end()) unannounced_.erase(it);
    }
    --running_count_;
}

void Scheduler::forget(Slot s) {
    index_.erase(jobs_[s].spec.id);
    jobs_[s].alloc.runs.clear();
    free_slots_.push_back(s);
}

void Scheduler::reject(Slot s, std::string reason) {
    Action a{ActionType::reject, job(s).spec.id, now_};
    a.reason = static_cast<std::int32_t>(reason_arena_.size());
    reason_arena_.push_back(std::move(reason));
    emit(a);
    job(s).state = JobState::rejected;
    ++counters_.rejected;
    forget(s);
}

void Scheduler::job_end(JobId id) {
    begin_event();
    Slot s = slot_of(id);
    if (job(s).state != JobState::running)
        throw Error(Errc::state, "job " + std::to_string(id) + " is " +
                                     job_state_name(job(s).state) + ", not running");
    ++counters_.finished;
    stop_running(s, JobState::finished);
}

void Scheduler::cancel(JobId id) {
    begin_event();
    Slot s = slot_of(id);
    Job& j = job(s);
    switch (j.state) {
        case JobState::running:
            stop_running(s, JobState::cancelled);
            break;
        case JobState::queued:
            if (j.reserved()) {
                unreserve(s);
                dirty_ = true;
            }
            if (s == class_reserved_) drop_class_reservation();
            if (j.swapped) swapped_procs_ -= j.spec.procs;
            queue_erase(s);
            forget(s);
            break;
        case JobState::suspended:
            if (j.swapped) swapped_procs_ -= j.spec.procs;
            forget(s);
            break;
        case JobState::held:
            held_.erase(std::find(held_.begin(), held_.end(), s));
            forget(s);
            break;
        case JobState::pending:
            pending_.erase(std::find(pending_.begin(), pending_.end(), s));
            forget(s);
            break;
        default:
            throw Error(Errc::internal, "cancel: job in final state still indexed");
    }
    ++counters_.cancelled;
}

void Scheduler::advance(Time t) {
    begin_event();
    if (t > kTimeAxisEnd)
        throw Error(Errc::invalid, "time " + std::to_string(t) + " us is beyond the time axis");
    if (t < now_)
        throw Error(Errc::time, "time went backwards: " + std::to_string(t) + " < now " +
                                    std::to_string(now_) + " (microseconds)");
    // Slice boundaries up to t, each at its own time ([Zhang00] §4).
    while (time_sharing() && slice_end_ <= t) {
        now_ = std::max(now_, slice_end_);
        rotate_slices();
    }
    now_ = t;
    // Jobs are killed at their estimate (walltime), as the papers assume.
    // Only with one row: with more, only the embedder knows a job's
    // dedicated time ([Zhang00] §2.1), so it ends the job.
    // Every change to a running job's end updates its entry and release()
    // removes it; an entry that does not match its job is corrected here
    // rather than trusted.
    while (!expiries_.empty() && expiries_.top().end <= now_) {
        const ExpiryHeap::Entry e = expiries_.top();
        Job& j = job(e.slot);
        if (j.state != JobState::running || j.seq != e.seq) {
            expiries_.pop();
            continue;
        }
        if (j.estimated_end() != e.end) {
            expiries_.set({j.estimated_end(), j.seq, e.slot});
            continue;
        }
        expiries_.pop();
        emit(Action{ActionType::kill, j.spec.id, e.end});
        ++counters_.killed;
        stop_running(e.slot, JobState::killed);
    }
    machine_.advance(now_);
}

std::optional<Time> Scheduler::next_wakeup() const {
    std::optional<Time> best;
    while (!expiries_.empty()) {
        const ExpiryHeap::Entry e = expiries_.top();
        const Job& j = job(e.slot);
        const bool live = j.state == JobState::running && j.seq == e.seq;
        if (live && j.estimated_end() == e.end) {
            best = e.end;
            break;
        }
        if (live)
            expiries_.set({j.estimated_end(), j.seq, e.slot});
        else
            expiries_.pop();
    }
    if (time_sharing() && slice_end_ != kForever && (!best || slice_end_ < *best))
        best = slice_end_;
    if (cfg_.classes.enabled && classes_wakeup_ > now_ && classes_wakeup_ != kForever &&
        (!best || classes_wakeup_ < *best))
        best = classes_wakeup_;
    if (reserved_count_ > 0 && next_reservation_ > now_ && next_reservation_ != kForever &&
        (!best || next_reservation_ < *best))
        best = next_reservation_;
    // A policy that held jobs until a time (a shift change) asks again then.
    if (!held_.empty() && held_until_ > now_ && held_until_ != kForever &&
        (!best || held_until_ < *best))
        best = held_until_;
    // Keys that age re-sort the queue: the head may change (pass.cpp).
    if (!queue_.empty() && next_rekey_ != kForever && aging() &&
        (!best || std::max(next_rekey_, now_) < *best))
        best = std::max(next_rekey_, now_);
    return best;
}

bool Scheduler::next_action(Action& out) {
    if (action_head_ == actions_.size()) return false;
    out = actions_[action_head_++];
    return true;
}

void Scheduler::emit_with_runs(const Action& a, const std::vector<NodeRun>& runs,
                               std::int32_t nodes) {
    // Completed in its place in the buffer: a copy of an action whose
    // fields were just stored one by one stalls on each wide load, and
    // resize emits one per grow and shrink.
    Action& b = (buffer_pass_ ? pass_actions_ : actions_).emplace_back(a);
    b.run_offset = static_cast<std::uint32_t>(run_arena_.size());
    b.run_count = static_cast<std::uint32_t>(runs.size());
    b.nodes = nodes;
    run_arena_.insert(run_arena_.end(), runs.begin(), runs.end());
    if (clustered())
        for (const NodeRun& r : runs) run_cluster_arena_.push_back(machine_.cluster_of(r.first));
}

void Scheduler::emit_job_runs(Action a, const Job& j, const std::vector<NodeRun>& runs) {
    const std::size_t from = run_arena_.size();
    a.run_offset = static_cast<std::uint32_t>(from);
    a.nodes = NodePool::first(runs, j.spec.procs, run_arena_);
    a.run_count = static_cast<std::uint32_t>(run_arena_.size() - from);
    if (clustered())
        for (std::size_t k = from; k < run_arena_.size(); ++k)
            run_cluster_arena_.push_back(machine_.cluster_of(run_arena_[k].first));
    emit(a);
}

const NodeRun* Scheduler::action_runs(const Action& a) const {
    return a.run_count ? run_arena_.data() + a.run_offset : nullptr;
}

const std::int32_t* Scheduler::action_run_clusters(const Action& a) const {
    return a.run_count && clustered() ? run_cluster_arena_.data() + a.run_offset : nullptr;
}

const char* Scheduler::action_reason(const Action& a) const {
    return a.reason >= 0 ? reason_arena_[static_cast<std::size_t>(a.reason)].c_str() : nullptr;
}

void Scheduler::queue_ids(std::vector<JobId>& out) const {
    queue_.for_each_live([&](const JobQueue::Entry& q) { out.push_back(job(q.slot).spec.id); });
}

void Scheduler::held_ids(std::vector<JobId>& out) const {
    for (Slot s : held_) out.push_back(job(s).spec.id);
}

void Scheduler::running_ids(std::vector<JobId>& out) const {
    std::vector<std::pair<std::pair<Time, std::uint64_t>, JobId>> r;
    index_.for_each([&](JobId id, Slot s) {
        if (job(s).state == JobState::running) r.push_back({{job(s).start, job(s).seq}, id});
    });
    std::sort(r.begin(), r.end());
    for (auto& x : r) out.push_back(x.second);
}

void Scheduler::reservations(std::vector<ReservationInfo>& out) const {
    queue_.for_each_live([&](const JobQueue::Entry& q) {
        const Job& j = job(q.slot);
        if (j.reserved())
            out.push_back({j.spec.id, j.reserved_start, j.reserved_start + j.window, j.spec.procs,
                           j.reserved_row});
    });
}

void Scheduler::set_policy(Hook h, std::shared_ptr<Policy> p) {
    if (p && !p->provides(h))
        throw Error(Errc::config, std::string("policy does not provide hook ") + hook_name(h));
    policy_[static_cast<int>(h)] = std::move(p);
    const auto i = static_cast<std::size_t>(h);
    failing_[i] = 0;
    quarantines_[i] = 0;
    quarantine_end_[i] = kNoTime;
    counters_.hooks[i].quarantined = false;
    rescan_ = true;  // a new policy may choose differently among old candidates
    classes_dirty_ = true;
}

}  // namespace rota
