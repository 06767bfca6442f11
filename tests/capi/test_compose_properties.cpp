// Properties of composed configurations (docs/config.md, "Combinations"):
// for random machines that combine rows, clusters, partitions, pools, job
// classes and malleable jobs, only in the combinations
// engine/combinations.cpp accepts, and random jobs with constraints
// (partitions, node lists, exclusions, begin times, dependencies, pool
// demands, classes, components), driven through the C ABI as an embedder
// drives it: advance to the next event (a submission, a job's end, a
// cancel, the engine's wakeup), end jobs with rota_job_end or
// rota_job_exit, submit, run a pass, pull the actions and keep its own
// model of which job holds which cells of which row. After every pass:
//   - the model agrees with the engine's queries (running jobs, their
//     nodes and rows, the matrix row by row), and no action put a job on
//     a cell another job held;
//   - no pool is over its capacity;
//   - every running job is on the nodes of one of its partitions (or the
//     default ones, or anywhere if none is a default), on no node it
//     excludes, and on every node of its node list;
//   - no job started before its begin time or before its dependencies
//     ended plus their delays, an afterok one only after a success;
//   - under [classes], no class or the large jobs are over their processor
//     limits by jobs pass 2 loaded (pass 1 loads a job past its maximum
//     wait whatever those limits, [Feitelson97] §4.3), nor the system, and no job is swapped out
//     before the dnd_end rota_job_info reported for it;
//   - under EASY (one row, no pools), the reservation of the first queued
//     job holding one never moves later while that job waits, and it
//     starts no later than it: no backfilled job delays it.
// At the end every job is finished, killed at its walltime, rejected with
// a reason (one the model can justify) or cancelled, and a job whose
// afterok dependency failed is rejected. Which pairs of parts are refused
// is tests/engine/test_combinations.cpp's.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

using namespace rota::test;

namespace {

constexpr std::int64_t kS = 1'000'000;
constexpr std::int64_t kMs = 1'000;
constexpr std::int64_t kNever = INT64_MAX;

// SplitMix64: the same numbers on every platform and standard library.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 12345) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi].
    std::int64_t in(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    bool chance(int percent) { return in(0, 99) < percent; }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(in(0, static_cast<std::int64_t>(v.size()) - 1))];
    }

  private:
    std::uint64_t s_;
};

// Sorted distinct node numbers as runs, and as a hostlist ("0-3,8").
std::vector<rota_node_run> runs_of(const std::vector<std::int32_t>& nodes) {
    std::vector<rota_node_run> out;
    for (std::int32_t n : nodes) {
        if (!out.empty() && out.back().first + out.back().count == n)
            ++out.back().count;
        else
            out.push_back({n, 1});
    }
    return out;
}

std::string hostlist(const std::vector<std::int32_t>& nodes) {
    std::string s;
    for (const rota_node_run& r : runs_of(nodes)) {
        if (!s.empty()) s += ',';
        s += std::to_string(r.first);
        if (r.count > 1) s += '-' + std::to_string(r.first + r.count - 1);
    }
    return s;
}

std::vector<std::int32_t> nodes_of(const rota_node_run* runs, std::int32_t n) {
    std::vector<std::int32_t> out;
    for (std::int32_t r = 0; r < n; ++r)
        for (std::int32_t k = 0; k < runs[r].count; ++k) out.push_back(runs[r].first + k);
    return out;
}

std::vector<std::string> names_in(const std::string& list) {
    std::vector<std::string> out;
    std::string name;
    std::istringstream in(list);
    while (std::getline(in, name, ','))
        if (!name.empty()) out.push_back(name);
    return out;
}

std::string seconds(std::int64_t us) {
    std::ostringstream o;
    o << static_cast<double>(us) / kS;
    return o.str();
}

// ---------------------------------------------------------------------------
// Configurations

enum class Mode { walk, classes, malleable };

struct PartitionCfg {
    std::string name;
    std::vector<std::int32_t> nodes;  // sorted
    bool is_default = false;
};

struct ClassCfg {
    std::string name;
    int priority = 1;
    std::int64_t max_wait_ms = -1;  // -1: never
    std::int64_t dnd_ms = 0;        // per processor
    std::int32_t procs = 0;         // 0: no limit
    bool preemptable = true;
};

struct Config {
    Mode mode = Mode::walk;
    std::int32_t procs = 0;
    std::int32_t rows = 1;
    std::string preset;  // the walk's
    std::int32_t slice_s = 0;
    std::vector<std::int32_t> clusters;  // nodes of each
    std::vector<PartitionCfg> partitions;
    std::vector<std::int64_t> pools;  // capacities
    std::vector<ClassCfg> classes;
    std::int32_t default_class = 0;  // index into classes
    std::int32_t job_procs = 0, system_procs = 0, large_job = 0, large_procs = 0;
    std::int64_t swap_ms = 0;
    std::string exec_model, harvest, distribution;
    std::int32_t mpl_limit = 0;
    std::int64_t adapt_latency_ms = 0;
    std::int64_t min_job_age_s = 0;

    // The brute-force check of EASY's head reservation applies.
    bool easy() const {
        return mode == Mode::walk && preset == "easy" && rows == 1 && pools.empty();
    }
    const char* mode_name() const {
        if (mode == Mode::classes) return "classes";
        if (mode == Mode::malleable) return "malleable";
        return rows > 1 ? "gang" : "space sharing";
    }

    std::string toml() const {
        std::ostringstream o;
        o << "[machine]\n";
        if (clusters.empty()) o << "procs = " << procs << "\n";
        for (std::size_t k = 0; k < clusters.size(); ++k)
            o << "[[machine.clusters]]\nname = \"c" << k << "\"\nnodes = " << clusters[k] << "\n";
        for (const PartitionCfg& p : partitions)
            o << "[[machine.partitions]]\nname = \"" << p.name << "\"\nnodes = \""
              << hostlist(p.nodes) << "\"\n"
              << (p.is_default ? "default = true\n" : "");
        for (std::size_t k = 0; k < pools.size(); ++k)
            o << "[[machine.pools]]\nname = \"r" << k << "\"\ncapacity = " << pools[k] << "\n";
        if (!preset.empty() || min_job_age_s > 0) {
            o << "[scheduler]\n";
            if (!preset.empty()) o << "preset = \"" << preset << "\"\n";
            if (min_job_age_s > 0) o << "min_job_age = " << min_job_age_s << "\n";
        }
        if (mode == Mode::walk && (rows > 1 || preset == "gs" || preset == "bgs")) {
            o << "[gang]\nmpl = " << rows << "\n";
            if (rows > 1) o << "slice = " << slice_s << "\n";
        }
        if (mode == Mode::classes) {
            o << "[classes]\ndefault = \"" << classes[static_cast<std::size_t>(default_class)].name
              << "\"\nswap_time = " << seconds(swap_ms * kMs) << "\n";
            if (job_procs > 0) o << "job_procs = " << job_procs << "\n";
            if (system_procs > 0) o << "system_procs = " << system_procs << "\n";
            if (large_job > 0) o << "large_job = " << large_job << "\n";
            if (large_procs > 0) o << "large_procs = " << large_procs << "\n";
            for (const ClassCfg& k : classes) {
                o << "[[classes.class]]\nname = \"" << k.name << "\"\npriority = " << k.priority
                  << "\ndnd = " << seconds(k.dnd_ms * kMs) << "\n";
                if (k.max_wait_ms >= 0) o << "max_wait = " << seconds(k.max_wait_ms * kMs) << "\n";
                if (k.procs > 0) o << "procs = " << k.procs << "\n";
                if (!k.preemptable) o << "preemptable = false\n";
            }
        }
        if (mode == Mode::malleable) {
            o << "[malleable]\nexec_model = \"" << exec_model << "\"\nmpl_limit = " << mpl_limit
              << "\nadapt_latency = " << seconds(adapt_latency_ms * kMs) << "\n";
            if (!harvest.empty()) o << "[policy.harvest]\nscript = \"" << harvest << "\"\n";
            if (!distribution.empty())
                o << "[policy.distribution]\nscript = \"" << distribution << "\"\n";
        }
        return o.str();
    }
};

