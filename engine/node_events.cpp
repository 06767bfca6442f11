// Nodes that go down, are drained and come back: what a production
// controller tells its scheduler (Slurm's DOWN and DRAIN states). A node
// out of service is a column taken from now on, in every row of the
// matrix; the running jobs on a node that goes down (one per row under
// gang scheduling) are killed or requeued, as the embedder says per event
// or, by default, the configuration (machine.node_down). Taking capacity
// away can break reservations made on it, so every reservation is given
// up and the next walk places them anew, in queue order: the one case,
// with a job outliving its window under gang scheduling, where a
// reservation may move later.
#include <algorithm>

#include "discipline.h"
#include "error.h"

namespace rota {

void Scheduler::check_node_event(std::int32_t node) {
    if (node < 0 || node >= cfg_.procs)
        throw Error(Errc::invalid, "node " + std::to_string(node) + " is outside 0.." +
                                       std::to_string(cfg_.procs - 1));
    if (node_state_.empty())
        node_state_.assign(static_cast<std::size_t>(cfg_.procs), NodeState::up);
}

void Scheduler::jobs_on_node(std::int32_t node, std::vector<Slot>& out) const {
    out.clear();
    for (Slot s = 0; s < jobs_.size(); ++s) {
        const Job& j = jobs_[s];
        if (j.state != JobState::running) continue;
        for (const NodeRun& r : j.alloc.runs)
            if (node >= r.first && node < r.first + r.count) {
                out.push_back(s);
                break;
            }
    }
}

bool Scheduler::node_idle(std::int32_t node) const {
    for (std::int32_t r = 0; r < cfg_.rows; ++r)
        if (!machine_.matrix().column_free(r, node)) return false;
    return true;
}

void Scheduler::take_out(std::int32_t node) {
    machine_.node_out(node, now_);
    node_state_[static_cast<std::size_t>(node)] = NodeState::out;
    discipline_->capacity_lost();
}

void Scheduler::retire_drained(const std::vector<NodeRun>& runs) {
    for (const NodeRun& r : runs)
        for (std::int32_t n = r.first; n < r.first + r.count; ++n)
            if (node_state_[static_cast<std::size_t>(n)] == NodeState::draining && node_idle(n))
                take_out(n);
}

// The job stops and waits again with its arrival order (seq) and order key:
// it keeps its place in the queue.
void Scheduler::requeue(Slot s, const std::string& why) {
    release(s);
    Job& j = job(s);
    j.alloc.runs.clear();
    j.alloc.procs = 0;
    j.start = kNoTime;
    // Under [classes] its state was in memory, not on disk: it starts over.
    j.used = 0;
    j.wait_from = now_;
    // Under gang scheduling its window may have grown past estimate x MPL.
    if (time_sharing()) j.window = j.spec.estimate * cfg_.rows;
    ++counters_.requeued;
    Action act{ActionType::requeue, j.spec.id, now_};
    act.reason = static_cast<std::int32_t>(reason_arena_.size());
    reason_arena_.push_back(why);
    emit(act);
    queue_insert(s);
}

void Scheduler::node_down(std::int32_t node, bool requeue_job) {
    begin_event();
    check_node_event(node);
    auto& st = node_state_[static_cast<std::size_t>(node)];
    if (st == NodeState::out)
        throw Error(Errc::state, "node " + std::to_string(node) + " is already out of service");
    st = NodeState::draining;  // so that the last job's end takes it out
    std::vector<Slot> on;
    jobs_on_node(node, on);
    if (on.empty()) {
        take_out(node);
        return;
    }
    const std::string why = "node " + std::to_string(node) + " went down";
    for (Slot s : on) {
        if (requeue_job) {
            requeue(s, why);
        } else {
            Action act{ActionType::kill, job(s).spec.id, now_};
            act.reason = static_cast<std::int32_t>(reason_arena_.size());
            reason_arena_.push_back(why);
            emit(act);
            ++counters_.killed;
            stop_running(s, JobState::killed);
        }
    }
}

void Scheduler::job_requeue(JobId id, const std::string& why) {
    begin_event();
    const Slot s = slot_of(id);
    if (job(s).state != JobState::running)
        throw Error(Errc::state, "job " + std::to_string(id) + " is not running");
    requeue(s, why.empty() ? std::string("requeued by the embedder") : why);
    // A job ahead of the reserved ones is back: their reservations are
    // placed anew behind it, as after a node event.
    discipline_->capacity_lost();
}

void Scheduler::node_drain(std::int32_t node) {
    begin_event();
    check_node_event(node);
    auto& st = node_state_[static_cast<std::size_t>(node)];
    if (st != NodeState::up)
        throw Error(Errc::state, "node " + std::to_string(node) + " is already " +
                                     (st == NodeState::out ? "out of service" : "draining"));
    st = NodeState::draining;
    if (node_idle(node)) take_out(node);
}

void Scheduler::node_up(std::int32_t node) {
    begin_event();
    check_node_event(node);
    auto& st = node_state_[static_cast<std::size_t>(node)];
    if (st == NodeState::up)
        throw Error(Errc::state, "node " + std::to_string(node) + " is already in service");
    if (st == NodeState::out) {
        machine_.node_in(node, now_);
        discipline_->capacity_gained();
    }
    st = NodeState::up;  // a draining node just stays
}

}  // namespace rota

