// What the engine needs to know about the machine and the scheduling pass.
// Reading it from TOML, presets included, is the C ABI's job
// (capi/config.cpp); the engine checks the values it is given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nodes.h"
#include "types.h"

namespace rota {

struct PoolConfig {
    std::string name;
    std::int64_t capacity = 0;

    bool operator==(const PoolConfig&) const = default;
};
// At most this many pools: every job carries an amount per pool, and each
// pass reads them (memory and time grow as jobs x pools: 20,000 pools took
// 4.5 GB and 87 s on KTH). [Leinberger99]'s K resources are up to 8; the
// simulator's generator makes at most 63 pools (64 resources).
inline constexpr std::size_t kMaxPools = 64;

// A partition: a named set of the machine's nodes (Slurm's PartitionName
// with its Nodes). Partitions may overlap. A job that names partitions runs
// on the nodes of one of them; one that names none runs in the default
// partitions (those marked default), or anywhere if none is marked.
struct PartitionConfig {
    std::string name;
    std::vector<NodeRun> nodes;  // sorted, disjoint
    bool is_default = false;

    bool operator==(const PartitionConfig& o) const {
        if (name != o.name || is_default != o.is_default || nodes.size() != o.nodes.size())
            return false;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].first != o.nodes[i].first || nodes[i].count != o.nodes[i].count)
                return false;
        return true;
    }
};

// One cluster of a multi-cluster machine ([Ngubiri07] §2.1): a range of
// consecutive nodes. Clusters are numbered in configuration order.
struct ClusterConfig {
    std::string name;
    std::int32_t nodes = 0;

    bool operator==(const ClusterConfig&) const = default;
};

// [Weissman03] §3's execution models: the run time on P processors of a job
// whose run time on its ideal P_ideal is RT_ideal. Linear:
// P_ideal * RT_ideal / P. Parabolic: a / P + b * P with
// a = P_ideal * RT_ideal / 2 and b = RT_ideal / (2 * P_ideal).
enum class ExecModel : std::uint8_t { linear, parabolic };

// The iScheduler ([Weissman03] §2.2, Figure 3(a)): malleable jobs that run on
// anything from their min to their ideal processors, harvested on arrival
// and grown on terminations. `enabled` replaces the walk by its schedule
// phase (engine/malleable.cpp).
struct MalleableConfig {
    bool enabled = false;
    ExecModel exec_model = ExecModel::linear;
    std::int32_t mpl_limit = 0;  // M of achieve_mp(M); 0: no limit
    // The control policy (§2.2), which every harvest respects.
    std::int32_t max_harvests = 0;  // most harvest events per job; 0: no limit
    Time protect_age = 0;           // jobs younger than this are not harvested
    bool cost_benefit = false;      // refuse a harvest that costs more than it gains
    // The adaptation overhead of §4.1: a grow or shrink of a job suspends it
    // for adapt_latency + adapt_per_byte * (its adapt_bytes) / P, P being
    // the processors it held (§4.1: 1 s + 0.00009 s per byte shipped).
    Time adapt_latency = 0;
    double adapt_per_byte = 0.0;  // microseconds per byte

    bool operator==(const MalleableConfig&) const = default;
};

// [Feitelson97] §4.2's job classes (Table 1): each has a priority, a maximum
// wait before the two-pass algorithm reserves processors for it, a
// do-not-disturb multiplier (x processors = the least time a job keeps
// its processors once loaded), a processor limit, and whether its jobs may
// be preempted at all (debug and benchmark may not).
struct JobClassConfig {
    std::string name;
    std::int32_t priority = 0;  // higher is served first
    Time max_wait = kForever;   // waited this long (to be loaded): pass 1
    Time dnd = 0;               // do-not-disturb time per processor
    std::int32_t procs = 0;     // most processors the class's loaded jobs hold; 0: none
    bool preemptable = true;

    bool operator==(const JobClassConfig&) const = default;
};

// §4.2's global limits; 0 means no limit.
struct ClassLimits {
    std::int32_t large_job = 0;    // a job of at least this many processors is "large"
    std::int32_t large_procs = 0;  // most processors loaded large jobs hold
    std::int32_t job_procs = 0;    // most processors of any one job
    // Processors of jobs loaded or swapped out (the over-allocation: 576 of
    // 256, 2.25, in the paper). A job not yet started waits if it would
    // pass it; preemption leaves it unchanged.
    std::int32_t system_procs = 0;

    bool operator==(const ClassLimits&) const = default;
};

struct ClassParams {
    std::vector<JobClassConfig> classes;
    ClassLimits limits;

    bool operator==(const ClassParams&) const = default;
};

// A parameter set for part of the week (§4.2: "daytime on week-days";
// interactive and production equal at night). `from` and `to` are seconds
// of the day; from > to spans midnight (it starts on the days named).
struct ClassPeriod {
    std::string name;
    std::uint8_t days = 0x7f;  // bit d: Monday = 0 .. Sunday = 6
    std::int32_t from = 0, to = 86400;
    ClassParams params;  // complete: the base set with the period's changes

