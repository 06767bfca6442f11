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
    // Slurm gives none. The engine runs the job in one of the partitions
    // `partition` names ("small,mid"), as Slurm would.
    std::string account, partition, qos;
    int32_t user = -1;  // Slurm's user id, -1 past INT32_MAX
    // What the user asked for, as Slurm has it: --nodelist (req_nodes,
    // also where this daemon pins a job it releases) and --exclude, each as
    // Slurm's hostlist and as rota node numbers; the dependencies Slurm
    // still waits for (afterok and afterany, with +minutes as a delay);
    // -L licences, an amount per View::licenses.
    std::string req_nodes, exc_nodes;
    std::vector<int32_t> exclude;
    struct Dependency {
        uint32_t job;
        bool ok;  // afterok: the job must end successfully
        int64_t delay_s;
    };
    std::vector<Dependency> depends;
    std::vector<int64_t> licenses;
    std::string admin_comment;  // where rota tells why a job waits or was rejected
    bool succeeded = false;     // ended COMPLETED with exit code 0
};

// A Slurm partition: its name, its nodes by rota number, whether it is the
// default (Default=YES).
struct Partition {
    std::string name;
    std::vector<int32_t> nodes;
    bool is_default = false;
};

// A cluster licence (Licenses= in slurm.conf): a pool of the engine.
struct License {
    std::string name;
    int64_t total = 0;
};

struct View {
    std::vector<std::string> node_names;  // rota node i is Slurm node node_names[i]
    std::vector<Service> service;         // per node
    std::vector<Job> jobs;
    std::vector<Partition> partitions;  // as slurm.conf lists them
    std::vector<License> licenses;      // local ones, as Slurm lists them
    // When the controller built each part of this view (its last_update):
    // the next load asks for what changed since, and a part that has not
    // changed is kept as it is (SLURM_NO_CHANGE_IN_DATA). 0: load it whole.
    std::time_t nodes_at = 0, partitions_at = 0, licenses_at = 0, jobs_at = 0;
};

// Node names in the order rota numbers them: as Slurm's hostlists sort,
// digit runs compared as numbers (n2 before n10).
bool node_name_less(const std::string& a, const std::string& b);

// Reads nodes, partitions, licences and jobs from the controller, each
// only if it changed since `v` was last loaded (the controller answers an
// unchanged part in a few bytes, so polling often costs it little).
// `numbers` maps a node name to its rota number; when empty (the first
// call) it is built from the nodes and filled in. Returns false with `err`
// set when Slurm cannot be read; the parts already read are then loaded
// whole next time.
bool load_view(View& v, std::map<std::string, int32_t>& numbers, std::string& err);

// "n1,n2,n5": the Slurm names of rota nodes, as req_nodes takes them.
std::string node_list(const View& v, const std::vector<int32_t>& nodes);

// "0-1,5": rota node numbers as the engine's configuration writes them.
std::string node_ranges(const std::vector<int32_t>& nodes);

// The site as engine configuration: a [[machine.partitions]] table for each
// of Slurm's partitions and a [[machine.pools]] table for each licence,
// TOML to append to the configuration file's text. "" for a site with one
// partition holding every node and no licence (the engine needs neither).
std::string site_config(const View& v);

// Slurm's dependency text ("afterok:12(unfulfilled),afterany:7+5(unfulfilled)"):
// the afterok and afterany terms still unfulfilled. Others (after,
// afternotok, singleton, '?' alternatives) are left to Slurm, which still
// enforces them on the released job; `skipped` counts them.
std::vector<Job::Dependency> parse_dependencies(const char* text, int& skipped);

// "lic:2,other": amounts per licence of `licenses` ("other" is 1).
std::vector<int64_t> parse_licenses(const char* text, const std::vector<License>& licenses);

}  // namespace rota_slurm
