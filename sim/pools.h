// Pooled resources in the simulator: [Leinberger99]'s K resources, processors
// being resource 1 and the machine's pools ([[machine.pools]]) resources
// 2..K. A workload's pool demands are kept beside its jobs, not in
// TraceJob, so that pool-free traces keep 40 bytes per job
// (docs/workloads.md, "Pools").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rota::sim {

// One pool of the machine: a name (used in rejection reasons) and a
// capacity in the pool's own unit (memory: KB).
struct PoolSpec {
    std::string name;
    std::int64_t capacity = 0;

    bool operator==(const PoolSpec&) const = default;
};

// The pools of a workload and every job's demand on each:
// demand[j * pools.size() + k] is job j's demand on pools[k] (the job's
// index in its workload, not its id). No pools: demand is empty.
struct PoolDemands {
    std::vector<PoolSpec> pools;
    std::vector<std::int64_t> demand;

    std::size_t count() const { return pools.size(); }
    bool empty() const { return pools.empty(); }
    // Job j's demands, pools.size() values; nullptr when there are no pools.
    const std::int64_t* of(std::size_t j) const {
        return pools.empty() ? nullptr : demand.data() + j * pools.size();
    }
    std::int64_t at(std::size_t j, std::size_t k) const { return demand[j * pools.size() + k]; }

    // [Leinberger99]'s R_ij of job j with `procs` processors on a machine of
    // `machine_procs`: its share of each of the K resources, processors
    // first, then the pools; each in [0, 1] when the job fits.
    std::vector<double> shares(std::size_t j, std::int32_t procs, std::int32_t machine_procs) const;
    // The job's resource requirement used to weight its response time: the
    // mean of its K shares (docs/workloads.md, "Metrics").
    double mean_share(std::size_t j, std::int32_t procs, std::int32_t machine_procs) const;
};

// "name=capacity", e.g. "memory=33554432" or "memory=32G" (suffixes K, M,
// G, T multiply by 1, 2^10, 2^20, 2^30: a memory pool counts KB). Throws
// std::invalid_argument naming what is wrong.
PoolSpec parse_pool_spec(const std::string& text);
// A positive amount with an optional K/M/G/T suffix, as above.
std::int64_t parse_amount(const std::string& text, const std::string& what);

// Gives `w` exactly the pools `machine` (names and capacities, in that
// order) plus the pools of `w` that `machine` does not name, appended.
// Demands follow their pool by name; a pool of `machine` that `w` does not
// demand gets demand 0 from every job, and its name goes to `unused`.
// `njobs` is the number of jobs of the workload.
void merge_pools(PoolDemands& w, std::size_t njobs, const std::vector<PoolSpec>& machine,
                 std::vector<std::string>* unused = nullptr);

// Number of jobs whose demand exceeds the pool's capacity, per pool (the
// engine rejects them at the pass after their arrival).
std::vector<std::int64_t> over_capacity(const PoolDemands& w, std::size_t njobs);

// A `.machines` file beside a trace (the Alea simulator's description of
// a cluster, as shared/traces/wagap-2013.swf.machines): one line per
// cluster, whitespace-separated: id, name, nodes, CPUs per node, a fifth
// column rota does not read, RAM per node in KB. Lines starting with '#'
// or ';' and blank lines are skipped.
struct MachinesFile {
    std::string path;
    std::int64_t nodes = 0;      // all clusters
    std::int64_t cpus = 0;       // sum of nodes x CPUs per node
    std::int64_t memory_kb = 0;  // sum of nodes x RAM per node
    std::int32_t clusters = 0;
};
// Reads `trace_path + ".machines"`; std::nullopt when there is no such file
// or the trace is standard input ("-"). Throws std::runtime_error naming the
// file and line when it is malformed (a column not a positive whole number,
// totals past int64), and naming the file when it is not a regular file of
// at most kMaxMachinesFileBytes.
constexpr std::int64_t kMaxMachinesFileBytes = std::int64_t{1} << 20;
std::optional<MachinesFile> read_machines_file(const std::string& trace_path);

}  // namespace rota::sim