    bool operator==(const ClassPeriod&) const = default;
};

// [Feitelson97] §4.3's two-pass algorithm with lazy preemption replaces the
// walk when `enabled` (engine/classes.cpp).
struct ClassesConfig {
    bool enabled = false;
    ClassParams base;
    std::vector<ClassPeriod> periods;  // the first that holds the time applies
    std::int32_t default_class = 0;
    // Time to move one processor's state to disk and back (§4.2: about one
    // second on the T3D); half is paid swapping out, half swapping in.
    Time swap_time = 0;
    // Seconds into the week (Monday 00:00 = 0) at engine time 0.
    std::int64_t week_origin = 0;

    bool operator==(const ClassesConfig&) const = default;
};

// How a job's columns are chosen in a row of the matrix (docs/design.md,
// "Packing"). first_fit: the lowest free columns, wherever they are.
// buddy: [Feitelson97] §3's buddy scheme (Feitelson 1996, "Packing schemes for
// gang scheduling", its reference [4]): a job of n processors holds a whole
// block of the buddy tree, n rounded up to the power of two p, aligned at a
// multiple of p, and runs on the block's first n columns; its replicas in
// other rows take the same block. The tree is over the power of two that
// covers the machine, its blocks clipped to the machine's columns.
enum class Packing : std::uint8_t { first_fit, buddy };

struct SchedulerConfig {
    // The machine (docs/design.md, "The machine model"): `procs` nodes, the
    // columns of an Ousterhout matrix of `rows` time slices ([Zhang00] §4),
    // and pooled resources shared by all rows ([Leinberger99]'s K resources).
    // One row is space sharing.
    std::int32_t procs = 0;
    std::vector<PoolConfig> pools;
    // Several clusters ([Ngubiri07]): `procs` is their sum, cluster c owns the
    // nodes after those of clusters 0..c-1, and every component of a job
    // lies in one cluster, each in a different one. Empty: one machine.
    std::vector<ClusterConfig> clusters;
    // Partitions of the nodes (docs/config.md, "Partitions"). With any, the
    // machine keeps which nodes are free over time (node_space.h).
    std::vector<PartitionConfig> partitions;
    std::int32_t rows = 1;
    Time slice = 0;  // time-slice length, > 0 when rows > 1
    // What happens to the jobs on a node that goes down when the embedder
    // leaves it to the configuration (ROTA_NODE_DEFAULT): requeued, or
    // killed (machine.node_down).
    bool node_down_requeues = false;

    // The schedule phase, the same walk in every row. Each row holds up to
    // `reservation_depth` reservations for jobs that cannot start: 1 is
    // EASY, kUnlimited conservative (BGS with more rows), 0 none (FPFS)
    // (Flux's reservation-depth; [Leinberger99] §2.1, [Zhang00] §5.2, [Ngubiri07]
    // §3). backfill = false: nothing passes the first job that cannot
    // start (FCFS, GS), which is then the only one that may hold one.
    bool backfill = true;
    std::int32_t reservation_depth = 1;
    static constexpr std::int32_t kUnlimited = -1;

    Packing packing = Packing::first_fit;

    // Migration between rows ([Zhang00] §5.4, MGS and MBGS).
    bool migration = false;
    Time migration_cost = 0;        // C: checkpoint C/2 + restart C/2
    std::int32_t migration_q = -1;  // Q: most tasks migrated per slice; -1 unlimited

    // The circuit breaker of every hook: after `quarantine_after`
    // consecutive failed calls (0: never) the hook is quarantined, its
    // fallback used without calling it, for `quarantine_time` of engine
    // time (0: until the policies are reloaded or replaced).
    std::int32_t quarantine_after = 50;
    Time quarantine_time = 600 * kSecond;
    // The work every hook call of one pass (or re-key) may add up to,
    // Lua VM instructions (0: no limit); past it the pass's remaining calls
    // use their fallbacks.
    std::int64_t pass_budget = 100'000'000;

    // Order keys that age (docs/design.md, "Order keys that change"): when
    // the order policy says its keys age, the whole queue is re-keyed and
    // re-sorted at the first pass at or after every multiple of
    // `rekey_interval` of engine time (0: only after a reload).
    Time rekey_interval = 300 * kSecond;
    // The users' usage (engine/usage.h) decays with this half-life; 0: none.
    Time usage_half_life = 0;
    // How long the engine remembers how an ended job ended, for a job
    // submitted later that depends on it (Slurm's MinJobAge); 0: not at
    // all, and a dependency on a job that has ended is on no known job.
    Time min_job_age = 0;

    MalleableConfig malleable;
    ClassesConfig classes;
};

}  // namespace rota
