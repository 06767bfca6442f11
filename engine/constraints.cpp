// Constraints a batch system hands its scheduler (docs/design.md,
// "Constraints"): partitions, node lists and exclusions, begin times and
// dependencies. The core checks them at submission, holds a job back while
// its dependencies are not met, resolves its partitions at admission and
// rejects a job they make impossible, with the reason; the disciplines
// honour begin times and node sets when they start and reserve.
#include <algorithm>
#include <bit>
#include <sstream>

#include "discipline.h"
#include "error.h"

namespace rota {

namespace {

// The names of a comma-separated list, as Slurm's --partition gives them.
std::vector<std::string> names_in(const std::string& list) {
    std::vector<std::string> out;
    std::string name;
    std::istringstream in(list);
    while (std::getline(in, name, ','))
        if (!name.empty()) out.push_back(name);
    return out;
}

const char* kind_name(DependencyKind k) {
    return k == DependencyKind::after_ok ? "afterok" : "afterany";
}

}  // namespace

void Scheduler::check_constraints(const JobSpec& spec) const {
    const auto who = [&spec] { return "job " + std::to_string(spec.id); };
    // Its window from its begin time must fit in the time axis too.
    if (spec.begin < 0 || spec.begin > kTimeAxisEnd - spec.estimate * cfg_.rows)
        throw Error(Errc::invalid, who() + ": begin " + std::to_string(spec.begin) +
                                       " us is negative or its window would end past the time "
                                       "axis");
    const bool nodes = !spec.include.empty() || !spec.exclude.empty();
    if (nodes && (!cfg_.clusters.empty() || cfg_.packing == Packing::buddy || cfg_.migration ||
                  cfg_.malleable.enabled))
        throw Error(
            Errc::invalid,
            who() + ": a node list or exclusion cannot be honoured on this machine: " +
                (!cfg_.clusters.empty() ? "[Ngubiri07]'s clusters place components by Worst Fit"
                 : cfg_.migration       ? "migration ([Zhang00] §5.4) moves jobs to any columns"
                 : cfg_.malleable.enabled
                     ? "the iScheduler ([Weissman03] §2.2) grows and shrinks jobs over "
                       "interchangeable processors"
                     : "buddy packing places jobs in blocks"));
    std::int64_t included = 0;
    for (const auto* list : {&spec.include, &spec.exclude})
        for (const NodeRun& r : *list) {
            if (r.count <= 0 || r.first < 0 || r.first > cfg_.procs - r.count)
                throw Error(Errc::invalid, who() + ": node run " + std::to_string(r.first) + "+" +
                                               std::to_string(r.count) +
                                               " is outside the machine's " +
                                               std::to_string(cfg_.procs) + " nodes");
            if (list == &spec.include) included += r.count;
        }
    if (included > spec.procs)
        throw Error(Errc::invalid, who() + ": includes " + std::to_string(included) +
                                       " nodes, more than the " + std::to_string(spec.procs) +
                                       " it asks for");
    if (!spec.include.empty() && !spec.exclude.empty()) {
        const NodeBits in = node_bits(cfg_.procs, spec.include),
                       out = node_bits(cfg_.procs, spec.exclude);
        for (std::size_t w = 0; w < in.size(); ++w)
            if (in[w] & out[w])
                throw Error(Errc::invalid, who() + ": a node is both included and excluded");
    }
    if (spec.after.size() > 1024) throw Error(Errc::invalid, who() + ": at most 1024 dependencies");
    for (const Dependency& d : spec.after) {
        if (d.job == spec.id) throw Error(Errc::invalid, who() + ": depends on itself");
        if (d.job < 0 || d.delay < 0 || d.delay > kTimeAxisEnd / 4)
            throw Error(Errc::invalid, who() + ": dependency on job " + std::to_string(d.job) +
                                           " has a negative id, or a delay outside 0.." +
                                           std::to_string(kTimeAxisEnd / 4) + " us");
    }
}

// Each dependency on a job the engine holds waits for its end; one on a job
// that ended within min_job_age is settled now; one on no known job can
// never be met.
void Scheduler::register_dependencies(Slot s) {
    Job& j = job(s);
    j.unmet = 0;
    j.eligible = now_;
    for (const Dependency& d : j.spec.after) {
        const std::string dep = std::string(kind_name(d.kind)) + ":" + std::to_string(d.job);
        if (index_.find(d.job) != JobIndex::kNone) {
            dependents_[d.job].push_back(j.spec.id);
            ++j.unmet;
            continue;
        }
        const auto it = ended_.find(d.job);
        if (it == ended_.end()) {
            if (j.reason.empty())
                j.reason = "dependency " + dep + " can never be met: no job " +
                           std::to_string(d.job) + " is known (ended, or never submitted)";
        } else if (d.kind == DependencyKind::after_ok && !it->second.ok) {
            if (j.reason.empty())
                j.reason = "dependency " + dep + " can never be met: job " + std::to_string(d.job) +
                           " did not end successfully";
        } else {
            j.eligible = std::max(j.eligible, it->second.at + d.delay);
        }
    }
}

// Job `id` ended (ok: successfully): the jobs that wait for it learn it,
// and its outcome is kept for min_job_age.
void Scheduler::ended(JobId id, bool ok) {
    if (cfg_.min_job_age > 0) {
        while (!ended_order_.empty() && ended_order_.front().first + cfg_.min_job_age < now_) {
            ended_.erase(ended_order_.front().second);
            ended_order_.pop_front();
        }
        ended_[id] = {now_, ok};
        ended_order_.emplace_back(now_, id);
    }
    const auto it = dependents_.find(id);
    if (it == dependents_.end()) return;
    const std::vector<JobId> waiting = std::move(it->second);
    dependents_.erase(it);
    for (JobId w : waiting) {
        const Slot s = index_.find(w);
        if (s == JobIndex::kNone) continue;  // cancelled meanwhile
        Job& j = job(s);
        for (const Dependency& d : j.spec.after) {
            if (d.job != id) continue;
            --j.unmet;
            if (d.kind == DependencyKind::after_ok && !ok) {
                if (j.reason.empty())
                    j.reason = "dependency afterok:" + std::to_string(id) +
                               " can never be met: job " + std::to_string(id) +
                               " did not end successfully";
            } else {
                j.eligible = std::max(j.eligible, now_ + d.delay);
            }
        }
    }
}

// Waiting jobs whose dependencies are met, and due, go to admission; those
// whose dependencies can never be met are rejected. A job held by its
// dependencies enters the queue as if submitted when they were met, with
// the arrival number of that time (as Slurm counts a job's age from its
// eligible time).
void Scheduler::release_waiting() {
    std::size_t kept = 0;
    bool rejected = false;
    for (const Slot s : waiting_) {
        Job& j = job(s);
        if (!j.reason.empty()) {
            std::string why = std::move(j.reason);
            j.reason.clear();
            reject(s, std::move(why));
            rejected = true;
        } else if (j.unmet == 0 && j.eligible <= now_) {
            j.state = JobState::pending;
            j.submit = std::max(j.submit, j.eligible);
            j.wait_from = j.submit;
            j.seq = next_seq_++;
            pending_.push_back(s);
        } else {
            waiting_[kept++] = s;
        }
    }
    waiting_.resize(kept);
    // A rejection settles the jobs that wait for the rejected one: a chain
    // is settled in one pass.
    if (rejected && !waiting_.empty()) release_waiting();
}

Time Scheduler::next_eligible() const {
    Time t = kForever;
    for (const Slot s : waiting_) {
        const Job& j = job(s);
        // A job settled during a pass (a job it waits for was rejected or
        // killed in it) is released or rejected at the next, due now.
        if (!j.reason.empty())
            t = now_;
        else if (j.unmet == 0)
            t = std::min(t, std::max(j.eligible, now_));
    }
    return t;
}

// The partitions a job may run in, by index: those it names, or the
// default ones; none (any node) on a machine without partitions or when no
// partition is a default. The reason it cannot run, if a name is unknown.
std::string Scheduler::partition_reason(Job& j) const {
    j.parts.clear();
    if (cfg_.partitions.empty()) return {};
    const std::vector<std::string> names = names_in(j.spec.partition);
    for (const std::string& name : names) {
        std::int16_t found = -1;
        for (std::size_t p = 0; p < cfg_.partitions.size() && found < 0; ++p)
            if (cfg_.partitions[p].name == name) found = static_cast<std::int16_t>(p);
        if (found < 0) {
            std::string have;
            for (const PartitionConfig& p : cfg_.partitions)
                have += (have.empty() ? "" : ", ") + p.name;
            return "partition '" + name + "' does not exist (the machine has " + have + ")";
        }
        j.parts.push_back(found);
    }
    if (names.empty())
        for (std::size_t p = 0; p < cfg_.partitions.size(); ++p)
            if (cfg_.partitions[p].is_default) j.parts.push_back(static_cast<std::int16_t>(p));
    return {};
}

// Why no node set the job may use can ever hold it: too few nodes in each
// of its partitions once its exclusions are taken away, or a node it must
// include outside all of them.
std::string Scheduler::nodes_reason(const Job& j) const {
    if (!machine_.node_level()) return {};
    const NodeBits in = node_bits(cfg_.procs, j.spec.include);
    const NodeBits none(in.size(), 0);
    const NodeBits& out = j.excluded ? *j.excluded : none;
    auto fits = [&](const NodeBits& set) {
        std::int64_t n = 0;
        for (std::size_t w = 0; w < set.size(); ++w) {
            if (in[w] & ~set[w]) return false;
            n += std::popcount(set[w] & ~out[w]);
        }
        return n >= j.spec.procs;
    };
    if (j.parts.empty()) {
        if (fits(node_bits(cfg_.procs, {NodeRun{0, cfg_.procs}}))) return {};
        return "asks for " + std::to_string(j.spec.procs) +
               " nodes; the machine has fewer once its " + "exclusions are taken away";
    }
    std::string names;
    for (std::int16_t p : j.parts) {
        if (fits(machine_.partition(p))) return {};
        names +=
            (names.empty() ? "'" : ", '") + cfg_.partitions[static_cast<std::size_t>(p)].name + "'";
    }
    return "asks for " + std::to_string(j.spec.procs) + " nodes" +
           (j.spec.include.empty() ? "" : " including its node list") + "; partition " + names +
           " cannot hold them" + (j.spec.exclude.empty() ? "" : " without its exclusions");
}

// From now on the machine keeps which nodes are free over time: the
// reservations, placed on counts, are given up first, and the running jobs'
// nodes and the nodes out of service are entered; the next walk places the
// reservations anew on nodes.
void Scheduler::enter_node_level() {
    discipline_->capacity_lost();
    machine_.enter_node_level(now_);
    for (const Job& j : jobs_)
        if (j.state == JobState::running && keeps_profile_ && j.estimated_end() > now_)
            machine_.node_take(j.alloc.home_row, j.alloc.runs, now_, j.estimated_end());
    for (std::size_t n = 0; n < node_state_.size(); ++n)
        if (node_state_[n] == NodeState::out)
            machine_.node_take_out(static_cast<std::int32_t>(n), now_);
}

}  // namespace rota
