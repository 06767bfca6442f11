// Events, actions and queries.
#include "scheduler.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "class_passes.h"
#include "discipline.h"
#include "error.h"

namespace rota {

namespace {

// Built only for an error: every submission passes through new_job.
std::string who(const JobSpec& spec) {
    return "job " + std::to_string(spec.id);
}

}  // namespace

Scheduler::Scheduler(SchedulerConfig cfg)
    : cfg_(checked(std::move(cfg))),
      machine_(cfg_),
      usage_(cfg_.usage_half_life),
      next_rekey_(cfg_.rekey_interval > 0 ? cfg_.rekey_interval : kForever) {
    // Batches carry every job's demand as shares of the capacities (R_ij).
    batch_.inv_capacity.push_back(1.0 / static_cast<double>(cfg_.procs));
    for (const PoolConfig& p : cfg_.pools)
        batch_.inv_capacity.push_back(1.0 / static_cast<double>(p.capacity));
    batch_.with_components = clustered();
    batch_.names = &names_;
    held_batch_.inv_capacity = batch_.inv_capacity;
    held_batch_.with_components = batch_.with_components;
    held_batch_.names = &names_;
    discipline_ = make_discipline(*this);
    keeps_profile_ = discipline_->keeps_profile();
    keeps_running_list_ = discipline_->keeps_running_list();
}

Scheduler::~Scheduler() = default;

const ClassPasses* Scheduler::classes() const {
    return dynamic_cast<const ClassPasses*>(discipline_.get());
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

void Scheduler::submit(JobSpec spec) {
    begin_event();
    const Slot s = new_job(std::move(spec));
    ++counters_.submitted;
    const JobSpec& kept = job(s).spec;
    if ((!kept.include.empty() || !kept.exclude.empty()) && !machine_.node_level())
        enter_node_level();
    if (kept.after.empty()) {
        pending_.push_back(s);
        return;
    }
    // Admitted when its dependencies are met (constraints.cpp).
    register_dependencies(s);
    job(s).state = JobState::waiting;
    waiting_.push_back(s);
}

// Checks a job as submitted and gives it a slot, indexed, pending.
Scheduler::Slot Scheduler::new_job(JobSpec&& spec) {
    check_submission(spec);
    const Time window = spec.estimate * cfg_.rows;
    check_axis_room(spec, window);
    const Slot s = take_slot(std::move(spec));
    enter_job(s, window);
    return s;
}

void Scheduler::check_submission(const JobSpec& spec) const {
    check_sizes(spec);
    if (!spec.components.empty()) check_components(spec);
    if (spec.min_procs < 0 || spec.min_procs > spec.procs)
        throw Error(Errc::invalid, who(spec) + ": min_procs " + std::to_string(spec.min_procs) +
                                       " must be between 1 and procs = " +
                                       std::to_string(spec.procs) + " (0: rigid)");
    if (spec.adapt_bytes < 0) throw Error(Errc::invalid, who(spec) + ": adapt_bytes must be >= 0");
    discipline_->check_spec(spec);
    if (spec.job_class != -1) check_job_class(spec);
    if (spec.submitted < 0 || spec.submitted > now_)
        throw Error(Errc::invalid, who(spec) + ": submitted at " + std::to_string(spec.submitted) +
                                       " us, after now (" + std::to_string(now_) +
                                       " us) or negative");
#define ROTA_X(field, type, value, doc) \
    if (!good_name(spec.field))         \
        throw Error(Errc::invalid, who(spec) + ": its " + bad_name(#field, spec.field));
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    check_constraints(spec);
    if (index_.find(spec.id) != JobIndex::kNone)
        throw Error(Errc::exists, who(spec) + " was already submitted");
}

void Scheduler::check_sizes(const JobSpec& spec) const {
    if (spec.id < 0) throw Error(Errc::invalid, who(spec) + ": ids must be >= 0");
    if (spec.procs <= 0) throw Error(Errc::invalid, who(spec) + ": procs must be positive");
    if (spec.estimate <= 0) throw Error(Errc::invalid, who(spec) + ": estimate must be positive");
    // Windows (estimate x rows) must fit in the time axis with room to spare.
    if (const Time most = (kTimeAxisEnd - now_) / cfg_.rows; spec.estimate > most)
        throw Error(Errc::invalid, who(spec) + ": estimate " + std::to_string(spec.estimate) +
                                       " us would end past the time axis (now " +
                                       std::to_string(now_) + " us: at most " +
                                       std::to_string(most) + " us" +
                                       (cfg_.rows > 1 ? " with the rows' windows" : "") + ")");
    if (spec.pools.size() != cfg_.pools.size())
        throw Error(Errc::invalid, who(spec) + ": gives " + std::to_string(spec.pools.size()) +
                                       " pool amounts; the machine has " +
                                       std::to_string(cfg_.pools.size()) + " pools");
    for (auto v : spec.pools)
        if (v < 0) throw Error(Errc::invalid, who(spec) + ": pool amounts must be >= 0");
}

void Scheduler::check_components(const JobSpec& spec) const {
    std::int64_t sum = 0;
    for (auto w : spec.components) {
        if (w <= 0) throw Error(Errc::invalid, who(spec) + ": component widths must be positive");
        sum += w;
    }
    if (sum != spec.procs)
        throw Error(Errc::invalid, who(spec) + ": its components add up to " + std::to_string(sum) +
                                       " nodes, not procs = " + std::to_string(spec.procs));
    if (!clustered() && spec.components.size() > 1)
        throw Error(Errc::invalid, who(spec) + ": has " + std::to_string(spec.components.size()) +
                                       " components; the machine has no clusters");
}

void Scheduler::check_job_class(const JobSpec& spec) const {
    const auto classes = static_cast<std::int32_t>(cfg_.classes.base.classes.size());
    // Numbered from 1 in the ABI (rota.h); the engine counts from 0.
    if (!cfg_.classes.enabled)
        throw Error(Errc::invalid, who(spec) + ": job_class " + std::to_string(spec.job_class + 1) +
                                       " given, but there is no [classes] table");
    if (spec.job_class < 0 || spec.job_class >= classes)
        throw Error(Errc::invalid, who(spec) + ": job_class " + std::to_string(spec.job_class + 1) +
                                       " is outside 1.." + std::to_string(classes));
}

void Scheduler::check_axis_room(const JobSpec& spec, Time window) const {
    // While the machine is busy a job starts by now plus the windows of
    // the jobs before it, which every job the engine holds may be: its
    // window must end on the axis after all of theirs, so that no
    // walltime, reservation or wakeup ever passes the axis's end.
    if (const Time room = kTimeAxisEnd - now_ - held_windows_; window > room)
        throw Error(Errc::invalid,
                    who(spec) + ": estimate " + std::to_string(spec.estimate) + " us" +
                        (cfg_.rows > 1 ? " (x " + std::to_string(cfg_.rows) + " rows)" : "") +
                        " could end past the time axis after the " + std::to_string(index_.size()) +
                        (index_.size() == 1 ? " job" : " jobs") + " the engine holds (now " +
                        std::to_string(now_) + " us plus their windows, " +
                        std::to_string(held_windows_) + " us, leave " +
                        std::to_string(std::max<Time>(room, 0)) + " us of the axis)");
}

Scheduler::Slot Scheduler::take_slot(JobSpec&& spec) {
    Slot s;
    if (!free_slots_.empty()) {
        s = free_slots_.back();
        free_slots_.pop_back();
        // The slot's job made again in place, from the spec: every other
        // member has its initializer.
        Job& old = jobs_[s];
        auto runs = std::move(old.alloc.runs);  // keep its capacity: no allocation per job
        std::destroy_at(&old);
        ::new (static_cast<void*>(&old)) Job(std::move(spec));
        old.alloc.runs = std::move(runs);
    } else {
        s = static_cast<Slot>(jobs_.size());
        jobs_.emplace_back(std::move(spec));
    }
    return s;
}

void Scheduler::enter_job(Slot s, Time window) {
    Job& j = jobs_[s];  // below, read j.spec only
    if (!clustered())
        j.spec.components.clear();  // one component: the job itself
    else if (j.spec.components.empty())
        j.spec.components.push_back(j.spec.procs);
    j.submit = j.spec.submitted > 0 ? j.spec.submitted : now_;
    j.window = window;
    held_windows_ += window;
    longest_window_ = std::max(longest_window_, window);
    j.seq = next_seq_++;
    j.cls = static_cast<std::int16_t>(j.spec.job_class >= 0 ? j.spec.job_class
                                                            : cfg_.classes.default_class);
    j.wait_from = j.submit;
#define ROTA_X(field, type, value, doc) j.field = names_.intern(j.spec.field);
    ROTA_JOB_COLUMNS_NAMES(ROTA_X)
#undef ROTA_X
    if (!j.spec.exclude.empty())
        j.excluded = std::make_shared<const NodeBits>(node_bits(cfg_.procs, j.spec.exclude));
    j.state = JobState::pending;
    index_.insert(j.spec.id, s);
}

void Scheduler::stop_running(Slot s, JobState final_state, bool ok) {
    release(s);
    job(s).state = final_state;
    ended(job(s).spec.id, ok);
    forget(s);
}

// A running job gives its cells and the rest of its window back.
void Scheduler::release(Slot s) {
    Job& j = job(s);
    Allocation& a = j.alloc;
    for (std::int32_t r = 0; r < cfg_.rows; ++r)
        if (a.row_mask & (1u << r)) machine_.matrix().clear(r, a.runs);
    const Time end = j.estimated_end();
    // The rest of its window is free again.
    if (now_ < end && keeps_profile_) machine_.give(a.home_row, now_, end, demand(j));
    j.clusters.clear();
    // A job killed at its walltime stopped using its processors then.
    usage_.stopped(j.spec.user, a.procs, std::min(now_, end));
    expiries_.erase(s);
    discipline_->released(s, now_ < end);
    a.row_mask = 0;
    if (keeps_running_list_) running_.erase(std::find(running_.begin(), running_.end(), s));
    --running_count_;
    if (!node_state_.empty()) retire_drained(a.runs);
}

void Scheduler::now_running(Slot s) {
    Job& j = job(s);
    j.start = now_;
    j.state = JobState::running;
    usage_.started(j.spec.user, j.alloc.procs, now_, now_);
    ++running_count_;
    if (keeps_running_list_) running_.push_back(s);
}

void Scheduler::forget(Slot s) {
    held_windows_ -= jobs_[s].spec.estimate * cfg_.rows;
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
    ended(job(s).spec.id, false);
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
    JobQueue::Entry e{s, j.spec.procs, j.window};
    const JobQueue::Entry* last = queue_.last_live();
    if (!last || !before(e, *last)) {
        queue_.push_back(e);  // the common case under FCFS
        discipline_->queued(s, queue_.span() - 1, true);
        return;
    }
    // Without compacting when the discipline keeps positions: they follow
    // the entries that moved.
    if (discipline_->tracks_queue_positions())
        discipline_->queued(s, queue_.insert_from_back(e, before), false);
    else
        discipline_->queued(s, queue_.insert_sorted(e, before), false);
}

void Scheduler::queue_erase(Slot s) {
    discipline_->dequeued(s);
    queue_.kill_slot(s);
}

void Scheduler::job_end(JobId id, bool ok) {
    begin_event();
    Slot s = slot_of(id);
    if (job(s).state != JobState::running)
        throw Error(Errc::state, "job " + std::to_string(id) + " is " +
                                     job_state_name(job(s).state) + ", not running");
    ++counters_.finished;
    stop_running(s, JobState::finished, ok);
}

void Scheduler::cancel(JobId id) {
    begin_event();
    Slot s = slot_of(id);
    Job& j = job(s);
    const bool running = j.state == JobState::running;  // stop_running tells its dependents
    switch (j.state) {
        case JobState::running:
            stop_running(s, JobState::cancelled);
            break;
        case JobState::queued:
            discipline_->cancelled(s);
            queue_erase(s);
            forget(s);
            break;
        case JobState::suspended:
            discipline_->cancelled(s);
            forget(s);
            break;
        case JobState::held:
            held_.erase(std::find(held_.begin(), held_.end(), s));
            held_batch_ok_ = false;
            forget(s);
            break;
        case JobState::pending:
            pending_.erase(std::find(pending_.begin(), pending_.end(), s));
            forget(s);
            break;
        case JobState::waiting:
            waiting_.erase(std::find(waiting_.begin(), waiting_.end(), s));
            forget(s);
            break;
        default:
            throw Error(Errc::internal, "cancel: job in final state still indexed");
    }
    ++counters_.cancelled;
    if (!running) ended(id, false);
}

double Scheduler::progress(const Job& j) const {
    return discipline_->progress(j);
}

void Scheduler::report_progress(JobId id, double done) {
    begin_event();
    const Slot s = slot_of(id);
    const Job& j = job(s);
    if (j.state != JobState::running)
        throw Error(Errc::state, "job " + std::to_string(id) + " is " + job_state_name(j.state) +
                                     ", not running");
    if (!(done >= 0.0 && done <= 1.0))
        throw Error(Errc::invalid, "progress must be a fraction in [0, 1]");
    discipline_->progress_reported(s, done);
}

// [Feitelson97] §4.5's user controls belong to the class passes.
namespace {

ClassPasses& classes_for(Discipline* d, const char* why) {
    auto* c = dynamic_cast<ClassPasses*>(d);
    if (!c) throw Error(Errc::state, why);
    return *c;
}

}  // namespace

void Scheduler::suspend(JobId id) {
    begin_event();
    ClassPasses& c = classes_for(discipline_.get(),
                                 "suspending a job needs [classes] ([Feitelson97]'s swapping)");
    c.suspend(slot_of(id));
}

void Scheduler::resume(JobId id) {
    begin_event();
    ClassPasses& c =
        classes_for(discipline_.get(), "resuming a job needs [classes] ([Feitelson97]'s swapping)");
    c.resume(slot_of(id));
}

void Scheduler::set_class(JobId id, std::int32_t cls) {
    begin_event();
    ClassPasses& c =
        classes_for(discipline_.get(), "job classes need [classes] ([Feitelson97] §4.2)");
    c.set_class(slot_of(id), cls);
}

void Scheduler::advance(Time t) {
    begin_event();
    if (t > kTimeAxisEnd)
        throw Error(Errc::invalid, "time " + std::to_string(t) + " us is beyond the time axis");
    if (t < now_)
        throw Error(Errc::time, "time went backwards: " + std::to_string(t) + " < now " +
                                    std::to_string(now_) + " (microseconds)");
    // Boundaries up to t (slices, [Zhang00] §4): the discipline passes them
    // all from the first and tells the net change (slices.cpp).
    for (Time b; (b = discipline_->next_boundary()) <= t;) {
        now_ = std::max(now_, b);
        discipline_->boundary(t);
    }
    now_ = t;
    // Jobs are killed at their estimate (walltime), as the papers assume.
    // Only with one row: with more, only the embedder knows a job's
    // dedicated time ([Zhang00] §2.1), so it ends the job.
    // Every change to a running job's end updates its entry and release()
    // removes it; an entry that does not match its job is corrected here
    // rather than trusted.
    // At the axis's end every walltime left is over: time goes no further
    // (only a malleable job stretched past it has one, reject_past_axis).
    while (!expiries_.empty() && (expiries_.top().end <= now_ || now_ == kTimeAxisEnd)) {
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
        emit(Action{ActionType::kill, j.spec.id, std::min(e.end, now_)});
        ++counters_.killed;
        stop_running(e.slot, JobState::killed);
    }
    machine_.advance(now_);
}

// Never past the time axis, which advance() refuses: what would come later
// never comes (a slice, a reservation or a re-key beyond it), and a
// walltime is over at the axis's end at the latest.
std::optional<Time> Scheduler::next_wakeup() const {
    std::optional<Time> best;
    while (!expiries_.empty()) {
        const ExpiryHeap::Entry e = expiries_.top();
        const Job& j = job(e.slot);
        const bool live = j.state == JobState::running && j.seq == e.seq;
        if (live && j.estimated_end() == e.end) {
            best = std::min(e.end, kTimeAxisEnd);
            break;
        }
        if (live)
            expiries_.set({j.estimated_end(), j.seq, e.slot});
        else
            expiries_.pop();
    }
    if (const auto d = discipline_->next_wakeup();
        d && *d > now_ && *d <= kTimeAxisEnd && (!best || *d < *best))
        best = *d;
    // A job held by its dependencies may be due later (a think time).
    if (!waiting_.empty())
        if (const Time t = next_eligible(); t <= kTimeAxisEnd && (!best || t < *best)) best = t;
    // A policy that held jobs until a time (a shift change) asks again then.
    if (!held_.empty() && held_until_ > now_ && held_until_ <= kTimeAxisEnd &&
        (!best || held_until_ < *best))
        best = held_until_;
    // Keys that age re-sort the queue: the head may change (pass.cpp).
    if (!queue_.empty() && next_rekey_ <= kTimeAxisEnd && aging() &&
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
    b.nodes = nodes;
    run_arena_.insert(run_arena_.end(), runs.begin(), runs.end());
    // An action names its nodes lowest first (rota.h); a processor set of
    // the class passes is taken in victim order, which its job keeps.
    const auto by_first = [](const NodeRun& x, const NodeRun& y) { return x.first < y.first; };
    const auto from = run_arena_.begin() + static_cast<std::ptrdiff_t>(b.run_offset);
    if (!std::is_sorted(from, run_arena_.end(), by_first)) {
        std::sort(from, run_arena_.end(), by_first);
        auto out = from;
        for (auto it = std::next(from); it != run_arena_.end(); ++it)
            if (out->first + out->count == it->first)
                out->count += it->count;
            else
                *++out = *it;
        run_arena_.erase(std::next(out), run_arena_.end());
    }
    b.run_count = static_cast<std::uint32_t>(run_arena_.size() - b.run_offset);
    if (clustered())
        for (std::size_t k = b.run_offset; k < run_arena_.size(); ++k)
            run_cluster_arena_.push_back(machine_.cluster_of(run_arena_[k].first));
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
    discipline_->policy_changed();  // it may choose differently among old candidates
}

}  // namespace rota
