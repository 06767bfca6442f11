// [Leinberger99]'s K-resource machine (§1-3): processors plus K - 1 pools
// ([[machine.pools]]), driven through the C ABI only by a simulation loop
// written here (arrivals, rota_job_end at start + runtime, the engine's
// walltime KILLs, rota_next_wakeup). On random workloads where the pools
// are often the binding resource, for K = 2, 4 and 8, every pass is
// checked against a model of the machine kept from the actions alone:
//   (a) no resource, processors or any pool, is ever over-committed: at
//       each START the job's nodes are idle and its demand fits what the
//       running jobs leave; the plan the engine holds (running jobs until
//       start + estimate, reservations for their window) never exceeds a
//       capacity at any future instant, and rota_pool_profile() is exactly
//       that plan;
//   (b) no started job delays a reservation: design.md ("Reservations
//       persist and are compressed") says a reservation, once given, is
//       kept across passes and only ever moves earlier, under EASY and
//       conservative alike; so a reservation's start never moves later, a
//       reserved job keeps its reservation until it starts and starts no
//       later than it. EASY holds one, the head's (the first waiting job);
//       conservative one for every waiting job with first fit, in queue
//       order (BL and BB may pass over a candidate that could start now,
//       which then holds none until the picks crowd it out: design.md,
//       "The walk"); FCFS lets nothing pass a blocked
//       job (starts in arrival order);
//   (c) every submitted job ends exactly once, finished (rota_job_end),
//       killed at its walltime or rejected; exactly the jobs whose demand
//       exceeds a capacity are rejected, with a reason naming a resource
//       they exceed (pass.cpp: "requests 1200 of memory; the machine has
//       1000").
// Last, pools that never bind change nothing: the same workload gives the
// same actions with no pool and with pools too large to matter.
#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

