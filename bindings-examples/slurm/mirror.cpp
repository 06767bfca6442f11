// mirror.cpp: Slurm's state reported to the engine (mirror.h).
#include "mirror.h"

#include <slurm/slurm.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <set>
#include <vector>

#include "slurm_ops.h"

namespace rota_slurm {

constexpr rota_time kSec = 1000000;

int report(rota_engine* e, int rc, const char* what, int64_t id) {
    if (rc != ROTA_OK)
        std::fprintf(stderr, "rota-slurm: %s(%lld): %s: %s\n", what, (long long)id,
                     rota_status_name(rc), rota_errmsg(e));
    return rc;
}

static bool finished(uint32_t state) {
    return state != JOB_PENDING && state != JOB_RUNNING && state != JOB_SUSPENDED;
}

// Released and pinned to its nodes, not started yet: a previous daemon's
// START that Slurm has still to carry out. It holds those nodes from now.
static bool pinned(const Job& j) {
    return j.state == JOB_PENDING && !j.held && !j.nodes.empty() && j.nodes.size() == j.num_nodes;
}

// A job as rota_job, with what it points to: `include`, `exclude`,
// `depends` and `pools` outlive the rota_submit or rota_adopt that copies
// them, as does `j`.
struct Mirror::Submission {
    rota_job r = {};
    std::vector<rota_node_run> include, exclude;
    std::vector<rota_dependency> depends;
    std::vector<int64_t> pools;
};

static std::vector<rota_node_run> runs_of(const std::vector<int32_t>& nodes) {
    std::vector<rota_node_run> runs;
    for (int32_t n : nodes) {
        if (!runs.empty() && runs.back().first + runs.back().count == n)
            ++runs.back().count;
        else
            runs.push_back({n, 1});
    }
    return runs;
}

void Mirror::job_of(const Job& j, rota_time now, Submission& s) const {
    rota_job& r = s.r;
    r = {};
    r.size = sizeof r;
    r.id = j.id;
    r.procs = (int32_t)j.num_nodes;
    r.estimate = j.limit_s > 0 ? j.limit_s * kSec : default_walltime_;
    r.user = j.user;  // policies' per-user usage and fair share
    r.account = j.account.c_str();
    r.partition = j.partition.c_str();
    r.qos = j.qos.c_str();
    // Under [classes] (rota-slurm --qos-classes) its class is the one its
    // QOS names; 0, the default class, if there is none of that name.
    int32_t cls = 0;
    if (!j.qos.empty() && rota_class_find(e_, j.qos.c_str(), &cls) == ROTA_OK) r.job_class = cls;
    // A job that waited in Slurm before the engine saw it keeps its wait
    // and its place in FCFS order; 0 would mean "now".
    rota_time submitted = (rota_time)j.submit * kSec;
    r.submitted = submitted > 0 && submitted < now ? submitted : 0;
    // --begin: Slurm shows it as the held job's eligible time. Not for a
    // job Slurm requeued (a preemption, a node failure): Slurm put its
    // begin time about two minutes ahead itself, and the user's --begin
    // had passed when the job first ran. The release that starts it again
    // sets the begin time (release()).
    if (j.state == JOB_PENDING && j.restarts == 0 && j.begin > 0 && (rota_time)j.begin * kSec > now)
        r.begin = (rota_time)j.begin * kSec;
    // --nodelist as the user gave it (req_nodes is also where this daemon
    // pins a job it releases), --exclude.
    auto user = user_include_.find(j.id);
    s.include = runs_of(user != user_include_.end() ? user->second : j.nodes);
    s.exclude = runs_of(j.exclude);
    r.ninclude = (int32_t)s.include.size();
    r.include = s.include.empty() ? nullptr : s.include.data();
    r.nexclude = (int32_t)s.exclude.size();
    r.exclude = s.exclude.empty() ? nullptr : s.exclude.data();
    // Dependencies on jobs the engine knows; Slurm keeps any other.
    s.depends.clear();
    for (const Job::Dependency& d : j.depends) {
        auto it = jobs_.find(d.job);
        if (it == jobs_.end() || (it->second != Is::queued && it->second != Is::started)) continue;
        s.depends.push_back(
            {(int64_t)d.job, d.ok ? ROTA_AFTER_OK : ROTA_AFTER_ANY, d.delay_s * kSec});
    }
    r.ndepends = (int32_t)s.depends.size();
    r.depends = s.depends.empty() ? nullptr : s.depends.data();
    // Licences are the engine's last pools (site_config), after the file's.
    s.pools.assign((size_t)npools_, 0);
    const size_t first =
        (size_t)npools_ - std::min((size_t)npools_, view_ ? view_->licenses.size() : 0);
    for (size_t i = 0; i < j.licenses.size() && first + i < s.pools.size(); ++i)
        s.pools[first + i] = j.licenses[i];
    r.npools = npools_;
    r.pools = s.pools.empty() ? nullptr : s.pools.data();
}

void Mirror::submit(const Job& j) {
    // Rejected by an earlier daemon, and told so (rejected()): not again.
    if (j.admin_comment.rfind(kRejected, 0) == 0) {
        jobs_[j.id] = Is::rejected;
        return;
    }
    // The first time it is seen held, its req_nodes are the user's.
    if (!user_include_.count(j.id)) user_include_[j.id] = j.nodes;
    Submission s;
    job_of(j, rota_now(e_), s);
    const rota_job& r = s.r;
    if (report(e_, rota_submit(e_, &r), "rota_submit", j.id) != ROTA_OK) return;
    jobs_[j.id] = Is::queued;
    journal_.line("SUBMIT %lld %u %d %lld", (long long)rota_now(e_), j.id, (int)r.procs,
                  (long long)r.estimate);
}

// A job already running (or released and pinned) when the engine first
// sees it: its nodes are busy until it ends. Under gang scheduling the
// engine puts it in a row and its next pass says whether it is to execute
// (RESUME) or wait (SUSPEND), whichever state Slurm has it in.
void Mirror::adopt(const Job& j) {
    rota_time now = rota_now(e_);
    Submission s;
    job_of(j, now, s);
    rota_job& r = s.r;
    r.submitted = 0;
    // Running already: where it runs is settled, and so is what it waited for.
    r.begin = 0;
    r.ninclude = r.nexclude = r.ndepends = 0;
    rota_time start = pinned(j) ? now : (rota_time)j.start * kSec;
    if (start > now) start = now;
    // A walltime already over would be refused; the job is ending anyway.
    if (start + r.estimate <= now) r.estimate = now - start + kSec;
    const std::vector<rota_node_run> runs = runs_of(j.nodes);
    r.procs = (int32_t)j.nodes.size();
    int rc = rota_adopt(e_, &r, start, runs.data(), (int32_t)runs.size());
    if (report(e_, rc, "rota_adopt", j.id) == ROTA_OK) {
        started(j.id, node_list(*view_, j.nodes), true);
        journal_.line("ADOPT %lld %u %s", (long long)now, j.id, node_list(*view_, j.nodes).c_str());
        if (pinned(j))
            std::fprintf(stderr, "rota-slurm: adopted job %u, released to start on %zu nodes\n",
                         j.id, j.nodes.size());
        else
            std::fprintf(stderr, "rota-slurm: adopted job %u, running since %lld on %zu nodes\n",
                         j.id, (long long)j.start, j.nodes.size());
    } else {
        jobs_[j.id] = Is::foreign;
    }
}

void Mirror::forget(uint32_t id, Is was, bool done, bool succeeded) {
    if (was == Is::queued) report(e_, rota_cancel(e_, id), "rota_cancel", id);
    if (was == Is::started) {
        // A job the engine killed at its walltime is gone from the engine
        // already; Slurm reports its end later.
        rota_job_info info = {};
        info.size = sizeof info;
        if (rota_job_info_get(e_, id, &info) == ROTA_OK && info.state == ROTA_JOB_RUNNING) {
            // afterok dependents start only after a success.
            report(e_, done ? rota_job_exit(e_, id, succeeded ? 0 : 1) : rota_cancel(e_, id),
                   "rota_job_exit", id);
            journal_.line("END %lld %u", (long long)rota_now(e_), id);
        }
    }
    if (done && was == Is::started) ++ended_;
    jobs_.erase(id);
    placed_.erase(id);
    if (done) user_include_.erase(id);
}

void Mirror::sync(const View& v) {
    view_ = &v;
    sync_nodes(v);
    std::set<uint32_t> seen;
    // Suspended jobs are adopted after the executing ones, so that under
    // gang scheduling those share the active row.
    std::vector<const Job*> adopt_later;
    auto take_over = [&](const Job& j) {
        if (j.state == JOB_SUSPENDED)
            adopt_later.push_back(&j);
        else
            adopt(j);
    };
    for (const Job& j : v.jobs) {
        seen.insert(j.id);
        auto it = jobs_.find(j.id);
        if (it == jobs_.end()) {
            if (j.held)
                submit(j);
            else if (j.state == JOB_RUNNING || j.state == JOB_SUSPENDED || pinned(j))
                take_over(j);
            // Other pending jobs were released by someone else: Slurm's own
            // scheduler starts them, and they are adopted once running.
            continue;
        }
        Is is = it->second;
        if (is == Is::queued && !j.held) {
            // Released, cancelled or started behind the engine's back. Or
            // it ended in Slurm just before the engine requeued it (its node
            // went down a moment after): it ran to completion.
            const bool ran_out = finished(j.state) && requeued_at_.count(j.id);
            forget(j.id, is, false);
            if (ran_out) {
                journal_.line("END %lld %u", (long long)rota_now(e_), j.id);
                ++ended_;
            }
            if (j.state == JOB_RUNNING || j.state == JOB_SUSPENDED || pinned(j)) take_over(j);
        } else if (is == Is::started && j.restarts > placed_[j.id].restarts) {
            // Slurm requeued it (a node failed under it, or an operator's
            // `scontrol requeue`): pending again, and not held. The engine
            // sends it back to its queue; the REQUEUE action holds it in
            // Slurm. A node event of this pass may have done so already.
            placed_[j.id].restarts = j.restarts;
            rota_job_info info = {};
            info.size = sizeof info;
            if (rota_job_info_get(e_, j.id, &info) == ROTA_OK && info.state == ROTA_JOB_RUNNING) {
                char why[64];
                std::snprintf(why, sizeof why, "Slurm requeued it (restart %u)", j.restarts);
                report(e_, rota_job_requeue(e_, j.id, why), "rota_job_requeue", j.id);
            }
        } else if (is == Is::started && j.state == JOB_PENDING && !j.held &&
                   placed_[j.id].released && j.begin > startable(j.id) + 1) {
            // Released, but Slurm put a begin time ahead (a requeue it was
            // still finishing when the engine started the job again): the
            // engine's START says now.
            start_at(j.id, startable(j.id));
        } else if ((is == Is::started || is == Is::foreign) && finished(j.state)) {
            forget(j.id, is, true, j.succeeded);
        } else if (is == Is::started && j.held && placed_[j.id].released) {
            // Held again, not by this daemon (an operator, or requeued held
            // after a failed launch): back to the queue, keeping its submit
            // time.
            forget(j.id, is, false);
            submit(j);
        } else if (is == Is::rejected && !j.held) {
            jobs_.erase(j.id);
        }
    }
    for (const Job* j : adopt_later) adopt(*j);
    // Jobs Slurm no longer lists (purged after MinJobAge) are over too.
    std::vector<std::pair<uint32_t, Is>> gone;
    for (auto& [id, is] : jobs_)
        if (!seen.count(id)) gone.emplace_back(id, is);
    for (auto& [id, is] : gone) forget(id, is, true, true);
}

void Mirror::sync_nodes(const View& v) {
    for (int32_t n = 0; n < (int32_t)v.service.size(); ++n) {
        Service want = v.service[n];
        auto it = service_.find(n);
        Service have = it == service_.end() ? Service::up : it->second;
        if (want == have) continue;
        // The job on a node that goes down goes back to the engine's queue
        // (a REQUEUE action), where it keeps its place. Slurm requeues it
        // too (JobRequeue, the default for batch jobs), and the daemon holds
        // it there until the engine starts it again; a job Slurm ended
        // instead (requeue disabled) is cancelled at the next sync.
        if (have != Service::up) report(e_, rota_node_up(e_, n), "rota_node_up", n);
        int rc = ROTA_OK;
        if (want == Service::down) rc = rota_node_down(e_, n, ROTA_NODE_REQUEUE);
        if (want == Service::drain) rc = rota_node_drain(e_, n);
        report(e_, rc, want == Service::down ? "rota_node_down" : "rota_node_drain", n);
        std::fprintf(stderr, "rota-slurm: node %s is %s\n", v.node_names[n].c_str(),
                     want == Service::up     ? "up"
                     : want == Service::down ? "down"
                                             : "draining");
        journal_.line("%s %lld %s",
                      want == Service::up     ? "UP"
                      : want == Service::down ? "DOWN"
                                              : "DRAIN",
                      (long long)rota_now(e_), v.node_names[n].c_str());
        if (want == Service::up)
            service_.erase(n);
        else
            service_[n] = want;
    }
}

void Mirror::started(uint32_t id, const std::string& hosts, bool released) {
    jobs_[id] = Is::started;
    uint32_t restarts = 0;
    if (view_)
        for (const Job& j : view_->jobs)
            if (j.id == id) restarts = j.restarts;
    placed_[id] = Placement{hosts, released, restarts};
}

Mirror::Placement* Mirror::placement(uint32_t id) {
    auto it = placed_.find(id);
    return it == placed_.end() ? nullptr : &it->second;
}

void Mirror::start_failed(uint32_t id) {
    report(e_, rota_cancel(e_, id), "rota_cancel", id);
    jobs_.erase(id);
}

void Mirror::rejected(uint32_t id, const char* reason) {
    jobs_[id] = Is::rejected;
    // Told once, where the user looks (scontrol show job, AdminComment):
    // the job stays held, and a restarted daemon does not offer it again.
    std::string text = std::string(kRejected) + (reason ? reason : "");
    if (text.size() > 250) text.resize(250);
    annotate(id, text);
}

// "14:05:10" for engine time t (microseconds since the epoch), local time
// as squeue shows times.
static std::string clock_text(rota_time t) {
    const std::time_t s = (std::time_t)(t / kSec);
    char buf[32];
    std::strftime(buf, sizeof buf, "%H:%M:%S", std::localtime(&s));
    return buf;
}

static std::string reason_of(const rota_job_info& info, rota_time now) {
    switch (info.state) {
        case ROTA_JOB_WAITING:
            if (info.unmet > 0)
                return "rota: waiting for " + std::to_string(info.unmet) +
                       (info.unmet == 1 ? " dependency" : " dependencies");
            return "rota: not before " + clock_text(std::max(info.eligible, info.begin)) +
                   " (dependency delay)";
        case ROTA_JOB_HELD:
            return "rota: held by the admission policy";
        case ROTA_JOB_QUEUED:
            if (info.begin > now)
                return "rota: not before " + clock_text(info.begin) + " (--begin)";
            if (info.reserved_start >= 0)
                return "rota: reserved to start at " + clock_text(info.reserved_start);
            // Swapped out for a job of a higher class, and waiting to be
            // loaded again (its Slurm job was requeued).
            if (info.preemptions > 0)
                return "rota: preempted " + std::to_string(info.preemptions) +
                       (info.preemptions == 1 ? " time" : " times") + ", queued again";
            return "rota: queued";
        default:
            return "";
    }
}

void Mirror::tell_reasons() {
    const rota_time now = rota_now(e_);
    for (const auto& [id, is] : jobs_) {
        if (is != Is::queued) continue;
        rota_job_info info = {};
        info.size = sizeof info;
        if (rota_job_info_get(e_, id, &info) != ROTA_OK) continue;
        const std::string why = reason_of(info, now);
        std::string& told = told_[id];
        if (why.empty() || why == told) continue;
        if (annotate(id, why)) told = why;
    }
    // Jobs no longer waiting in the engine leave the record.
    for (auto it = told_.begin(); it != told_.end();) {
        auto j = jobs_.find(it->first);
        it = j == jobs_.end() || j->second != Is::queued ? told_.erase(it) : std::next(it);
    }
}

const std::vector<int32_t>* Mirror::user_nodes(uint32_t id) const {
    auto it = user_include_.find(id);
    return it == user_include_.end() ? nullptr : &it->second;
}

void Mirror::requeued(uint32_t id) {
    jobs_[id] = Is::queued;
    placed_.erase(id);
    requeued_at_[id] = std::time(nullptr);
}

std::time_t Mirror::startable(uint32_t id) const {
    const std::time_t now = std::time(nullptr);
    auto it = requeued_at_.find(id);
    return it == requeued_at_.end() ? now : std::max(now, it->second + 2);
}

}  // namespace rota_slurm
