// slurm_view.h: one snapshot of what the Slurm controller knows, read
// through libslurm's public API. The daemon compares successive snapshots
// with the engine's state instead of listening to Slurm events, because
// libslurm offers no event stream to an outside program: polling is what
// every external scheduler of Slurm does.
#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <vector>

namespace rota_slurm {

// A node's standing as the engine needs it.
enum class Service { up, drain, down };

struct Job {
    uint32_t id = 0;
    uint32_t state = 0;          // JOB_PENDING, JOB_RUNNING, ... (base state)
    bool held = false;           // pending with priority 0: waits for a release
    uint32_t num_nodes = 0;      // nodes requested (the minimum; select/linear gives whole nodes)
    int64_t limit_s = -1;        // time limit in seconds, -1 if none
    std::time_t submit = 0;      // submit time, seconds since the epoch
    std::time_t start = 0;       // RUNNING, SUSPENDED: start time
    uint32_t restarts = 0;       // times Slurm requeued it (node failure, scontrol requeue)
    std::time_t begin = 0;       // PENDING: not eligible before (Slurm delays a requeued job)
    std::vector<int32_t> nodes;  // RUNNING, SUSPENDED: rota node numbers; PENDING: the
                                 // nodes it is pinned to (req_nodes), if any
    // What policies read as the job's account, partition and QOS; "" if
    // Slurm gives none.
    std::string account, partition, qos;
    int32_t user = -1;  // Slurm's user id, -1 past INT32_MAX
};

struct View {
    std::vector<std::string> node_names;  // rota node i is Slurm node node_names[i]
    std::vector<Service> service;         // per node
    std::vector<Job> jobs;
};

// Node names in the order rota numbers them: as Slurm's hostlists sort,
// digit runs compared as numbers (n2 before n10).
bool node_name_less(const std::string& a, const std::string& b);

// Reads nodes and jobs from the controller. `numbers` maps a node name to
// its rota number; when empty (the first call) it is built from the nodes
// and filled in. Returns false with `err` set when Slurm cannot be read.
bool load_view(View& v, std::map<std::string, int32_t>& numbers, std::string& err);

// "n1,n2,n5": the Slurm names of rota nodes, as req_nodes takes them.
std::string node_list(const View& v, const std::vector<int32_t>& nodes);

}  // namespace rota_slurm