namespace {

constexpr rota_time kS = 1'000'000;
constexpr rota_time kNever = std::numeric_limits<rota_time>::max();

// Pool names that are neither substrings of each other nor of the
// rejection text, so a reason can be checked for the resource it names.
const char* const kPoolNames[] = {"memory", "scratch",   "licences", "burst_buffer",
                                  "gpus",   "bandwidth", "tape"};

struct Pool {
    std::string name;
    int64_t capacity;
};

struct Machine {
    int32_t procs;
    std::vector<Pool> pools;
};

struct Spec {
    int64_t id;
    rota_time submit, runtime, estimate;
    int32_t procs;
    std::vector<int64_t> pools;  // one per pool of the machine
};

// Whether the job exceeds a capacity: it can never run here.
bool never_fits(const Machine& m, const Spec& s) {
    if (s.procs > m.procs) return true;
    for (std::size_t k = 0; k < m.pools.size(); ++k)
        if (s.pools[k] > m.pools[k].capacity) return true;
    return false;
}

std::string config(const std::string& preset, const Machine& m) {
    std::ostringstream o;
    o << "[machine]\nprocs = " << m.procs << "\n";
    for (const auto& p : m.pools)
        o << "[[machine.pools]]\nname = \"" << p.name << "\"\ncapacity = " << p.capacity << "\n";
    o << "[scheduler]\npreset = \"" << preset << "\"\n";
    return o.str();
}

// std::mt19937_64's output is fixed by the standard; the distributions are
// not, so draws are made from it directly to keep the workloads the same
// everywhere.
struct Rng {
    std::mt19937_64 g;
    explicit Rng(uint64_t seed) : g(seed) {}
    int64_t in(int64_t lo, int64_t hi) {  // uniform in [lo, hi]
        return lo + static_cast<int64_t>(g() % static_cast<uint64_t>(hi - lo + 1));
    }
    bool chance(int percent) { return in(0, 99) < percent; }
};

// K resources: `procs` processors and K - 1 pools of different capacities.
Machine k_machine(int k) {
    Machine m{64, {}};
    for (int i = 1; i < k; ++i) m.pools.push_back({kPoolNames[i - 1], 1000 * i + 24 * i * i});
    return m;
}

// A few hundred jobs on a 5-second grid (so that arrivals, ends and kills
// often fall at the same instant), in bursts that offer more than the
// machine can run, so that queues build up, between gaps that let them
// drain. Processor demands are mostly small;
// each job uses a pool with a fair chance and then asks for up to 60% of
// it, so a pool is usually what stops a job. Estimates are at least the
// runtime and a quarter equal it (the engine kills those at their
// walltime). A few jobs ask for exactly a capacity (they run), a few for
// more (they are rejected).
std::vector<Spec> workload(const Machine& m, uint64_t seed, int n) {
    Rng r(seed);
    const int64_t npools = static_cast<int64_t>(m.pools.size());
    const int use = npools == 0 ? 0 : static_cast<int>(std::min<int64_t>(70, 200 / npools));
    std::vector<Spec> jobs;
    rota_time t = 0;
    for (int i = 0; i < n; ++i) {
        Spec s;
        s.id = i;
        t += (r.chance(10) ? r.in(20, 200) : r.in(0, 6)) * 5 * kS;
        s.submit = t;
        s.runtime = r.in(1, 120) * 5 * kS;
        s.estimate = r.chance(25) ? s.runtime : s.runtime + r.in(1, 3 * s.runtime / kS) * kS;
        if (r.chance(2))
            s.procs = m.procs;
        else if (r.chance(1))
            s.procs = m.procs + static_cast<int32_t>(r.in(1, 8));
        else if (r.chance(60))
            s.procs = static_cast<int32_t>(r.in(1, 4));
        else
            s.procs = static_cast<int32_t>(r.in(1, 24));
        for (const auto& p : m.pools) {
            int64_t d = 0;
            if (r.chance(2))
                d = p.capacity;
            else if (r.chance(1))
                d = p.capacity + r.in(1, p.capacity / 2);
            else if (r.chance(use))
                d = r.in(1, p.capacity * 6 / 10);
            s.pools.push_back(d);
        }
        jobs.push_back(std::move(s));
    }
    return jobs;
}

enum class End { none, finished, killed, rejected };

struct Outcome {
    End how = End::none;
    int ends = 0;  // times an end was seen: must be 1
    rota_time start = -1;
    std::string reason;
};

// The loop of docs/c-api.md ("The event loop") with checks after every
// call.
class Run {
  public:
    Run(const std::string& preset, const Machine& m, const std::vector<Spec>& jobs,
        bool submit_pools = true)
        : m_(m),
          jobs_(jobs),
          submit_pools_(submit_pools),
          first_fit_(preset == "easy" || preset == "conservative"),
          out_(jobs.size()) {
        e_ = rota::test::engine_from(config(preset, m));
        rota_machine_info mi{};
        mi.size = sizeof(mi);
        REQUIRE(rota_machine_info_get(e_.get(), &mi) == ROTA_OK);
        REQUIRE(mi.npools == static_cast<int32_t>(m.pools.size()));
        depth_ = mi.reservation_depth;
        backfill_ = mi.backfill != 0;
        owner_.assign(static_cast<std::size_t>(m.procs), -1);
        pool_used_.assign(m.pools.size(), 0);
    }

    // Runs the workload to the end. Returns the log of actions, one line
    // each, for comparisons between runs.
    const std::vector<std::string>& go() {
        std::size_t next = 0;
        std::multimap<rota_time, int64_t> ends;  // rota_job_end times
        for (int step = 0;; ++step) {
            if (step > 200000) FAIL("the loop does not end (now " << now() << ")");
            rota_time t = kNever;
            if (next < jobs_.size()) t = jobs_[next].submit;
            if (!ends.empty()) t = std::min(t, ends.begin()->first);
            rota_time w = 0;
            int rc = rota_next_wakeup(e_.get(), &w);
            REQUIRE((rc == ROTA_OK || rc == ROTA_DONE));
            if (rc == ROTA_OK) {
                // After a pass at `now` nothing is left to do at `now`:
                // a wakeup there would spin the loop.
                if (w <= now()) FAIL("wakeup at " << w << " not after now " << now());
                t = std::min(t, w);
            }
            if (t == kNever) break;
            REQUIRE(rota_advance(e_.get(), t) == ROTA_OK);
            drain(/*in_pass=*/false, ends);
            while (!ends.empty() && ends.begin()->first == t) {
                const int64_t id = ends.begin()->second;
                ends.erase(ends.begin());
                INFO("job " << id << " ends at " << t);
                REQUIRE(rota_job_end(e_.get(), id) == ROTA_OK);
                release(id);
                finish(id, End::finished, "");
                log_.push_back("end " + std::to_string(id) + " " + std::to_string(t));
            }
            for (; next < jobs_.size() && jobs_[next].submit == t; ++next) submit(jobs_[next]);
            REQUIRE(rota_schedule(e_.get()) == ROTA_OK);
            drain(/*in_pass=*/true, ends);
            after_pass();
        }
        account();
        return log_;
    }

