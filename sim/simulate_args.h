// `rota simulate`'s command line: its flags, bound to a SimulateArgs, and
// the run's configuration they make with the file's (simulate_run.h runs it).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "run_config.h"

namespace rota::sim {

// `rota simulate`'s flags, bound by add_simulate_command; -1 (or empty)
// where a flag was not given, except where CLI11 counts them (given()).
struct SimulateArgs {
    CLI::App* command = nullptr;
    std::string config_path;
    std::string trace;
    std::string compat;
    std::string jobs_csv;
    std::string summary_json;
    std::vector<std::string> policies;
    std::int32_t procs = 0;
    std::int64_t max_jumps = -1;
    std::int64_t jobs = -1;
    double load = -1;
    std::int64_t seed = -1;
    bool no_progress = false;
    std::int64_t mpl = -1;
    std::int64_t migration_q = -2;
    double slice = -1;
    double cs_overhead = -1;
    double migration_cost = -1;
    double matrix_at = -1;
    std::vector<std::string> pool_flags;
    std::string memory;
    std::string memory_units;
    std::string memory_capacity;
    bool positive_use = false;
    double queue_length = -1;
    double arrival_rate = -1;
    std::int64_t arrival_seed = -1;
    std::string batsim_csv;
    std::string jobs_npy;
    std::string swf_out;
    double min_pct = -1;
    double adapt_latency = -1;
    double adapt_per_byte = -1;
    std::int64_t interactive_procs = -1;
    std::int64_t interactive_time = -1;
    std::int64_t mpl_limit = -1;
    std::string exec_model;
    std::string packing;
    bool json_flag = false;
    std::int64_t cycle = -1;
    std::string dependencies;
    std::string partitions_flag;
    std::vector<std::string> partition_names;
    std::string clusters_flag;
    std::string stop_on;
    bool groups_flag = false;
    std::vector<std::int32_t> size_groups;
    std::vector<std::int32_t> width_groups;
    double stop_rel_error = -1;
    double confidence = -1;
    std::int64_t warmup = -1;
    std::int64_t batch_jobs = -1;
    std::int32_t min_batches = -1;
};

// Adds the `simulate` subcommand to app, its flags bound to `a`.
void add_simulate_command(CLI::App& app, SimulateArgs& a);
// The run's configuration: the file's (or the defaults), then every flag
// given, checked. A usage fault throws ConfigError or std::invalid_argument.
RunConfig simulate_config(const SimulateArgs& a);

}  // namespace rota::sim
