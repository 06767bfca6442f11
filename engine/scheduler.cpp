#include "scheduler.h"

#include <algorithm>
#include <string>

#include "error.h"

namespace rota {

namespace {

std::vector<std::int64_t> capacities(const SchedulerConfig& cfg) {
    std::vector<std::int64_t> c;
    for (const auto& p : cfg.pools) c.push_back(p.capacity);
    return c;
}

SchedulerConfig checked(SchedulerConfig cfg) {
    if (cfg.procs <= 0)
        throw Error(Errc::config,
                    "machine.procs must be positive, got " + std::to_string(cfg.procs));
    if (cfg.gang.enabled) {
        if (cfg.gang.mpl < 1 || cfg.gang.mpl > 32)
            throw Error(Errc::config, "gang.mpl must be between 1 and 32");
        if (cfg.gang.slice <= 0) throw Error(Errc::config, "gang.slice must be positive");
        if (!cfg.pools.empty())
            throw Error(Errc::config, "gang scheduling does not support pooled resources yet");
    }
    if (cfg.reservation_depth < SchedulerConfig::kUnlimited)
        throw Error(Errc::config, "scheduler.reservation_depth must be -1 (unlimited) or >= 0");
    for (const auto& p : cfg.pools)
        if (p.capacity <= 0)
            throw Error(Errc::config, "pool '" + p.name + "' needs a positive capacity");
    return cfg;
}

}  // namespace

Scheduler::Scheduler(SchedulerConfig cfg)
    : cfg_(checked(std::move(cfg))),
      profile_(cfg_.procs, capacities(cfg_)),
      nodes_(cfg_.procs),
      pool_capacity_(capacities(cfg_)),
      limit_(static_cast<std::size_t>(cfg_.procs) + 1, 0),
      limit_stamp_(static_cast<std::size_t>(cfg_.procs) + 1, 0) {
    if (cfg_.gang.enabled) {
        matrix_ = Matrix(cfg_.gang.mpl, cfg_.procs);
        row_profile_.assign(static_cast<std::size_t>(cfg_.gang.mpl), Profile(cfg_.procs, {}));
    }
}

void Scheduler::idle_nodes(std::vector<std::int32_t>& out) const {
    if (!cfg_.gang.enabled) {
        nodes_.idle_nodes(out);
        return;
    }
    for (std::int32_t c = 0; c < matrix_.cols(); ++c)
        if (matrix_.at(active_row_, c) == Matrix::kEmpty) out.push_back(c);
}

// Action arenas live until the embedder has drained them and calls again.
void Scheduler::begin_event() {
    if (action_head_ == actions_.size() && !actions_.empty()) {
        actions_.clear();
        action_head_ = 0;
        run_arena_.clear();
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

Demand Scheduler::demand(const Job& j) const {
    return Demand{j.spec.procs, pool_capacity_.empty() ? nullptr : j.spec.pools.data()};
}

void Scheduler::refresh_limits() const {
    if (limit_version_ != profile_.version() || limit_now_ != now_) {
        ++limit_gen_;
        limit_version_ = profile_.version();
        limit_now_ = now_;
    }
}

Time Scheduler::limit_of(std::int32_t p) const {
    const auto w = static_cast<std::size_t>(p);
    if (limit_stamp_[w] != limit_gen_) {
        limit_[w] = profile_.fit_limit(now_, p);
        limit_stamp_[w] = limit_gen_;
    }
    return limit_[w];
}

bool Scheduler::fits_now(const Job& j) const {
    const std::int32_t p = j.spec.procs;
    if (p > nodes_.idle()) return false;
    if (!pool_capacity_.empty()) return profile_.fits(now_, demand(j), j.spec.estimate);
    refresh_limits();
    return j.spec.estimate <= limit_of(p) - now_;
}

bool Scheduler::possible(const Job& j, std::string& why) const {
    if (j.spec.procs > cfg_.procs) {
        why = "requests " + std::to_string(j.spec.procs) + " processors; the machine has " +
              std::to_string(cfg_.procs);
        return false;
    }
    for (std::size_t k = 0; k < pool_capacity_.size(); ++k) {
        if (j.spec.pools[k] > pool_capacity_[k]) {
            why = "requests " + std::to_string(j.spec.pools[k]) + " of " + cfg_.pools[k].name +
                  "; the machine has " + std::to_string(pool_capacity_[k]);
            return false;
        }
    }
    return true;
}

void Scheduler::submit(const JobSpec& spec) {
    begin_event();
    if (spec.id < 0)
        throw Error(Errc::invalid, "job " + std::to_string(spec.id) + ": ids must be >= 0");
    if (spec.procs <= 0)
        throw Error(Errc::invalid, "job " + std::to_string(spec.id) + ": procs must be positive");
    // Windows (estimate x MPL) must fit in the time axis with room to spare.
    const std::int64_t rows = cfg_.gang.enabled ? cfg_.gang.mpl : 1;
    if (spec.estimate > (kForever / 4 - now_) / rows)
        throw Error(Errc::invalid, "job " + std::to_string(spec.id) + ": estimate " +
                                       std::to_string(spec.estimate) + " us is too large");
    if (spec.estimate <= 0)
        throw Error(Errc::invalid,
                    "job " + std::to_string(spec.id) + ": estimate must be positive");
    if (spec.pools.size() != pool_capacity_.size())
        throw Error(Errc::invalid, "job " + std::to_string(spec.id) + ": gives " +
                                       std::to_string(spec.pools.size()) +
                                       " pool amounts; the machine has " +
                                       std::to_string(pool_capacity_.size()) + " pools");
    for (auto v : spec.pools)
        if (v < 0)
            throw Error(Errc::invalid,
                        "job " + std::to_string(spec.id) + ": pool amounts must be >= 0");
    if (index_.find(spec.id) != JobIndex::kNone)
        throw Error(Errc::exists, "job " + std::to_string(spec.id) + " was already submitted");

    Slot s;
    if (!free_slots_.empty()) {
        s = free_slots_.back();
        free_slots_.pop_back();
        auto runs = std::move(jobs_[s].nodes);  // keep its capacity: no allocation per job
        jobs_[s] = Job{};
        jobs_[s].nodes = std::move(runs);
    } else {
        s = static_cast<Slot>(jobs_.size());
        jobs_.emplace_back();
    }
    Job& j = jobs_[s];
    j.spec = spec;
    j.submit = now_;
    j.window = spec.estimate * (cfg_.gang.enabled ? cfg_.gang.mpl : 1);
    j.seq = next_seq_++;
    j.state = JobState::pending;
    index_.insert(spec.id, s);
    pending_.push_back(s);
    ++counters_.submitted;
}

void Scheduler::stop_running(Slot s, JobState final_state) {
    Job& j = job(s);
    if (cfg_.gang.enabled) {
        gang_stop(s);
        --running_count_;
        j.state = final_state;
        rescan_ = true;
        forget(s);
        return;
    }
    nodes_.release(j.nodes);
    const Time end = j.estimated_end();
    if (now_ < end) {
        // The rest of its estimate is free again: reservations may move up.
        profile_.give(now_, end, demand(j));
        dirty_ = true;
    }
    rescan_ = true;
    --running_count_;
    j.state = final_state;
    forget(s);
}

void Scheduler::forget(Slot s) {
    index_.erase(jobs_[s].spec.id);
    jobs_[s].nodes.clear();
    free_slots_.push_back(s);
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
                if (cfg_.gang.enabled)
                    gang_unreserve(s);
                else
                    unreserve(s);
                dirty_ = true;
            }
            queue_erase(s);
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
    if (t > kForever / 4)
        throw Error(Errc::invalid, "time " + std::to_string(t) + " us is beyond the time axis");
    if (t < now_)
        throw Error(Errc::time, "time went backwards: " + std::to_string(t) + " < now " +
                                    std::to_string(now_) + " (microseconds)");
    // Slice boundaries up to t, each at its own time (seed 000 §4).
    while (cfg_.gang.enabled && slice_end_ <= t) {
        now_ = std::max(now_, slice_end_);
        rotate_slices();
    }
    now_ = t;
    // Jobs are killed at their estimate (walltime), as the papers assume;
    // under gang scheduling at estimate x MPL, the most a job can need.
    while (!expiries_.empty() && expiries_.top().end <= now_) {
        Expiry e = expiries_.top();
        expiries_.pop();
        Job& j = job(e.slot);
        if (j.state != JobState::running || j.seq != e.seq) continue;  // ended earlier
        Action a{ActionType::kill, j.spec.id, e.end};
        emit(a);
        ++counters_.killed;
        stop_running(e.slot, JobState::killed);
        // Nothing comes back early, but compressing after every job end
        // (as pyss does) lets reservations that moved up at the previous
        // end make room for ones ahead of them in the queue.
        dirty_ = true;
    }
    profile_.advance(now_);
}

std::optional<Time> Scheduler::next_wakeup() const {
    std::optional<Time> best;
    while (!expiries_.empty()) {
        const Expiry& e = expiries_.top();
        const Job& j = job(e.slot);
        if (j.state == JobState::running && j.seq == e.seq) {
            best = e.end;
            break;
        }
        expiries_.pop();
    }
    if (cfg_.gang.enabled && slice_end_ != kForever && (!best || slice_end_ < *best))
        best = slice_end_;
    if (reserved_count_ > 0 && next_reservation_ > now_ && next_reservation_ != kForever &&
        (!best || next_reservation_ < *best))
        best = next_reservation_;
    return best;
}

bool Scheduler::next_action(Action& out) {
    if (action_head_ == actions_.size()) return false;
    out = actions_[action_head_++];
    return true;
}

void Scheduler::emit_with_runs(Action a, const Job& j) {
    emit_with_runs(a, j.nodes, j.spec.procs);
}

void Scheduler::emit_with_runs(Action a, const std::vector<NodeRun>& runs, std::int32_t nodes) {
    a.run_offset = static_cast<std::uint32_t>(run_arena_.size());
    a.run_count = static_cast<std::uint32_t>(runs.size());
    a.nodes = nodes;
    run_arena_.insert(run_arena_.end(), runs.begin(), runs.end());
    emit(a);
}

const NodeRun* Scheduler::action_runs(const Action& a) const {
    return a.run_count ? run_arena_.data() + a.run_offset : nullptr;
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
                           std::max<std::int32_t>(0, j.reserved_row)});
    });
}

void Scheduler::set_policy(Hook h, std::shared_ptr<Policy> p) {
    if (p && !p->provides(h))
        throw Error(Errc::config, std::string("policy does not provide hook ") + hook_name(h));
    policy_[static_cast<int>(h)] = std::move(p);
    rescan_ = true;  // a new policy may choose differently among old candidates
}

}  // namespace rota