    const std::vector<Outcome>& outcomes() const { return out_; }
    std::size_t passes() const { return passes_; }
    std::size_t max_reservations() const { return max_reservations_; }
    // Passes after which the first waiting job could not start for lack of
    // a pool, of processors.
    std::size_t pool_blocked() const { return pool_blocked_; }
    std::size_t procs_blocked() const { return procs_blocked_; }

  private:
    rota_time now() const { return rota_now(e_.get()); }

    void submit(const Spec& s) {
        rota_job j{};
        j.size = sizeof(j);
        j.id = s.id;
        j.estimate = s.estimate;
        j.procs = s.procs;
        j.user = -1;
        if (submit_pools_) {
            j.npools = static_cast<int32_t>(s.pools.size());
            j.pools = s.pools.empty() ? nullptr : s.pools.data();
        }
        INFO("submit job " << s.id << ": " << rota_errmsg(e_.get()));
        REQUIRE(rota_submit(e_.get(), &j) == ROTA_OK);
        submitted_.insert(s.id);
    }

    void finish(int64_t id, End how, const std::string& reason) {
        auto& o = out_[static_cast<std::size_t>(id)];
        ++o.ends;
        o.how = how;
        o.reason = reason;
        running_.erase(id);
    }

    // Pool demand as the engine sees it (none when submitted without).
    int64_t demand(int64_t id, std::size_t k) const {
        return submit_pools_ ? jobs_[static_cast<std::size_t>(id)].pools[k] : 0;
    }

    void release(int64_t id) {
        const Spec& s = jobs_[static_cast<std::size_t>(id)];
        if (running_.count(id) == 0) FAIL("job " << id << " ended but is not running");
        for (auto& o : owner_)
            if (o == id) o = -1;
        procs_used_ -= s.procs;
        for (std::size_t k = 0; k < m_.pools.size(); ++k) pool_used_[k] -= demand(id, k);
    }

    void drain(bool in_pass, std::multimap<rota_time, int64_t>& ends) {
        rota_action a{};
        a.size = sizeof(a);
        const rota_time t = now();
        while (rota_next_action(e_.get(), &a) == ROTA_OK) {
            const int64_t id = a.job;
            if (id < 0 || id >= static_cast<int64_t>(jobs_.size()) || submitted_.count(id) == 0)
                FAIL("action " << a.type << " for unknown job " << id);
            const Spec& s = jobs_[static_cast<std::size_t>(id)];
            auto& o = out_[static_cast<std::size_t>(id)];
            switch (a.type) {
                case ROTA_ACTION_KILL: {
                    if (in_pass) FAIL("KILL of job " << id << " from a pass");
                    if (o.start < 0) FAIL("KILL of job " << id << ", which never started");
                    // Only jobs whose runtime is their estimate reach it:
                    // the others were ended by rota_job_end before.
                    if (s.runtime != s.estimate || a.time != o.start + s.estimate)
                        FAIL("job " << id << " killed at " << a.time << ", started " << o.start
                                    << " with estimate " << s.estimate << " and runtime "
                                    << s.runtime);
                    release(id);
                    finish(id, End::killed, "");
                    log_.push_back("kill " + std::to_string(id) + " " + std::to_string(a.time));
                    break;
                }
                case ROTA_ACTION_START: {
                    if (!in_pass) FAIL("START of job " << id << " outside a pass");
                    if (o.start >= 0 || o.ends > 0) FAIL("job " << id << " started twice");
                    if (never_fits(m_, s)) FAIL("job " << id << " never fits but started");
                    if (a.time != t) FAIL("START of job " << id << " timed " << a.time);
                    check_start(id, s, a);
                    o.start = t;
                    running_.insert(id);
                    if (s.runtime < s.estimate) ends.emplace(t + s.runtime, id);
                    std::ostringstream l;
                    l << "start " << id << " " << t << " on";
                    for (int32_t i = 0; i < a.nruns; ++i)
                        l << " " << a.runs[i].first << "+" << a.runs[i].count;
                    log_.push_back(l.str());
                    starts_.push_back(id);
                    break;
                }
                case ROTA_ACTION_REJECT: {
                    if (!in_pass) FAIL("REJECT of job " << id << " outside a pass");
                    const std::string reason = a.reason ? a.reason : "";
                    check_reject(id, s, reason);
                    finish(id, End::rejected, reason);
                    log_.push_back("reject " + std::to_string(id) + " " + std::to_string(t));
                    break;
                }
                default:
                    FAIL("action type " << a.type << " with one row");
            }
        }
    }

