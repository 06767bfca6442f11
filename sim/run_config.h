// The `rota simulate` configuration: the [simulator] table of the TOML file
// (docs/config.md), overridden by command-line flags, plus the engine's own
// tables, which are handed to rota_engine_new() with the chosen policy
// preset applied.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "clusters.h"
#include "generate.h"
#include "partitions.h"
#include "pools.h"
#include "rota.h"
#include "swf.h"

namespace rota::sim {

class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The offered loads a generated workload may ask for: far below the least,
// the gaps between arrivals leave the time axis.
constexpr double kMinLoad = 0.001, kMaxLoad = 1000;

// The most batches --min-batches may ask for: the batch means keep up to
// twice as many, which must stay an int32.
constexpr std::int32_t kMaxMinBatches = 1'000'000;

struct RunConfig {
    std::string trace;                  // empty: the generated workload
    std::int32_t procs = 0;             // 0: from the trace header
    std::vector<std::string> policies;  // fcfs, easy, conservative, fpfs
    std::string compat = "none";        // none | pyss
    std::string jobs_csv;
    std::string summary_json;
    std::string batsim_csv;  // Batsim's _jobs.csv (outputs.h)
    std::string jobs_npy;    // its records as .npy, nodes beside (jobs_npy.h)
    std::string swf_out;     // the simulated schedule as SWF
    bool json = false;       // the summary JSON on stdout instead of the table
    std::int64_t max_jumps = 10;
    // Gang scheduling presets gs, bgs, mgs, mbgs ([Zhang00] §5).
    std::int64_t mpl = 5;
    double slice = 200.0;           // seconds
    double cs_overhead = 0.0;       // fraction of the slice
    double migration_cost = 0.0;    // C, seconds
    std::int64_t migration_q = -1;  // tasks per slice, -1 unlimited
    double matrix_at = -1;          // print the matrix at this time (seconds)
    // gang.packing of the gang presets: first_fit | buddy ([Feitelson97] §3).
    std::string packing = "first_fit";
    bool progress = true;
    // The machine's pools: the file's [[machine.pools]], then --pool flags
    // (a flag replaces the file's pool of the same name). engine_toml()
    // writes them as [[machine.pools]]; the workload's pools are merged in
    // by name (merge_pools) before the runs.
    std::vector<PoolSpec> pools;
    // Memory as a pool (docs/workloads.md, "Memory as a pool").
    // The group and statistics flags given on the command line: an error
    // names the first when the run has no groups (nothing reads them).
    std::vector<std::string> group_flags;
    std::string memory = "none";                    // none | requested | used | auto
    std::string memory_units = "kb-per-processor";  // | bytes-per-job
    std::int64_t memory_capacity = 0;               // KB; 0: the .machines file
    bool positive_use = false;  // keep jobs with CPU and memory use only [Leinberger99 §4.1]
    // SWF fields 17 and 18: follow | ignore | auto (swf.h, DependencyMode).
    std::string dependencies = "auto";
    // A pass every `cycle` seconds while jobs wait (SimOptions::cycle); 0: none.
    std::int64_t cycle = 0;
    // Poisson arrivals replacing the workload's ([Leinberger99] §4.1): at
    // arrival_rate jobs/s if > 0, else calibrated so that FCFS/FF-EASY keeps
    // queue_length waiting jobs on average if > 0; else the workload's own.
    double queue_length = 0;
    double arrival_rate = 0;
    std::uint64_t arrival_seed = 1;
    // A multi-cluster machine ([Ngubiri07] §2.1): the file's
    // [[machine.clusters]], replaced by --clusters; empty: the workload's
    // "; Clusters:" header, else one machine of `procs`. engine_toml()
    // writes them back as [[machine.clusters]] with machine.procs their sum.
    std::vector<ClusterSpec> clusters;
    bool one_machine = false;  // --clusters none: not even the workload's clusters
    // The machine's partitions from --partitions, which replace the file's
    // [[machine.partitions]] (engine_toml() writes them); empty: the file's,
    // if any.
    std::vector<PartitionSpec> partitions;
    // SWF field 16 (partition number) p >= 1 names partition_names[p - 1]
    // ([simulator] partition_names, --partition-names); empty: on a machine
    // with partitions, the p-th of them in configuration order, else the
    // number in decimal (docs/workloads.md, "Partitions: field 16").
    std::vector<std::string> partition_names;
    // Group-wise metrics and the stopping rule of [Ngubiri07] §4.2
    // (docs/workloads.md, "Group-wise metrics"). Groups are reported when
    // the workload has components, when `groups` is set, or with the rule.
    bool groups = false;
    std::vector<std::int32_t> size_groups;   // the largest size of S1..S3; empty: derived
    std::vector<std::int32_t> width_groups;  // the largest widest component of W1..W3
    double stop_rel_error = 0;               // 0: no stopping rule
    std::int64_t warmup = 0;                 // jobs left out of every metric, arrival order
    std::int64_t batch_jobs = 500;           // the first batch size of the batch means
    std::int32_t min_batches = 20;           // batches before the rule may hold
    double confidence = 0.95;
    std::string stop_on = "groups";  // groups | stream
    // [Weissman03] (malleable.h): min = ceil(min_pct % of ideal), M, the
    // execution model and the adaptation cost.
    double min_pct = 100.0;
    std::int64_t mpl_limit = 0;  // 0: no limit
    std::string exec_model = "linear";
    double adapt_latency = 0.0;   // seconds
    double adapt_per_byte = 0.0;  // seconds per byte
    // [Feitelson97] (classes.h): a job within both is in class "interactive".
    std::int64_t interactive_procs = 64;          // §4.6's limits on the T3D
    std::int64_t interactive_time = 7200;         // requested seconds
    GenerateOptions workload = lublin_options();  // [simulator.workload]
    bool workload_given = false;                  // the file has that table
    toml::table engine;                           // every table but [simulator]
    std::string base_dir = ".";                   // where the config file is
    std::string config_file;                      // the config file, if any
};

// Throws std::invalid_argument unless `v` holds three increasing positive
// group boundaries; `what` names them in the message.
void check_group_bounds(const std::vector<std::int32_t>& v, const std::string& what);
// Throws ConfigError for statistics options out of range.
void check_statistics(const RunConfig&);
// generate_workload for the workload the configuration describes
// ([simulator.workload]): a setting out of range is a ConfigError naming
// its key, simulator.workload.<setting>.
GeneratedWorkload generate_configured(const GenerateOptions&);

// How `rota simulate` and `rota top` read the run's trace: the mapping,
// memory, dependency and filter options of the config. Throws
// std::invalid_argument for a value the options do not know.
LoadOptions load_options(const RunConfig& rc);
// The simulated machine's processors for a loaded trace: the config's if
// set, else the header's MaxProcs or MaxNodes, else the .machines file's.
// Throws std::invalid_argument when none gives one.
std::int32_t trace_procs(const RunConfig& rc, const Trace& t);

// The text of a configuration (or sweep) file: a regular file of at most
// kMaxConfigBytes. Throws ConfigError for a directory, a pipe, a device or
// a larger file, which would hang the reader or fill memory.
constexpr std::int64_t kMaxConfigBytes = std::int64_t{16} << 20;
std::string read_config_file(const std::string& path);

// Reads a config file; "" gives the defaults. Throws ConfigError naming the
// key for an unknown key or a wrong type.
RunConfig load_run_config(const std::string& path);

// Policy names accepted by --policy: the engine's presets and "custom".
const std::vector<std::string>& policy_names();
std::string policy_list();  // "fcfs, easy, ...": the names, comma-separated
void check_policy(const std::string& name);
// The presets with more than one row, which the gang keys describe.
bool is_gang_preset(const std::string& name);

// The engine configuration for one run: the file's engine tables with the
// machine size and scheduler.preset set (docs/config.md, "Presets"). When
// a table of the file is left out for this preset, `note` says so.
// The simulated machine's size is the trace's, the generated workload's,
// simulator.procs' or --procs': a file's machine.procs must be that one,
// or absent (ConfigError naming the key), never silently replaced.
void check_machine_procs(const RunConfig& rc, std::int32_t procs);
std::string engine_toml(const RunConfig& rc, const std::string& policy, std::int32_t procs,
                        std::string* note = nullptr);

// The names of the machine's partitions, in configuration order:
// --partitions', else the file's [[machine.partitions]]; empty without.
std::vector<std::string> machine_partition_names(const RunConfig& rc);
// What SWF field 16's numbers name, number p the (p - 1)-th (empty: the
// number itself, in decimal), and where that comes from, for messages:
// partition_names, else the machine's partitions. Throws ConfigError for
// a partition_names entry that is no partition of a machine that has
// partitions.
std::vector<std::string> field16_names(const RunConfig& rc, std::string* from);

}  // namespace rota::sim