std::vector<PartitionCfg> make_partitions(Rng& r, std::int32_t procs) {
    std::vector<PartitionCfg> out;
    const auto n = r.in(1, 3);
    for (std::int64_t k = 0; k < n; ++k) {
        std::vector<char> in(static_cast<std::size_t>(procs), 0);
        // One or two runs, which may overlap other partitions.
        for (std::int64_t run = r.in(1, 2); run > 0; --run) {
            const auto len = r.in(1, std::max<std::int64_t>(1, procs * 2 / 3));
            const auto first = r.in(0, procs - len);
            std::fill_n(in.begin() + first, len, 1);
        }
        PartitionCfg p;
        p.name = 'p';
        p.name += std::to_string(k);
        for (std::int32_t i = 0; i < procs; ++i)
            if (in[static_cast<std::size_t>(i)]) p.nodes.push_back(i);
        p.is_default = r.chance(30);
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<std::int64_t> make_pools(Rng& r) {
    std::vector<std::int64_t> out;
    for (std::int64_t k = r.in(0, 2); k > 0; --k) out.push_back(r.in(3, 16));
    return out;
}

// `kind`: 0 EASY with partitions (the brute-force check), 1 the walk in
// general (space sharing or gang, clusters or partitions, pools), 2 job
// classes, 3 malleable jobs.
Config make_config(Rng& r, int kind) {
    Config c;
    c.procs = static_cast<std::int32_t>(r.in(6, 24));
    c.min_job_age_s = r.chance(50) ? 0 : 3600;
    switch (kind) {
        case 0:
            c.preset = "easy";
            if (r.chance(85)) c.partitions = make_partitions(r, c.procs);
            break;
        case 1: {
            if (r.chance(50)) {
                c.preset = r.pick(std::vector<std::string>{"fcfs", "easy", "conservative"});
            } else {
                c.preset = r.chance(50) ? "gs" : "bgs";
                c.rows = static_cast<std::int32_t>(r.in(1, 3));
                if (c.rows == 1 && r.chance(50)) c.rows = 2;
                c.slice_s = static_cast<std::int32_t>(r.in(10, 60));
            }
            if (r.chance(25)) {
                c.clusters.resize(static_cast<std::size_t>(r.in(2, 3)));
                c.procs = 0;
                for (auto& n : c.clusters) c.procs += n = static_cast<std::int32_t>(r.in(3, 10));
            } else if (r.chance(75)) {
                c.partitions = make_partitions(r, c.procs);
            }
            c.pools = make_pools(r);
            break;
        }
        case 2: {
            c.mode = Mode::classes;
            if (r.chance(70)) c.partitions = make_partitions(r, c.procs);
            c.pools = make_pools(r);
            const auto n = r.in(2, 4);
            for (std::int64_t k = 0; k < n; ++k) {
                ClassCfg k_;
                k_.name = "k" + std::to_string(k);
                k_.priority = static_cast<int>(r.in(1, 4));
                k_.max_wait_ms = r.chance(40) ? -1 : r.in(0, 600) * 1000;
                k_.dnd_ms = r.in(0, 5000);
                k_.procs = r.chance(30) ? static_cast<std::int32_t>(r.in(c.procs / 2, c.procs)) : 0;
                k_.preemptable = r.chance(70);
                c.classes.push_back(k_);
            }
            c.default_class = static_cast<std::int32_t>(r.in(0, n - 1));
            c.swap_ms = r.pick(std::vector<std::int64_t>{0, 50, 500});
            if (r.chance(20)) c.job_procs = c.procs * 3 / 4;
            if (r.chance(20))
                c.system_procs = static_cast<std::int32_t>(r.in(c.procs, 2 * c.procs));
            if (r.chance(20)) {
                c.large_job = std::max(1, c.procs / 2);
                c.large_procs = std::max(c.large_job, c.procs * 3 / 4);
            }
            break;
        }
        default:
            c.mode = Mode::malleable;
            c.pools = make_pools(r);
            c.exec_model = r.chance(50) ? "linear" : "parabolic";
            c.mpl_limit = static_cast<std::int32_t>(r.in(0, 3));
            c.adapt_latency_ms = r.chance(50) ? 0 : r.in(1, 2000);
            if (r.chance(60))
                c.harvest =
                    r.pick(std::vector<std::string>{"harvest/even.lua", "harvest/fair.lua"});
            if (r.chance(50))
                c.distribution = r.pick(std::vector<std::string>{"distribution/favor_queued.lua",
                                                                 "distribution/favor_running.lua"});
            break;
    }
    return c;
}

// ---------------------------------------------------------------------------
// Jobs

struct JobGen {
    std::int64_t id = 0;
    std::int64_t submit = 0, estimate = 0, runtime = 0;  // us
    std::int32_t procs = 1, min_procs = 0, cls = 0;
    std::vector<std::int64_t> pools;
    std::vector<std::int32_t> components;
    std::string partition;
    std::vector<std::int32_t> include, exclude;  // sorted nodes
    std::int64_t begin = 0;
    std::vector<rota_dependency> deps;
    int status = 0;        // exit status at its end
    bool use_end = false;  // rota_job_end rather than rota_job_exit(0)
    std::int64_t cancel_at = -1;
};

// Whether the node list and exclusions go with the configuration: not on
// clusters (components are placed by Worst Fit) nor under the iScheduler
// (processors are interchangeable), where they are ROTA_EINVAL
// (test_constraints.cpp).
bool node_lists(const Config& c) {
    return c.clusters.empty() && c.mode != Mode::malleable;
}

std::vector<JobGen> make_jobs(Rng& r, const Config& c) {
    const auto n = r.in(30, 60);
    std::vector<JobGen> jobs;
    std::int64_t t = 0;
    const std::int32_t N = c.procs;
    for (std::int64_t i = 0; i < n; ++i) {
        JobGen j;
        j.id = i;
        if (i > 0 && !r.chance(20)) t += r.in(0, 40'000) * kMs;
        j.submit = t;
        const auto size = r.in(0, 99);
        j.procs = static_cast<std::int32_t>(size < 60   ? r.in(1, std::max(1, N / 4))
                                            : size < 92 ? r.in(1, N)
                                            : size < 97 ? N
                                                        : N + r.in(1, 3));
        j.estimate = r.in(5'000, 300'000) * kMs;
        const auto fate = r.in(0, 99);
        j.runtime = fate < 70   ? r.in(j.estimate / 10 / kMs, j.estimate / kMs - 1) * kMs
                    : fate < 85 ? j.estimate
                                : j.estimate + r.in(1, 100'000) * kMs;
        if (j.runtime <= 0) j.runtime = kMs;
        for (std::int64_t cap : c.pools) {
            const auto p = r.in(0, 99);
            j.pools.push_back(p < 70 ? r.in(0, cap / 2) : p < 96 ? r.in(0, cap) : cap + 1);
        }
        if (!c.clusters.empty() && r.chance(40)) {
            const auto k = r.in(2, static_cast<std::int64_t>(c.clusters.size()));
            if (j.procs >= k) {
                std::int32_t left = j.procs;
                for (std::int64_t m = k; m > 1; --m) {
                    const auto w = static_cast<std::int32_t>(r.in(1, left - (m - 1)));
                    j.components.push_back(w);
                    left -= w;
                }
                j.components.push_back(left);
            }
        }
        // Where it may run, for its node list.
        std::vector<std::int32_t> where;
        if (!c.partitions.empty()) {
            const auto p = r.in(0, 99);
            if (p < 55) {
                const PartitionCfg& q = r.pick(c.partitions);
                j.partition = q.name;
                where = q.nodes;
            } else if (p < 70 && c.partitions.size() > 1) {
                const PartitionCfg& a = r.pick(c.partitions);
                const PartitionCfg& b = r.pick(c.partitions);
                j.partition = a.name + "," + b.name;
                where = a.nodes;
            } else if (p < 75) {
                j.partition = "nope";
            }
        } else if (r.chance(10)) {
            j.partition = "label";  // only a label without partitions
        }
        if (where.empty())
            for (std::int32_t k = 0; k < N; ++k) where.push_back(k);
        if (node_lists(c)) {
            std::set<std::int32_t> inc, exc;
            if (r.chance(15)) {
                const auto k = r.in(1, std::min<std::int64_t>(j.procs, 2));
                for (std::int64_t m = 0; m < k; ++m)
                    inc.insert(r.chance(85) ? r.pick(where)
                                            : static_cast<std::int32_t>(r.in(0, N - 1)));
            }
            if (r.chance(15))
                for (std::int64_t m = r.in(1, 3); m > 0; --m) {
                    const auto x = static_cast<std::int32_t>(r.in(0, N - 1));
                    if (!inc.count(x)) exc.insert(x);
                }
            j.include.assign(inc.begin(), inc.end());
            j.exclude.assign(exc.begin(), exc.end());
        }
        if (r.chance(15)) j.begin = j.submit + r.in(0, 200'000) * kMs;
        if (i > 0 && r.chance(25)) {
            std::set<std::int64_t> on;
            for (std::int64_t m = r.in(1, 2); m > 0; --m)
                on.insert(r.in(std::max<std::int64_t>(0, i - 8), i - 1));
            for (std::int64_t d : on)
                j.deps.push_back({d, r.chance(50) ? ROTA_AFTER_OK : ROTA_AFTER_ANY,
                                  r.chance(60) ? 0 : r.in(0, 30'000) * kMs});
        }
        if (c.mode == Mode::classes)
            j.cls = static_cast<std::int32_t>(r.in(0, static_cast<std::int64_t>(c.classes.size())));
        if (c.mode == Mode::malleable && j.procs <= N && r.chance(50))
            j.min_procs = static_cast<std::int32_t>(r.in(1, j.procs));
        j.status = r.chance(75) ? 0 : static_cast<int>(r.in(1, 3));
        j.use_end = r.chance(50);
        if (r.chance(6)) j.cancel_at = j.submit + r.in(0, 300'000) * kMs;
        jobs.push_back(std::move(j));
    }
    return jobs;
}

// ---------------------------------------------------------------------------
// The embedder

enum class St { unsubmitted, waiting, running, finished, killed, rejected, cancelled };

const char* st_name(St s) {
    switch (s) {
        case St::unsubmitted:
            return "unsubmitted";
        case St::waiting:
            return "waiting";
        case St::running:
            return "running";
        case St::finished:
            return "finished";
        case St::killed:
            return "killed";
        case St::rejected:
            return "rejected";
        case St::cancelled:
            return "cancelled";
    }
    return "?";
}

bool final_state(St s) {
    return s == St::finished || s == St::killed || s == St::rejected || s == St::cancelled;
}

struct JobModel {
    St st = St::unsubmitted;
    std::int64_t submitted_at = -1;
    std::uint64_t submitted_seq = 0, ended_seq = 0;  // the order of the embedder's events
    bool started = false;
    std::int64_t first_start = -1;
    std::vector<std::int32_t> nodes;  // sorted
    std::uint32_t rows = 0;           // rows it holds
    std::int32_t home = -1;
    bool executing = false;
    std::int64_t since = 0, done = 0;  // executed before `since`
    std::int64_t ended_at = -1;
    bool ok = false;
    std::string reason;
    std::int64_t dnd_end = -1;  // as the last pass reported it, for this load
    bool swapped = false;       // swapped out, waiting again
    bool due = false;           // past its class's maximum wait before the pass
    bool by_pass1 = false;      // loaded while due: by pass 1, which checks no class limit
};

struct Tally {
    std::uint64_t configs = 0, jobs = 0, passes = 0, starts = 0, finished = 0, killed = 0,
                  rejected = 0, cancelled = 0, swap_outs = 0, grows = 0, shrinks = 0, replicas = 0,
                  easy_compared = 0;
    std::map<std::string, std::uint64_t> by_mode;
    void add(const Tally& o) {
        configs += o.configs;
        jobs += o.jobs;
        passes += o.passes;
        starts += o.starts;
        finished += o.finished;
        killed += o.killed;
        rejected += o.rejected;
        cancelled += o.cancelled;
        swap_outs += o.swap_outs;
        grows += o.grows;
        shrinks += o.shrinks;
        replicas += o.replicas;
        easy_compared += o.easy_compared;
        for (const auto& [k, v] : o.by_mode) by_mode[k] += v;
    }
};

// ROTA_PROPS_TRACE=1 prints every event and action of the runs.
bool tracing() {
    static const bool on = std::getenv("ROTA_PROPS_TRACE") != nullptr;
    return on;
}

class Embedder {
  public:
    Embedder(const Config& c, std::vector<JobGen> jobs)
        : c_(c), jobs_(std::move(jobs)), m_(jobs_.size()) {
        e_ = engine_from(c_.toml());
        cells_.assign(static_cast<std::size_t>(c_.rows),
                      std::vector<std::int64_t>(static_cast<std::size_t>(c_.procs), -1));
        tally_.configs = 1;
        tally_.jobs = jobs_.size();
        tally_.by_mode[c_.mode_name()] = 1;
        if (c_.easy()) tally_.by_mode["easy check"] = 1;
    }

    void run() {
        std::vector<std::pair<std::int64_t, std::int64_t>> cancels;
        for (const JobGen& j : jobs_)
            if (j.cancel_at >= 0) cancels.emplace_back(j.cancel_at, j.id);
        std::sort(cancels.begin(), cancels.end());
        std::size_t next_sub = 0, next_cancel = 0;
        int same = 0;
        for (;;) {
            std::int64_t t = kNever;
            if (next_sub < jobs_.size()) t = jobs_[next_sub].submit;
            if (next_cancel < cancels.size()) t = std::min(t, cancels[next_cancel].first);
            for (std::size_t i = 0; i < jobs_.size(); ++i) t = std::min(t, planned_end(i));
            rota_time w = 0;
            if (rota_next_wakeup(e_.get(), &w) == ROTA_OK) t = std::min(t, w);
            if (t == kNever) break;
            t = std::max(t, now_);
            same = t == now_ ? same + 1 : 0;
            if (same > 100) {
                bad("progress",
                    "the engine asks to be woken at " + seconds(t) + " s again and again");
                break;
            }
            now_ = t;
            if (!call(rota_advance(e_.get(), t), "rota_advance")) break;
            drain();
            for (std::size_t i = 0; i < jobs_.size(); ++i)
                if (planned_end(i) <= t) end_job(i);
            for (; next_cancel < cancels.size() && cancels[next_cancel].first <= t; ++next_cancel)
                cancel(static_cast<std::size_t>(cancels[next_cancel].second));
            for (; next_sub < jobs_.size() && jobs_[next_sub].submit <= t; ++next_sub)
                submit(next_sub);
            if (broken_) break;
            if (tracing()) std::cerr << seconds(now_) << " schedule\n";
            if (c_.mode == Mode::classes) mark_due();
            if (!call(rota_schedule(e_.get()), "rota_schedule")) break;
            drain();
            after_pass();
        }
        if (!broken_) at_the_end();
    }

    const std::vector<std::string>& violations() const { return violations_; }
    const Tally& tally() const { return tally_; }

  private:
    const Config& c_;
    std::vector<JobGen> jobs_;
    std::vector<JobModel> m_;
    EnginePtr e_;
    std::vector<std::vector<std::int64_t>> cells_;  // [row][node]: job, or -1
    std::int64_t now_ = 0;
    std::vector<std::string> violations_;
    std::map<std::string, std::uint64_t> kinds_;
    bool broken_ = false;  // a call failed: the run stops there
    Tally tally_;
    std::uint64_t events_ = 0;
    std::int64_t easy_holder_ = -1;  // the EASY head holding a reservation, and its start
    std::int64_t easy_reserved_ = -1;

    void bad(const std::string& kind, const std::string& what) {
        if (tracing()) std::cerr << "VIOLATION [" << kind << "] " << what << "\n";
        // The first few of each kind: one fault tends to repeat at every pass.
        if (++kinds_[kind] <= 5)
            violations_.push_back("[" + kind + "] at " + seconds(now_) + " s: " + what);
    }

    bool call(int rc, const char* what) {
        if (rc == ROTA_OK) return true;
        broken_ = true;
        bad("api",
            std::string(what) + " returned " + rota_status_name(rc) + ": " + rota_errmsg(e_.get()));
        return false;
    }

    std::string job_text(std::size_t i) const { return "job " + std::to_string(i); }

    std::int32_t least(const JobGen& j) const {
        return c_.mode == Mode::malleable && j.min_procs > 0 ? j.min_procs : j.procs;
    }

    // When the embedder ends running job i: when it has executed its run
    // time (with more rows, at most its estimate: only the embedder ends a
    // gang-scheduled job). With one row a job that would run its estimate
    // is the engine's to kill.
    std::int64_t planned_end(std::size_t i) const {
        const JobModel& m = m_[i];
        const JobGen& j = jobs_[i];
        if (m.st != St::running) return kNever;
        if (c_.rows == 1 && j.runtime >= j.estimate) return kNever;
        const std::int64_t need = std::min(j.runtime, c_.rows > 1 ? j.estimate : j.runtime);
        if (m.done >= need) return now_;
        return m.executing ? m.since + (need - m.done) : kNever;
    }

    void end_job(std::size_t i) {
        const JobGen& j = jobs_[i];
        const int rc = j.use_end && j.status == 0 ? rota_job_end(e_.get(), j.id)
                                                  : rota_job_exit(e_.get(), j.id, j.status);
        if (tracing())
            std::cerr << seconds(now_) << " end job " << i << " status " << j.status << "\n";
        if (!call(rc, "rota_job_end")) return;
        release(i);
        m_[i].st = St::finished;
        m_[i].ended_at = now_;
        m_[i].ended_seq = ++events_;
        m_[i].ok = j.status == 0;
        ++tally_.finished;
    }

    void cancel(std::size_t i) {
        JobModel& m = m_[i];
        if (m.st == St::unsubmitted || final_state(m.st)) return;
        if (tracing()) std::cerr << seconds(now_) << " cancel job " << i << "\n";
        if (!call(rota_cancel(e_.get(), jobs_[i].id), "rota_cancel")) return;
        if (m.st == St::running) release(i);
        m.st = St::cancelled;
        m.ended_at = now_;
        m.ended_seq = ++events_;
        ++tally_.cancelled;
    }

    void submit(std::size_t i) {
        const JobGen& g = jobs_[i];
        const auto include = runs_of(g.include), exclude = runs_of(g.exclude);
        rota_job j{};
        j.size = sizeof j;
        j.id = g.id;
        j.estimate = g.estimate;
        j.procs = g.procs;
        j.user = static_cast<std::int32_t>(g.id % 3);
        j.npools = static_cast<std::int32_t>(g.pools.size());
        j.pools = g.pools.empty() ? nullptr : g.pools.data();
        j.ncomponents = static_cast<std::int32_t>(g.components.size());
        j.components = g.components.empty() ? nullptr : g.components.data();
        j.min_procs = g.min_procs;
        j.job_class = g.cls;
        j.partition = g.partition.empty() ? nullptr : g.partition.c_str();
        j.begin = g.begin;
        j.ninclude = static_cast<std::int32_t>(include.size());
        j.include = include.empty() ? nullptr : include.data();
        j.nexclude = static_cast<std::int32_t>(exclude.size());
        j.exclude = exclude.empty() ? nullptr : exclude.data();
        j.ndepends = static_cast<std::int32_t>(g.deps.size());
        j.depends = g.deps.empty() ? nullptr : g.deps.data();
        if (tracing()) {
            std::cerr << seconds(now_) << " submit job " << i << " procs " << g.procs << " min "
                      << g.min_procs << " est " << seconds(g.estimate) << " run "
                      << seconds(g.runtime) << " class " << g.cls << " partition '" << g.partition
                      << "' include " << hostlist(g.include) << " exclude " << hostlist(g.exclude)
                      << " begin " << seconds(g.begin) << " pools";
            for (auto p : g.pools) std::cerr << ' ' << p;
            std::cerr << " deps";
            for (const auto& d : g.deps)
                std::cerr << ' ' << (d.type == ROTA_AFTER_OK ? "ok:" : "any:") << d.job << '+'
                          << seconds(d.delay);
            std::cerr << "\n";
        }
        if (!call(rota_submit(e_.get(), &j), "rota_submit")) return;
        m_[i].st = St::waiting;
        m_[i].submitted_at = now_;
        m_[i].submitted_seq = ++events_;
    }

    // The model's cells.
    void occupy(std::size_t i, std::int32_t row, const std::vector<std::int32_t>& nodes,
                const char* by) {
        if (row < 0 || row >= c_.rows) {
            bad("matrix", std::string(by) + " of " + job_text(i) + " in row " +
                              std::to_string(row) + ", outside the matrix");
            return;
        }
        for (std::int32_t n : nodes) {
            if (n < 0 || n >= c_.procs) {
                bad("matrix", std::string(by) + " of " + job_text(i) + " on node " +
                                  std::to_string(n) + ", outside the machine");
                continue;
            }
            std::int64_t& cell = cells_[static_cast<std::size_t>(row)][static_cast<std::size_t>(n)];
            if (cell >= 0 && cell != static_cast<std::int64_t>(i))
                bad("node used twice", std::string(by) + " puts " + job_text(i) + " on node " +
                                           std::to_string(n) + " of row " + std::to_string(row) +
                                           ", which job " + std::to_string(cell) + " holds");
            cell = static_cast<std::int64_t>(i);
        }
    }

    void vacate(std::size_t i, std::int32_t row, const std::vector<std::int32_t>& nodes,
                const char* by) {
        if (row < 0 || row >= c_.rows) return;
        for (std::int32_t n : nodes) {
            if (n < 0 || n >= c_.procs) continue;
            std::int64_t& cell = cells_[static_cast<std::size_t>(row)][static_cast<std::size_t>(n)];
            if (cell != static_cast<std::int64_t>(i))
                bad("model", std::string(by) + ": " + job_text(i) + " leaves node " +
                                 std::to_string(n) + " of row " + std::to_string(row) +
                                 ", which it does not hold");
            else
                cell = -1;
        }
    }

    void release(std::size_t i) {
        JobModel& m = m_[i];
        for (std::int32_t r = 0; r < c_.rows; ++r)
            if (m.rows >> r & 1u) vacate(i, r, m.nodes, "its end");
        stop(i, now_);
        m.nodes.clear();
        m.rows = 0;
        m.home = -1;
    }

    void stop(std::size_t i, std::int64_t t) {
        JobModel& m = m_[i];
        if (m.executing) m.done += std::max<std::int64_t>(0, t - m.since);
        m.executing = false;
    }

    void drain() {
        rota_action a{};
        a.size = sizeof a;
        while (rota_next_action(e_.get(), &a) == ROTA_OK) {
            apply(a);
            a = rota_action{};
            a.size = sizeof a;
        }
    }

    void apply(const rota_action& a) {
        if (tracing())
            std::cerr << "  " << seconds(a.time) << " action " << a.type << " job " << a.job
                      << " row " << a.row << " nodes " << hostlist(nodes_of(a.runs, a.nruns))
                      << (a.reason ? std::string(" '") + a.reason + "'" : std::string());
        if (tracing() && a.run_cluster)
            for (std::int32_t r = 0; r < a.nruns; ++r) std::cerr << " c" << a.run_cluster[r];
        if (tracing()) std::cerr << "\n";
        if (a.type == ROTA_ACTION_SWITCH) return;
        if (a.job < 0 || a.job >= static_cast<std::int64_t>(jobs_.size())) {
            bad("action",
                "action " + std::to_string(a.type) + " for unknown job " + std::to_string(a.job));
            return;
        }
        const auto i = static_cast<std::size_t>(a.job);
        JobModel& m = m_[i];
        const JobGen& g = jobs_[i];
        const std::vector<std::int32_t> nodes = nodes_of(a.runs, a.nruns);
        const bool runs_action = a.type == ROTA_ACTION_START || a.type == ROTA_ACTION_GROW ||
                                 a.type == ROTA_ACTION_SHRINK || a.type == ROTA_ACTION_SWAP_IN ||
                                 a.type == ROTA_ACTION_SWAP_OUT;
        if (runs_action && static_cast<std::int32_t>(nodes.size()) != a.nnodes)
            bad("action", "action " + std::to_string(a.type) + " of " + job_text(i) + " names " +
                              std::to_string(nodes.size()) + " nodes and says " +
                              std::to_string(a.nnodes));
        const bool running = m.st == St::running;
        auto needs_running = [&](const char* what) {
            if (!running)
                bad("action",
                    std::string(what) + " of " + job_text(i) + ", which is " + st_name(m.st));
            return running;
        };
        switch (a.type) {
            case ROTA_ACTION_START: {
                if (m.st != St::waiting || m.swapped) {
                    bad("action", "START of " + job_text(i) + ", which is " + st_name(m.st));
                    return;
                }
                const auto n = static_cast<std::int32_t>(nodes.size());
                if (n > g.procs || n < least(g))
                    bad("width", "START of " + job_text(i) + " on " + std::to_string(n) +
                                     " nodes; it asks for " + std::to_string(g.procs));
                occupy(i, a.row, nodes, "START");
                m.by_pass1 = m.due;
                m.st = St::running;
                m.nodes = nodes;
                m.rows = 1u << a.row;
                m.home = a.row;
                m.executing = c_.rows == 1;
                m.since = a.time;
                m.dnd_end = -1;
                ++tally_.starts;
                if (!m.started) {
                    m.started = true;
                    m.first_start = a.time;
                    check_start(i, a.time);
                }
                if (!c_.clusters.empty()) check_clusters(i, a, nodes);
                if (static_cast<std::int64_t>(i) == easy_holder_ && a.time > easy_reserved_)
                    bad("easy", job_text(i) + " started at " + seconds(a.time) +
                                    " s, after its reservation at " + seconds(easy_reserved_) +
                                    " s");
                return;
            }
            case ROTA_ACTION_REPLICATE:
                if (!needs_running("REPLICATE")) return;
                occupy(i, a.row, m.nodes, "REPLICATE");
                m.rows |= 1u << a.row;
                ++tally_.replicas;
                return;
            case ROTA_ACTION_UNREPLICATE:
                if (!needs_running("UNREPLICATE")) return;
                if (!(m.rows >> a.row & 1u)) {
                    bad("action", "UNREPLICATE of " + job_text(i) + " from row " +
                                      std::to_string(a.row) + ", which it does not hold");
                    return;
                }
                vacate(i, a.row, m.nodes, "UNREPLICATE");
                m.rows &= ~(1u << a.row);
                return;
            case ROTA_ACTION_MOVE:
                if (needs_running("MOVE")) m.home = a.row;
                return;
            case ROTA_ACTION_SUSPEND:
                if (needs_running("SUSPEND")) stop(i, a.time);
                return;
            case ROTA_ACTION_RESUME:
                if (!needs_running("RESUME")) return;
                m.executing = true;
                m.since = a.time;
                return;
            case ROTA_ACTION_KILL:
                if (!needs_running("KILL")) return;
                if (c_.rows > 1)
                    bad("kill", "KILL of " + job_text(i) +
                                    " with more rows: only the embedder "
                                    "knows how long it executed");
                // A job whose run time is shorter than its estimate was
                // ended by the embedder before its walltime.
                if (g.runtime < g.estimate || a.time < m.first_start + g.estimate ||
                    (c_.mode == Mode::walk && a.time != m.first_start + g.estimate))
                    bad("kill", job_text(i) + " killed at " + seconds(a.time) +
                                    " s; it started at " + seconds(m.first_start) +
                                    " s with an estimate of " + seconds(g.estimate) +
                                    " s and runs " + seconds(g.runtime) + " s");
                release(i);
                m.st = St::killed;
                m.ended_at = a.time;
                m.ended_seq = ++events_;
                ++tally_.killed;
                return;
            case ROTA_ACTION_REJECT:
                if (m.st != St::waiting || m.started)
                    bad("action", "REJECT of " + job_text(i) + ", which is " + st_name(m.st) +
                                      (m.started ? " and has started" : ""));
                if (m.st == St::running) release(i);
                m.st = St::rejected;
                m.reason = a.reason ? a.reason : "";
                if (m.reason.empty()) bad("reject", job_text(i) + " rejected without a reason");
                m.ended_at = a.time;
                m.ended_seq = ++events_;
                ++tally_.rejected;
                return;
            case ROTA_ACTION_REQUEUE:
                if (!needs_running("REQUEUE")) return;
                release(i);
                m.st = St::waiting;
                return;
            case ROTA_ACTION_GROW: {
                if (!needs_running("GROW")) return;
                if (c_.mode != Mode::malleable) bad("action", "GROW without [malleable]");
                occupy(i, 0, nodes, "GROW");
                std::vector<std::int32_t> all = m.nodes;
                all.insert(all.end(), nodes.begin(), nodes.end());
                std::sort(all.begin(), all.end());
                m.nodes = all;
                if (static_cast<std::int32_t>(all.size()) > g.procs)
                    bad("width", job_text(i) + " grew to " + std::to_string(all.size()) +
                                     " nodes, past its " + std::to_string(g.procs));
                ++tally_.grows;
                return;
            }
            case ROTA_ACTION_SHRINK: {
                if (!needs_running("SHRINK")) return;
                if (c_.mode != Mode::malleable) bad("action", "SHRINK without [malleable]");
                vacate(i, 0, nodes, "SHRINK");
                std::vector<std::int32_t> left;
                std::set_difference(m.nodes.begin(), m.nodes.end(), nodes.begin(), nodes.end(),
                                    std::back_inserter(left));
                m.nodes = left;
                if (static_cast<std::int32_t>(left.size()) < least(g))
                    bad("width", job_text(i) + " shrank to " + std::to_string(left.size()) +
                                     " nodes, under its min " + std::to_string(least(g)));
                ++tally_.shrinks;
                return;
            }
            case ROTA_ACTION_SWAP_OUT:
                if (!needs_running("SWAP_OUT")) return;
                if (c_.mode != Mode::classes) bad("action", "SWAP_OUT without [classes]");
                if (nodes != m.nodes)
                    bad("action", "SWAP_OUT of " + job_text(i) + " names other nodes than its own");
                if (m.dnd_end < 0)
                    bad("dnd", job_text(i) + " swapped out in the pass that loaded it");
                else if (a.time < m.dnd_end)
                    bad("dnd", job_text(i) + " swapped out at " + seconds(a.time) +
                                   " s, before its dnd_end " + seconds(m.dnd_end) + " s");
                release(i);
                m.st = St::waiting;
                m.swapped = true;
                ++tally_.swap_outs;
                return;
            case ROTA_ACTION_SWAP_IN:
                if (m.st != St::waiting || !m.swapped) {
                    bad("action", "SWAP_IN of " + job_text(i) + ", which is " + st_name(m.st) +
                                      (m.swapped ? "" : " and was never swapped out"));
                    return;
                }
                if (static_cast<std::int32_t>(nodes.size()) != g.procs)
                    bad("width", "SWAP_IN of " + job_text(i) + " on " +
                                     std::to_string(nodes.size()) + " nodes; it asks for " +
                                     std::to_string(g.procs));
                occupy(i, 0, nodes, "SWAP_IN");
                m.by_pass1 = m.due;
                m.st = St::running;
                m.swapped = false;
                m.nodes = nodes;
                m.rows = 1u;
                m.home = 0;
                m.executing = true;
                m.since = a.time;
                m.dnd_end = -1;
                return;
            default:
                bad("action",
                    "unexpected action " + std::to_string(a.type) + " for " + job_text(i));
                return;
        }
    }

    // The begin time and the dependencies, at a job's first start.
    void check_start(std::size_t i, std::int64_t t) {
        const JobGen& g = jobs_[i];
        const JobModel& m = m_[i];
        if (t < g.begin)
            bad("begin", job_text(i) + " started at " + seconds(t) + " s, before its begin " +
                             seconds(g.begin) + " s");
        for (const rota_dependency& d : g.deps) {
            const JobModel& dm = m_[static_cast<std::size_t>(d.job)];
            const std::string dep =
                std::string(d.type == ROTA_AFTER_OK ? "afterok:" : "afterany:") +
                std::to_string(d.job);
            if (!final_state(dm.st)) {
                bad("dependency", job_text(i) + " started at " + seconds(t) + " s while " + dep +
                                      " is " + st_name(dm.st));
                continue;
            }
            if (t < dm.ended_at + d.delay)
                bad("dependency", job_text(i) + " started at " + seconds(t) + " s; " + dep +
                                      " ended at " + seconds(dm.ended_at) + " s, delay " +
                                      seconds(d.delay) + " s");
            if (d.type == ROTA_AFTER_OK && !(dm.st == St::finished && dm.ok))
                bad("afterok", job_text(i) + " started though " + dep + " ended " + st_name(dm.st) +
                                   (dm.st == St::finished ? " with a failure" : ""));
            if (c_.min_job_age_s == 0 && dm.ended_seq < m.submitted_seq)
                bad("dependency", job_text(i) + " started though " + dep +
                                      " ended before its submission, with no min_job_age: the "
                                      "engine could not know it");
        }
    }

    // Each component on one cluster, every one on a different cluster.
    void check_clusters(std::size_t i, const rota_action& a, const std::vector<std::int32_t>&) {
        const JobGen& g = jobs_[i];
        if (!a.run_cluster) {
            bad("clusters", "START of " + job_text(i) + " without run_cluster");
            return;
        }
        std::map<std::int32_t, std::int32_t> width;  // by cluster
        std::vector<std::int32_t> first(c_.clusters.size() + 1, 0);
        for (std::size_t k = 0; k < c_.clusters.size(); ++k)
            first[k + 1] = first[k] + c_.clusters[k];
        for (std::int32_t r = 0; r < a.nruns; ++r) {
            const std::int32_t c = a.run_cluster[r];
            if (c < 0 || c >= static_cast<std::int32_t>(c_.clusters.size()) ||
                a.runs[r].first < first[static_cast<std::size_t>(c)] ||
                a.runs[r].first + a.runs[r].count > first[static_cast<std::size_t>(c) + 1]) {
                bad("clusters", "START of " + job_text(i) + ": a run outside its cluster");
                continue;
            }
            width[c] += a.runs[r].count;
        }
        std::vector<std::int32_t> got, want = g.components;
        if (want.empty()) want.push_back(g.procs);
        for (const auto& [c, w] : width) got.push_back(w);
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        if (got != want)
            bad("clusters", "START of " + job_text(i) +
                                ": its components are not one per "
                                "cluster as submitted");
    }

    // The node sets job i may run on: its partitions, the default ones, or
    // the whole machine. Empty when it names a partition that does not exist.
    std::vector<std::vector<std::int32_t>> allowed(std::size_t i) const {
        std::vector<std::int32_t> all(static_cast<std::size_t>(c_.procs));
        for (std::int32_t k = 0; k < c_.procs; ++k) all[static_cast<std::size_t>(k)] = k;
        if (c_.partitions.empty()) return {all};
        std::vector<std::vector<std::int32_t>> out;
        const auto names = names_in(jobs_[i].partition);
        for (const std::string& n : names) {
            const auto p = std::find_if(c_.partitions.begin(), c_.partitions.end(),
                                        [&](const PartitionCfg& q) { return q.name == n; });
            if (p == c_.partitions.end()) return {};
            out.push_back(p->nodes);
        }
        if (names.empty()) {
            for (const PartitionCfg& p : c_.partitions)
                if (p.is_default) out.push_back(p.nodes);
            if (out.empty()) out.push_back(all);
        }
        return out;
    }

    static bool subset(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
        return std::includes(b.begin(), b.end(), a.begin(), a.end());
    }

    void check_nodes(std::size_t i) {
        const JobGen& g = jobs_[i];
        const JobModel& m = m_[i];
        for (std::int32_t x : g.exclude)
            if (std::binary_search(m.nodes.begin(), m.nodes.end(), x))
                bad("exclude",
                    job_text(i) + " runs on node " + std::to_string(x) + ", which it excludes");
        if (!subset(g.include, m.nodes))
            bad("include", job_text(i) + " runs on " + hostlist(m.nodes) +
                               ", without its node list " + hostlist(g.include));
        const auto sets = allowed(i);
        if (!std::any_of(sets.begin(), sets.end(),
                         [&](const std::vector<std::int32_t>& s) { return subset(m.nodes, s); }))
            bad("partition", job_text(i) + " (partition '" + g.partition + "') runs on " +
                                 hostlist(m.nodes) + ", in none of the partitions it may use");
    }

    // Whether job i can ever run here, or nothing when the model does not say.
    std::optional<bool> feasible(std::size_t i) const {
        const JobGen& g = jobs_[i];
        for (std::size_t k = 0; k < c_.pools.size(); ++k)
            if (g.pools[k] > c_.pools[k]) return false;
        if (!c_.clusters.empty()) {
            std::vector<std::int32_t> want = g.components, have = c_.clusters;
            if (want.empty()) want.push_back(g.procs);
            if (want.size() > have.size()) return false;
            std::sort(want.rbegin(), want.rend());
            std::sort(have.rbegin(), have.rend());
            for (std::size_t k = 0; k < want.size(); ++k)
                if (want[k] > have[k]) return false;
            return true;
        }
        const std::int32_t n = least(g);
        const auto sets = allowed(i);
        const bool fits = std::any_of(sets.begin(), sets.end(), [&](const auto& s) {
            if (!subset(g.include, s)) return false;
            std::vector<std::int32_t> usable;
            std::set_difference(s.begin(), s.end(), g.exclude.begin(), g.exclude.end(),
                                std::back_inserter(usable));
            return static_cast<std::int32_t>(usable.size()) >= n;
        });
        if (!fits) return false;
        if (c_.mode == Mode::classes) {
            const ClassCfg& k = class_of(g);
            if ((c_.job_procs > 0 && g.procs > c_.job_procs) ||
                (k.procs > 0 && g.procs > k.procs) ||
                (c_.system_procs > 0 && g.procs > c_.system_procs) ||
                (c_.large_job > 0 && g.procs >= c_.large_job && c_.large_procs > 0 &&
                 g.procs > c_.large_procs))
                return false;
        }
        return true;
    }

    const ClassCfg& class_of(const JobGen& g) const {
        return c_.classes[static_cast<std::size_t>(g.cls > 0 ? g.cls - 1 : c_.default_class)];
    }

    template <class F>
    std::vector<std::int64_t> list(F f) {
        std::size_t n = 0;
        f(nullptr, 0, &n);
        std::vector<std::int64_t> out(n);
        if (n > 0) f(out.data(), n, &n);
        return out;
    }

    void after_pass() {
        ++tally_.passes;
        rota_engine* e = e_.get();
        // The model against the engine's view.
        auto running = list([&](std::int64_t* o, std::size_t cap, std::size_t* n) {
            return rota_running(e, o, cap, n);
        });
        std::sort(running.begin(), running.end());
        std::vector<std::int64_t> mine;
        for (std::size_t i = 0; i < jobs_.size(); ++i)
            if (m_[i].st == St::running) mine.push_back(static_cast<std::int64_t>(i));
        if (running != mine)
            bad("model", "the engine runs " + std::to_string(running.size()) +
                             " jobs, the actions say " + std::to_string(mine.size()));
        for (std::int64_t id : mine) {
            const auto i = static_cast<std::size_t>(id);
            const JobModel& m = m_[i];
            std::size_t n = 0;
            std::vector<std::int32_t> nodes(static_cast<std::size_t>(c_.procs));
            if (rota_job_nodes(e, id, nodes.data(), nodes.size(), &n) == ROTA_OK) {
                nodes.resize(n);
                if (nodes != m.nodes)
                    bad("model", job_text(i) + " runs on " + hostlist(nodes) +
                                     " by the engine, on " + hostlist(m.nodes) + " by the actions");
            }
            if (c_.rows > 1) {
                std::int32_t home = -1;
                std::uint32_t mask = 0;
                if (rota_job_rows(e, id, &home, &mask) == ROTA_OK &&
                    (home != m.home || mask != m.rows))
                    bad("model", job_text(i) + " holds rows " + std::to_string(mask) + " from " +
                                     std::to_string(home) + " by the engine, " +
                                     std::to_string(m.rows) + " from " + std::to_string(m.home) +
                                     " by the actions");
                if (!(m.rows >> m.home & 1u))
                    bad("matrix", job_text(i) + " does not hold its home row");
            }
            check_nodes(i);
        }
        for (std::int32_t r = 0; r < c_.rows; ++r) {
            std::vector<std::int64_t> row(static_cast<std::size_t>(c_.procs));
            std::size_t n = 0;
            if (rota_matrix_row(e, r, row.data(), row.size(), &n) != ROTA_OK ||
                row != cells_[static_cast<std::size_t>(r)]) {
                std::string engine, actions;
                for (std::size_t k = 0; k < row.size(); ++k) {
                    engine += ' ' + std::to_string(row[k]);
                    actions += ' ' + std::to_string(cells_[static_cast<std::size_t>(r)][k]);
                }
                bad("model", "row " + std::to_string(r) + " of the matrix is" + engine +
                                 " by the engine," + actions + " by the actions");
            }
        }
        // Pools.
        for (std::size_t k = 0; k < c_.pools.size(); ++k) {
            std::int64_t used = 0;
            for (std::int64_t id : mine) used += jobs_[static_cast<std::size_t>(id)].pools[k];
            if (used > c_.pools[k])
                bad("pool", "pool r" + std::to_string(k) + " holds " + std::to_string(used) +
                                " of " + std::to_string(c_.pools[k]));
        }
        if (c_.mode == Mode::classes) check_classes(mine);
        if (c_.easy()) check_easy();
    }

    // [Feitelson97] §4.3: pass 1 loads a job past its class's maximum wait
    // checking the job processor limit only; the class and large-job
    // limits are pass 2's. Which waiting jobs are due before a pass.
    void mark_due() {
        for (std::size_t i = 0; i < jobs_.size(); ++i) {
            JobModel& m = m_[i];
            m.due = false;
            if (m.st != St::waiting) continue;
            rota_job_info info{};
            info.size = sizeof info;
            if (rota_job_info_get(e_.get(), static_cast<std::int64_t>(i), &info) != ROTA_OK ||
                info.wait_since < 0)
                continue;
            const std::int64_t max_wait = class_of(jobs_[i]).max_wait_ms;
            m.due = max_wait >= 0 && now_ - info.wait_since >= max_wait * kMs;
        }
    }

    void check_classes(const std::vector<std::int64_t>& loaded) {
        std::vector<std::int32_t> per(c_.classes.size(), 0), all(c_.classes.size(), 0);
        std::int32_t large = 0, system = 0;
        for (std::int64_t id : loaded) {
            const auto i = static_cast<std::size_t>(id);
            const JobGen& g = jobs_[i];
            all[static_cast<std::size_t>(g.cls > 0 ? g.cls - 1 : c_.default_class)] += g.procs;
            if (!m_[i].by_pass1) {
                per[static_cast<std::size_t>(g.cls > 0 ? g.cls - 1 : c_.default_class)] += g.procs;
                if (c_.large_job > 0 && g.procs >= c_.large_job) large += g.procs;
            }
            if (c_.job_procs > 0 && g.procs > c_.job_procs)
                bad("class limit", job_text(i) + " of " + std::to_string(g.procs) +
                                       " processors is loaded past the job limit");
            rota_job_info info{};
            info.size = sizeof info;
            if (rota_job_info_get(e_.get(), id, &info) == ROTA_OK) m_[i].dnd_end = info.dnd_end;
        }
        for (std::size_t i = 0; i < jobs_.size(); ++i)
            if (m_[i].st == St::running || (m_[i].st == St::waiting && m_[i].swapped))
                system += jobs_[i].procs;
        for (std::size_t k = 0; k < per.size(); ++k) {
            if (c_.classes[k].procs > 0 && per[k] > c_.classes[k].procs)
                bad("class limit", "class " + c_.classes[k].name + " has " +
                                       std::to_string(per[k]) + " processors loaded, past its " +
                                       std::to_string(c_.classes[k].procs));
            rota_class_info ci{};
            ci.size = sizeof ci;
            if (rota_class_info_get(e_.get(), static_cast<std::int32_t>(k) + 1, &ci) == ROTA_OK &&
                ci.loaded != all[k])
                bad("model", "class " + c_.classes[k].name + " has " + std::to_string(ci.loaded) +
                                 " processors loaded by the engine, " + std::to_string(all[k]) +
                                 " by the actions");
        }
        if (c_.large_job > 0 && c_.large_procs > 0 && large > c_.large_procs)
            bad("class limit", "large jobs hold " + std::to_string(large) + " processors, past " +
                                   std::to_string(c_.large_procs));
        if (c_.system_procs > 0 && system > c_.system_procs)
            bad("class limit", "jobs loaded or swapped out hold " + std::to_string(system) +
                                   " processors, past the system limit " +
                                   std::to_string(c_.system_procs));
    }

    // EASY: the first queued job holding a reservation keeps it, no later,
    // until it starts.
    void check_easy() {
        auto queue = list([&](std::int64_t* o, std::size_t cap, std::size_t* n) {
            return rota_queue(e_.get(), o, cap, n);
        });
        std::int64_t holder = -1, at = -1;
        for (std::int64_t id : queue) {
            rota_job_info info{};
            info.size = sizeof info;
            if (rota_job_info_get(e_.get(), id, &info) == ROTA_OK && info.reserved_start >= 0) {
                holder = id;
                at = info.reserved_start;
                break;
            }
        }
        if (easy_holder_ >= 0 && m_[static_cast<std::size_t>(easy_holder_)].st == St::waiting) {
            if (holder != easy_holder_)
                bad("easy",
                    job_text(static_cast<std::size_t>(easy_holder_)) +
                        " waits, but lost its reservation at " + seconds(easy_reserved_) + " s" +
                        (holder >= 0 ? " to job " + std::to_string(holder) : std::string()));
            else if (at > easy_reserved_)
                bad("easy", "the head's reservation (" +
                                job_text(static_cast<std::size_t>(holder)) +
                                ") moved later, from " + seconds(easy_reserved_) + " s to " +
                                seconds(at) + " s");
            else
                ++tally_.easy_compared;
        }
        easy_holder_ = holder;
        easy_reserved_ = at;
    }

    void at_the_end() {
        rota_engine* e = e_.get();
        for (auto f : {rota_queue, rota_running, rota_held}) {
            std::size_t n = 0;
            f(e, nullptr, 0, &n);
            if (n != 0) bad("lost", std::to_string(n) + " jobs are still in the engine");
        }
        for (std::size_t i = 0; i < jobs_.size(); ++i) {
            const JobModel& m = m_[i];
            const JobGen& g = jobs_[i];
            if (!final_state(m.st)) {
                rota_job_info info{};
                info.size = sizeof info;
                const int rc = rota_job_info_get(e, g.id, &info);
                bad("lost", job_text(i) + " is " + st_name(m.st) + " at the end (engine state " +
                                (rc == ROTA_OK ? std::to_string(info.state) : "unknown") + ")");
                continue;
            }
            // A failed afterok dependency, or one the engine could not
            // know, rejects the job.
            bool must_reject = false;
            bool dependency_reason = false;
            for (const rota_dependency& d : g.deps) {
                const JobModel& dm = m_[static_cast<std::size_t>(d.job)];
                const bool failed = !(dm.st == St::finished && dm.ok);
                const bool before = dm.ended_seq > 0 && dm.ended_seq < m.submitted_seq;
                const bool unknown = before && c_.min_job_age_s == 0;
                const bool remembered = before && c_.min_job_age_s > 0 &&
                                        m.submitted_at - dm.ended_at <= c_.min_job_age_s * kS;
                if ((d.type == ROTA_AFTER_OK && failed && (!before || remembered)) || unknown)
                    must_reject = true;
                const std::string id = std::to_string(d.job);
                if (m.reason.find("afterok:" + id + " ") != std::string::npos &&
                    d.type == ROTA_AFTER_OK && failed)
                    dependency_reason = true;
                if (m.reason.find("no job " + id + " is known") != std::string::npos) {
                    if (remembered)
                        bad("dependency", job_text(i) + " rejected: '" + m.reason + "'; job " + id +
                                              " ended " + seconds(m.submitted_at - dm.ended_at) +
                                              " s before its submission, within min_job_age");
                    else if (before)
                        dependency_reason = true;
                }
            }
            if (must_reject && m.st != St::rejected && m.st != St::cancelled)
                bad("afterok", job_text(i) + " is " + st_name(m.st) +
                                   "; a dependency of it failed or was unknown, so it must be "
                                   "rejected");
            if (m.st != St::rejected) continue;
            if (m.reason.find("dependency") != std::string::npos) {
                if (!dependency_reason)
                    bad("reject",
                        job_text(i) + " rejected for a dependency that could be met: " + m.reason);
            } else if (feasible(i) == true) {
                bad("reject", job_text(i) + " rejected though it can run here: " + m.reason);
            }
        }
        rota_counters k{};
        k.size = sizeof k;
        if (rota_counters_get(e, &k) == ROTA_OK &&
            (k.submitted != jobs_.size() || k.finished != tally_.finished ||
             k.killed != tally_.killed || k.rejected != tally_.rejected ||
             k.cancelled != tally_.cancelled))
            bad("lost", "the engine's counters (submitted " + std::to_string(k.submitted) +
                            ", finished " + std::to_string(k.finished) + ", killed " +
                            std::to_string(k.killed) + ", rejected " + std::to_string(k.rejected) +
                            ", cancelled " + std::to_string(k.cancelled) +
                            ") differ from the actions'");
    }
};

struct Outcome {
    Tally tally;
    std::vector<std::string> violations;
};

Outcome run_seed(std::uint64_t seed) {
    Rng r(seed);
    const Config c = make_config(r, static_cast<int>(seed % 4));
    auto jobs = make_jobs(r, c);
    INFO("seed " << seed << ", configuration:\n" << c.toml());
    Embedder em(c, std::move(jobs));
    em.run();
    return {em.tally(), em.violations()};
}

}  // namespace

TEST_CASE("compose properties: random composed configurations keep every property",
          "[compose][properties]") {
    Tally total;
    std::uint64_t from = 1, to = 10000;
    if (const char* one = std::getenv("ROTA_PROPS_SEED"))
        from = to = std::strtoull(one, nullptr, 10);
    for (std::uint64_t seed = from; seed <= to; ++seed) {
        const Outcome o = run_seed(seed);
        total.add(o.tally);
        if (!o.violations.empty() && std::getenv("ROTA_PROPS_VERBOSE")) {
            std::map<std::string, std::pair<int, std::string>> kinds;
            for (const std::string& v : o.violations) {
                auto& k = kinds[v.substr(0, v.find(']') + 1)];
                if (k.first++ == 0) k.second = v;
            }
            Rng r(seed);
            std::cerr << "seed " << seed << " ("
                      << make_config(r, static_cast<int>(seed % 4)).mode_name() << "):\n";
            for (const auto& [k, v] : kinds)
                std::cerr << "  " << v.first << " x " << v.second << "\n";
        }
        if (!o.violations.empty()) {
            Rng r(seed);
            INFO("seed " << seed << ", configuration:\n"
                         << make_config(r, static_cast<int>(seed % 4)).toml());
            std::string first;
            for (std::size_t k = 0; k < std::min<std::size_t>(o.violations.size(), 8); ++k)
                first += o.violations[k] + "\n";
            INFO(first);
            CHECK(o.violations.empty());
        }
    }
    if (std::getenv("ROTA_PROPS_VERBOSE")) {
        std::cerr << "configurations " << total.configs << ", jobs " << total.jobs << ", passes "
                  << total.passes << ", starts " << total.starts << ", finished " << total.finished
                  << ", killed " << total.killed << ", rejected " << total.rejected
                  << ", cancelled " << total.cancelled << ", swap-outs " << total.swap_outs
                  << ", grows " << total.grows << ", shrinks " << total.shrinks << ", replicas "
                  << total.replicas << ", EASY reservations compared " << total.easy_compared
                  << "\n";
        for (const auto& [k, v] : total.by_mode) std::cerr << "  " << k << ": " << v << "\n";
    }
}