    // (a) at the instant of a START: its nodes idle, its demand within
    // what the running jobs leave of every resource.
    void check_start(int64_t id, const Spec& s, const rota_action& a) {
        if (a.nnodes != s.procs)
            FAIL("job " << id << " got " << a.nnodes << " nodes for " << s.procs);
        int32_t count = 0;
        for (int32_t i = 0; i < a.nruns; ++i) {
            const auto& run = a.runs[i];
            for (int32_t n = run.first; n < run.first + run.count; ++n) {
                if (n < 0 || n >= m_.procs) FAIL("job " << id << " on node " << n);
                auto& who = owner_[static_cast<std::size_t>(n)];
                if (who >= 0)
                    FAIL("job " << id << " started on node " << n << ", held by job " << who);
                who = id;
                ++count;
            }
        }
        if (count != s.procs) FAIL("job " << id << "'s runs hold " << count << " nodes");
        procs_used_ += s.procs;
        if (procs_used_ > m_.procs)
            FAIL("processors over-committed at " << now() << ": " << procs_used_);
        std::vector<int64_t> held(m_.pools.size());
        std::size_t n = 0;
        if (rota_job_pools(e_.get(), id, held.data(), held.size(), &n) != ROTA_OK ||
            n != m_.pools.size())
            FAIL("rota_job_pools(" << id << ") failed: " << rota_errmsg(e_.get()));
        for (std::size_t k = 0; k < m_.pools.size(); ++k) {
            if (held[k] != demand(id, k))
                FAIL("job " << id << " holds " << held[k] << " of " << m_.pools[k].name
                            << ", submitted " << demand(id, k));
            pool_used_[k] += demand(id, k);
            if (pool_used_[k] > m_.pools[k].capacity)
                FAIL(m_.pools[k].name << " over-committed at " << now() << " by job " << id << ": "
                                      << pool_used_[k] << " of " << m_.pools[k].capacity);
        }
        // (b) a reserved job starts no later than its reservation.
        auto r = reserved_.find(id);
        if (r != reserved_.end() && now() > r->second)
            FAIL("job " << id << " started at " << now() << ", after its reservation at "
                        << r->second);
        reserved_.erase(id);
    }

    // (c) exactly the jobs exceeding a capacity are rejected, naming one.
    void check_reject(int64_t id, const Spec& s, const std::string& reason) {
        if (!never_fits(m_, s))
            FAIL("job " << id << " fits the machine but was rejected: " << reason);
        if (reason.empty()) FAIL("job " << id << " rejected without a reason");
        bool named = s.procs > m_.procs && reason.find("processors") != std::string::npos;
        for (std::size_t k = 0; k < m_.pools.size(); ++k)
            named = named || (s.pools[k] > m_.pools[k].capacity &&
                              reason.find(m_.pools[k].name) != std::string::npos);
        if (!named) FAIL("job " << id << "'s rejection names no resource it exceeds: " << reason);
    }

    // What the engine has promised, from `now` on: every running job holds
    // its demand until start + estimate (the engine does not know the
    // runtime), every reservation its demand over [start, end).
    struct Hold {
        rota_time from, to;
        int64_t id;
    };