namespace rota {

// The job holds `runs` from now until start + window, as if the engine had
// started it then: the nodes are taken, the profile holds the rest of its
// window, its walltime expiry is set. No START is emitted: it runs already.
void Scheduler::adopt(const JobSpec& spec, Time start, const std::vector<NodeRun>& runs) {
    begin_event();
    const std::string who = "job " + std::to_string(spec.id);
    check_adoption(spec, start, who);
    check_adopted_runs(spec, runs, who);
    const std::int32_t row = adoption_row(runs, who);
    std::vector<std::int16_t> placed;
    if (clustered()) placed = adopted_clusters(spec, runs, who);
    const Slot s = new_job(JobSpec(spec));
    job(s).clusters = std::move(placed);
    run_adopted(s, spec, start, row, runs);
}

void Scheduler::check_adoption(const JobSpec& spec, Time start, const std::string& who) const {
    // A replayed adopt is told that the job is known, before its own nodes
    // are found busy.
    if (index_.find(spec.id) != JobIndex::kNone)
        throw Error(Errc::exists, who + " was already submitted");
    if (start > now_ || start < 0)
        throw Error(Errc::invalid, who + ": started at " + std::to_string(start) +
                                       " us, after now (" + std::to_string(now_) +
                                       " us) or negative");
    // Checked before the product below, which would overflow; new_job
    // checks the rest of the spec after the nodes.
    // The bound new_job applies (from now, which start does not pass).
    if (spec.estimate <= 0 || spec.estimate > (kTimeAxisEnd - now_) / cfg_.rows)
        throw Error(Errc::invalid, who + ": estimate " + std::to_string(spec.estimate) +
                                       " us must be positive and end within the time axis (at "
                                       "most " +
                                       std::to_string((kTimeAxisEnd - now_) / cfg_.rows) + " us)");
    // Under gang scheduling the job holds its place for estimate x MPL
    // ([Zhang00] §5.2), as if the engine had started it.
    if (start + spec.estimate * cfg_.rows <= now_)
        throw Error(Errc::invalid, who + ": its walltime ended at " +
                                       std::to_string(start + spec.estimate * cfg_.rows) +
                                       " us, not after now");
}

void Scheduler::check_adopted_runs(const JobSpec& spec, const std::vector<NodeRun>& runs,
                                   const std::string& who) const {
    std::int64_t count = 0;
    for (const NodeRun& r : runs) {
        if (r.count <= 0 || r.first < 0 || r.first > cfg_.procs - r.count)
            throw Error(Errc::invalid, who + ": node run " + std::to_string(r.first) + "+" +
                                           std::to_string(r.count) + " is outside the machine");
        count += r.count;
    }
    if (count != spec.procs)
        throw Error(Errc::invalid, who + ": " + std::to_string(count) +
                                       " nodes for procs = " + std::to_string(spec.procs));
    // Disjoint runs too: the matrix would take the second claim of a node
    // half way through placing the job, after the job was made.
    std::vector<NodeRun> sorted(runs);
    std::sort(sorted.begin(), sorted.end(),
              [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i - 1].first + sorted[i - 1].count > sorted[i].first)
            throw Error(Errc::invalid, who + ": node " + std::to_string(sorted[i].first) +
                                           " is in two of its node runs");
}

std::int32_t Scheduler::adoption_row(const std::vector<NodeRun>& runs,
                                     const std::string& who) const {
    const Matrix& m = machine_.matrix();
    // The row: the active one if its cells are free there, else the next
    // that has them. The embedder knows the nodes, not the rows: adopting
    // the jobs that execute now first puts them together in the active row.
    std::int32_t row = -1;
    for (std::int32_t k = 0; k < cfg_.rows && row < 0; ++k)
        if (m.columns_free((active_row_ + k) % cfg_.rows, runs))
            row = (active_row_ + k) % cfg_.rows;
    if (row < 0)
        throw Error(Errc::state, who + ": a node it runs on is busy or out of service" +
                                     (time_sharing() ? " in every row" : std::string()));
    return row;
}

std::vector<std::int16_t> Scheduler::adopted_clusters(const JobSpec& spec,
                                                      const std::vector<NodeRun>& runs,
                                                      const std::string& who) const {
    // On clusters the runs say where each component is: as many clusters as
    // components, each holding one component's width.
    std::vector<std::int16_t> placed;
    std::vector<std::int32_t> per(static_cast<std::size_t>(machine_.clusters()), 0);
    for (const NodeRun& r : runs) {
        const std::int32_t c = machine_.cluster_of(r.first);
        if (machine_.cluster_of(r.first + r.count - 1) != c)
            throw Error(Errc::invalid, who + ": a node run crosses clusters");
        per[static_cast<std::size_t>(c)] += r.count;
    }
    std::vector<std::int32_t> comps =
        spec.components.empty() ? std::vector<std::int32_t>{spec.procs} : spec.components;
    placed.assign(comps.size(), -1);
    for (std::size_t i = 0; i < comps.size(); ++i)
        for (std::size_t c = 0; c < per.size(); ++c)
            if (per[c] == comps[i]) {
                placed[i] = static_cast<std::int16_t>(c);
                per[c] = 0;
                break;
            }
    for (std::size_t i = 0; i < comps.size(); ++i)
        if (placed[i] < 0 || std::any_of(per.begin(), per.end(), [](auto v) { return v; }))
            throw Error(Errc::invalid, who + ": its nodes are not one component per cluster");
    return placed;
}

void Scheduler::run_adopted(Slot s, const JobSpec& spec, Time start, std::int32_t row,
                            const std::vector<NodeRun>& runs) {
    Job& j = job(s);
    if (spec.submitted == 0) j.submit = start;
    // Running on its nodes first: at node level (partitions, constraints)
    // the timeline takes the nodes a running job's demand names.
    j.alloc.runs = runs;
    j.alloc.procs = spec.procs;
    j.state = JobState::running;
    if (keeps_profile_) machine_.take(row, now_, start + j.window, demand(j));
    machine_.matrix().place(row, runs, s);
    j.alloc.home_row = static_cast<std::int16_t>(row);
    j.alloc.row_mask = 1u << row;
    j.start = start;
    usage_.started(spec.user, spec.procs, start, now_);
    j.resized = j.paused_until = start;  // adopted on its ideal: none of it is malleable history
    if (keeps_running_list_) running_.push_back(s);
    ++running_count_;
    ++counters_.adopted;
    if (!time_sharing()) expiries_.set({j.estimated_end(), j.seq, s});
    discipline_->adopted(s, row);
    discipline_->capacity_lost();  // its nodes may have been promised
}

}  // namespace rota