    void after_pass() {
        ++passes_;
        const rota_time t = now();
        std::size_t n = 0;
        rota_reservations(e_.get(), nullptr, 0, &n);
        std::vector<rota_reservation> rs(n);
        if (n > 0) {
            rs[0].size = sizeof(rota_reservation);
            REQUIRE(rota_reservations(e_.get(), rs.data(), n, &n) == ROTA_OK);
        }
        max_reservations_ = std::max(max_reservations_, n);
        std::size_t nq = 0;
        rota_queue(e_.get(), nullptr, 0, &nq);
        std::vector<int64_t> queue(nq);
        if (nq > 0) REQUIRE(rota_queue(e_.get(), queue.data(), nq, &nq) == ROTA_OK);

        if (!queue.empty()) {
            const int64_t head = queue[0];
            bool pool = false;
            for (std::size_t k = 0; k < m_.pools.size(); ++k)
                pool = pool || pool_used_[k] + demand(head, k) > m_.pools[k].capacity;
            pool_blocked_ += pool;
            procs_blocked_ += procs_used_ + jobs_[static_cast<std::size_t>(head)].procs > m_.procs;
        }

        // (b) Which jobs hold a reservation.
        if (depth_ >= 0 && n > static_cast<std::size_t>(depth_))
            FAIL(n << " reservations with depth " << depth_);
        if (depth_ == 1 && !queue.empty() && (n != 1 || rs[0].job != queue[0]))
            FAIL("EASY: the head, job " << queue[0] << ", holds no reservation at " << t);
        if (depth_ < 0) {
            // Reservations come in queue order, the head's first. With
            // first fit every waiting job holds one: a job that could start
            // was started. A selection that passes candidates over leaves
            // them without one this pass (design.md, "The walk", step 5).
            if (!queue.empty() && (n == 0 || rs[0].job != queue[0]))
                FAIL("conservative: the head, job " << queue[0] << ", holds no reservation at "
                                                    << t);
            std::size_t q = 0;
            for (std::size_t i = 0; i < n; ++i) {
                while (q < nq && queue[q] != rs[i].job) ++q;
                if (q == nq) FAIL("conservative: reservations out of queue order at " << t);
            }
            if (first_fit_ && n != nq)
                FAIL("conservative: " << nq << " waiting jobs, " << n << " reservations at " << t);
            // Whatever the selection, a waiting job without a reservation is
            // one the policy passed over that could still start now: once
            // the picks crowd it out it gets its slot (walk.cpp).
            std::set<int64_t> reserved_now;
            for (std::size_t i = 0; i < n; ++i) reserved_now.insert(rs[i].job);
            for (std::size_t q = 0; q < nq; ++q) {
                const int64_t id = queue[q];
                if (reserved_now.count(id)) continue;
                bool fits = procs_used_ + jobs_[static_cast<std::size_t>(id)].procs <= m_.procs;
                for (std::size_t k = 0; k < m_.pools.size(); ++k)
                    fits = fits && pool_used_[k] + demand(id, k) <= m_.pools[k].capacity;
                if (!fits)
                    FAIL("conservative: job " << id << " waits without a reservation at " << t
                                              << " and cannot start now");
            }
        }
        // (b) A reservation is kept until its job starts and never moves
        // later; one due now would have been started by this pass.
        std::set<int64_t> holding;
        for (const auto& r : rs) {
            const Spec& s = jobs_[static_cast<std::size_t>(r.job)];
            if (r.start <= t)
                FAIL("job " << r.job << " still waits at " << t << " with its reservation at "
                            << r.start);
            if (r.end != r.start + s.estimate || r.procs != s.procs || r.row != 0)
                FAIL("job " << r.job << "'s reservation is not its demand");
            auto it = reserved_.find(r.job);
            if (it != reserved_.end() && r.start > it->second)
                FAIL("job " << r.job << "'s reservation moved later at " << t << ", from "
                            << it->second << " to " << r.start);
            reserved_[r.job] = r.start;
            holding.insert(r.job);
        }
        for (const auto& [id, start] : reserved_)
            if (holding.count(id) == 0)
                FAIL("job " << id << " lost its reservation at " << start << " while waiting (now "
                            << t << ")");

        // FCFS: nothing passes a blocked job.
        if (!backfill_)
            for (std::size_t i = 1; i < starts_.size(); ++i)
                if (starts_[i] < starts_[i - 1])
                    FAIL("FCFS started job " << starts_[i] << " after job " << starts_[i - 1]);

        // (a) The plan never exceeds a capacity, and the engine's idle
        // nodes and pool profiles are exactly what it leaves.
        std::size_t nfree = 0;
        rota_free_nodes(e_.get(), nullptr, 0, &nfree);
        if (static_cast<int64_t>(nfree) != m_.procs - procs_used_)
            FAIL(nfree << " idle nodes at " << t << ", the running jobs leave "
                       << m_.procs - procs_used_);
        std::vector<Hold> holds;
        for (int64_t id : running_) {
            const Spec& s = jobs_[static_cast<std::size_t>(id)];
            holds.push_back({t, out_[static_cast<std::size_t>(id)].start + s.estimate, id});
        }
        for (const auto& r : rs) holds.push_back({r.start, r.end, r.job});
        std::vector<rota_time> points{t};
        for (const auto& h : holds) points.push_back(h.from), points.push_back(h.to);
        std::sort(points.begin(), points.end());
        points.erase(std::unique(points.begin(), points.end()), points.end());
        // Usage of each resource (0: processors, k + 1: pool k) on
        // [points[i], points[i + 1]), by a difference array.
        const std::size_t nres = m_.pools.size() + 1;
        std::vector<std::vector<int64_t>> use(nres, std::vector<int64_t>(points.size() + 1, 0));
        auto at = [&](rota_time x) {
            return static_cast<std::size_t>(std::lower_bound(points.begin(), points.end(), x) -
                                            points.begin());
        };
        for (const auto& h : holds) {
            const std::size_t a = at(h.from), b = at(h.to);
            const Spec& s = jobs_[static_cast<std::size_t>(h.id)];
            use[0][a] += s.procs;
            use[0][b] -= s.procs;
            for (std::size_t k = 0; k < m_.pools.size(); ++k) {
                use[k + 1][a] += demand(h.id, k);
                use[k + 1][b] -= demand(h.id, k);
            }
        }
        for (auto& u : use)
            for (std::size_t i = 1; i < u.size(); ++i) u[i] += u[i - 1];
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (use[0][i] > m_.procs)
                FAIL("the plan at " << t << " holds " << use[0][i] << " processors at "
                                    << points[i]);
            for (std::size_t k = 0; k < m_.pools.size(); ++k)
                if (use[k + 1][i] > m_.pools[k].capacity)
                    FAIL("the plan at " << t << " holds " << use[k + 1][i] << " of "
                                        << m_.pools[k].name << " at " << points[i]);
        }
        for (std::size_t k = 0; k < m_.pools.size(); ++k) {
            std::size_t np = 0;
            rota_pool_profile(e_.get(), static_cast<int32_t>(k), nullptr, nullptr, 0, &np);
            std::vector<rota_time> times(np);
            std::vector<int64_t> free(np);
            REQUIRE(rota_pool_profile(e_.get(), static_cast<int32_t>(k), times.data(), free.data(),
                                      np, &np) == ROTA_OK);
            if (np == 0 || times[0] != t) FAIL("pool profile does not start now");
            for (std::size_t i = 0; i < np; ++i) {
                if (i > 0 && (times[i] <= times[i - 1] || free[i] == free[i - 1]))
                    FAIL("pool profile steps not increasing and merged");
                if (free[i] < 0) FAIL(m_.pools[k].name << " promised beyond its capacity");
            }
            // Compare both step functions at every breakpoint of either.
            std::vector<rota_time> xs(points);
            xs.insert(xs.end(), times.begin(), times.end());
            for (rota_time x : xs) {
                const auto ei = std::upper_bound(times.begin(), times.end(), x) - times.begin() - 1;
                const auto mi =
                    std::upper_bound(points.begin(), points.end(), x) - points.begin() - 1;
                const int64_t mine =
                    m_.pools[k].capacity - use[k + 1][static_cast<std::size_t>(mi)];
                if (free[static_cast<std::size_t>(ei)] != mine)
                    FAIL("at " << t << " rota_pool_profile gives "
                               << free[static_cast<std::size_t>(ei)] << " of " << m_.pools[k].name
                               << " free at " << x << ", running jobs and reservations leave "
                               << mine);
            }
        }
    }

    // (c) every job ended exactly once; the engine holds nothing more.
    void account() {
        std::size_t finished = 0, killed = 0, rejected = 0;
        for (std::size_t i = 0; i < out_.size(); ++i) {
            const auto& o = out_[i];
            const Spec& s = jobs_[i];
            if (o.ends != 1) FAIL("job " << i << " ended " << o.ends << " times");
            if ((o.how == End::rejected) != never_fits(m_, s))
                FAIL("job " << i << " rejected: " << (o.how == End::rejected));
            finished += o.how == End::finished;
            killed += o.how == End::killed;
            rejected += o.how == End::rejected;
        }
        rota_counters c{};
        c.size = sizeof(c);
        REQUIRE(rota_counters_get(e_.get(), &c) == ROTA_OK);
        CHECK(c.submitted == jobs_.size());
        CHECK(c.finished == finished);
        CHECK(c.killed == killed);
        CHECK(c.rejected == rejected);
        CHECK(c.started == finished + killed);
        std::size_t n = 0;
        CHECK(rota_queue(e_.get(), nullptr, 0, &n) == ROTA_OK);
        CHECK(n == 0);
        CHECK(rota_running(e_.get(), nullptr, 0, &n) == ROTA_OK);
        CHECK(n == 0);
        CHECK(running_.empty());
    }

    Machine m_;
    const std::vector<Spec>& jobs_;
    bool submit_pools_;
    bool first_fit_;  // the preset's selection starts every candidate
    rota::test::EnginePtr e_;
    int32_t depth_ = 0;
    bool backfill_ = false;
    std::vector<Outcome> out_;
    std::set<int64_t> submitted_, running_;
    std::vector<int64_t> owner_;  // node -> running job, -1 idle
    int64_t procs_used_ = 0;
    std::vector<int64_t> pool_used_;
    std::map<int64_t, rota_time> reserved_;  // waiting job -> its reservation's start
    std::vector<int64_t> starts_;            // jobs in the order they started
    std::vector<std::string> log_;
    std::size_t passes_ = 0, max_reservations_ = 0, pool_blocked_ = 0, procs_blocked_ = 0;
};

constexpr uint64_t kSeeds[] = {2002, 7, 100};
constexpr int kJobs = 300;

void properties(const std::string& preset) {
    for (int k : {2, 4, 8}) {
        const Machine m = k_machine(k);
        for (uint64_t seed : kSeeds) {
            INFO(preset << ", K = " << k << ", seed " << seed);
            const auto jobs = workload(m, seed, kJobs);
            Run run(preset, m, jobs);
            run.go();
            CHECK(run.passes() > 0);
            // The workload does what it is for: kills, ends and rejections
            // all happen, queues build up behind blocked jobs, and a pool
            // stops the first waiting job more often than processors do.
            std::size_t kills = 0, ends = 0, rejects = 0;
            for (const auto& o : run.outcomes()) {
                kills += o.how == End::killed;
                ends += o.how == End::finished;
                rejects += o.how == End::rejected;
            }
            CHECK(kills > 0);
            CHECK(ends > 0);
            CHECK(rejects > 0);
            if (preset == "conservative") CHECK(run.max_reservations() > 10);
            CHECK(run.pool_blocked() > run.procs_blocked());
        }
    }
}

bool has_preset(const std::string& name) {
    for (int i = 0; rota_preset_name(i) != nullptr; ++i)
        if (name == rota_preset_name(i)) return true;
    return false;
}

}  // namespace

TEST_CASE("kresource: FCFS never over-commits a pool and starts in arrival order", "[kresource]") {
    properties("fcfs");
}

TEST_CASE("kresource: EASY keeps the head's reservation in every resource", "[kresource]") {
    properties("easy");
}

TEST_CASE("kresource: conservative keeps every reservation in every resource", "[kresource]") {
    properties("conservative");
}

// [Leinberger99] §3's selection heuristics (Backfill Lowest, Backfill Balanced)
// choose among the same candidates, so the same properties hold.
TEST_CASE("kresource: BL and BB backfilling keep the same guarantees", "[kresource]") {
    for (const char* p : {"bl-easy", "bb-easy", "bl-cons", "bb-cons"}) {
        REQUIRE(has_preset(p));
        properties(p);
    }
}

// Pools that never bind change nothing: the same jobs give the same
// actions (starts with their nodes, ends, kills) on the machine without
// pools and on machines whose pools hold every job's demand at once.
TEST_CASE("kresource: pools that never bind leave the schedule unchanged", "[kresource]") {
    for (const char* preset : {"fcfs", "easy", "conservative"}) {
        for (int k : {2, 4}) {
            INFO(preset << ", K = " << k);
            Machine big = k_machine(k);
            const auto jobs = workload(big, 11, kJobs);
            // Large enough for all jobs at once.
            for (auto& p : big.pools) p.capacity = 1'000'000'000;
            const Machine none{big.procs, {}};
            Run plain(preset, none, jobs, /*submit_pools=*/false);
            Run pooled(preset, big, jobs);
            const auto a = plain.go();
            const auto b = pooled.go();
            CHECK(a.size() > jobs.size());
            CHECK(a == b);
        }
    }
}
