// `rota simulate`'s command line (simulate_args.h).
#include "simulate_args.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "cli_checks.h"
#include "clusters.h"
#include "generate.h"
#include "malleable.h"
#include "swf.h"

namespace rota::sim {

namespace {

// A flag typed on the command line that no run of this command reads is an
// error naming it, as `rota generate` has it (docs/reliability.md: a flag
// given is never silently ignored). Only flags: a file's keys may be
// broader on purpose (a sweep writes its seed key into every run's file).
// A flag counts as read when any of the policies reads it; `custom` takes
// its tables from the file and may read any of them.
void refuse_unread_flags(const RunConfig& rc, const std::function<bool(const char*)>& given) {
    const std::vector<std::string> policies =
        rc.policies.empty() ? std::vector<std::string>{"fcfs", "easy", "conservative"}
                            : rc.policies;
    const auto any = [&](auto pred) { return std::any_of(policies.begin(), policies.end(), pred); };
    const bool custom = any([](const std::string& p) { return p == "custom"; });
    const auto listed = [&] {
        std::string s;
        for (const auto& p : policies) s += (s.empty() ? "" : ", ") + p;
        return s;
    };
    const auto refuse = [&](const char* flag, const std::string& why) {
        if (given(flag)) throw ConfigError(std::string(flag) + ": " + why);
    };
    if (!rc.trace.empty())
        for (const char* f : {"--jobs", "--seed", "--load"})
            refuse(f, "has no effect on a trace (--trace " + rc.trace +
                          "): it is for the generated workload");
    if (rc.memory == "none")
        for (const char* f : {"--memory-units", "--memory-capacity"})
            refuse(f, "is read only with a memory pool (--memory requested, used or auto)");
    // The generated workload has no SWF fields to read these from.
    if (rc.trace.empty())
        for (const char* f : {"--memory", "--memory-units", "--memory-capacity", "--positive-use",
                              "--dependencies", "--partition-names"})
            refuse(f, "reads the trace's fields; the generated workload has none (give --trace)");
    if (rc.stop_rel_error <= 0)
        refuse("--stop-on", "is read only by the stopping rule (--stop-rel-error)");
    const bool gang = any([](const std::string& p) { return is_gang_preset(p); });
    // The context-switch overhead is the simulator's: a custom file's rows pay it too.
    if (!gang && !custom)
        refuse("--cs-overhead",
               "is read only by the gang presets gs, bgs, mgs and mbgs and custom; the policies "
               "here are " +
                   listed());
    if (!gang)
        for (const char* f : {"--mpl", "--slice"})
            refuse(
                f,
                "is read only by the gang presets gs, bgs, mgs and mbgs; the policies here are " +
                    listed());
    if (!any([](const std::string& p) { return p == "mgs" || p == "mbgs"; }))
        for (const char* f : {"--migration-cost", "--migration-q"})
            refuse(f,
                   "is read only by the presets with migration, mgs and mbgs; the policies here "
                   "are " +
                       listed());
    if (!any([](const std::string& p) { return p == "fpfs"; }))
        refuse("--max-jumps", "is read only by the preset fpfs; the policies here are " + listed());
    if (!custom && !any([](const std::string& p) { return is_malleable_policy(p); }))
        for (const char* f :
             {"--min-pct", "--exec-model", "--adapt-latency", "--adapt-per-byte", "--mpl-limit"})
            refuse(f,
                   "is read only by the malleable policies ([Weissman03]) and custom; the policies "
                   "here are " +
                       listed());
    if (!custom && !any([](const std::string& p) { return p == "classes"; }))
        for (const char* f : {"--interactive-procs", "--interactive-time"})
            refuse(f,
                   "is read only by the job classes (classes) and custom; the policies here are " +
                       listed());
    if (rc.arrival_rate <= 0 && rc.queue_length <= 0)
        refuse("--arrival-seed",
               "seeds the arrivals of --arrival-rate or --queue-length; "
               "neither is given");
}

// A hint when a trace is given where the configuration file goes: gzip
// data, or lines that start like SWF (';' comments, numeric records).
std::string swf_hint(const std::string& path) {
    std::error_code ec;  // a pipe or device is not read here (read_config_file says why)
    if (!std::filesystem::is_regular_file(path, ec)) return "";
    std::ifstream in(path, std::ios::binary);
    char magic[2] = {0, 0};
    in.read(magic, 2);
    if (in.gcount() == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
        static_cast<unsigned char>(magic[1]) == 0x8b)
        return "'" + path +
               "' is gzip-compressed, not a TOML configuration file; is it a trace? "
               "Use: rota simulate --trace " +
               path;
    in.clear();
    in.seekg(0);
    std::string line;
    int swf_like = 0, lines = 0;
    while (lines < 20 && std::getline(in, line)) {
        if (line.empty()) continue;
        ++lines;
        if (line[0] == ';') {
            ++swf_like;
            continue;
        }
        std::istringstream f(line);
        double x;
        int n = 0;
        while (f >> x) ++n;
        if (n >= 9 && f.eof()) ++swf_like;
    }
    if (lines > 0 && swf_like == lines)
        return "'" + path +
               "' looks like an SWF trace, not a TOML configuration file. Use: rota "
               "simulate --trace " +
               path;
    return {};
}

// The configuration, the trace, the machine, the policies and the outputs.
void add_run_flags(CLI::App* sim, SimulateArgs& a) {
    sim->add_option("config", a.config_path,
                    "a TOML configuration file (docs/config.md); flags override it")
        ->check(CLI::ExistingFile);
    sim->add_option("--trace", a.trace,
                    "the SWF trace to simulate, plain or gzipped, '-' for the standard input "
                    "[simulator.trace]; default: the built-in generated workload");
    sim->add_option("--procs", a.procs,
                    "machine size in processors [simulator.procs]; default: the trace header's "
                    "MaxProcs, else MaxNodes")
        ->check(int_at_least(1))
        ->check(CLI::Validator(
            [](std::string& in) -> std::string {
                return std::strtoll(in.c_str(), nullptr, 10) > kMaxMachineProcs
                           ? "a machine has at most " + std::to_string(kMaxMachineProcs) +
                                 " processors, not " + in
                           : std::string();
            },
            "", ""));
    sim->add_option(
           "--policy", a.policies,
           // The list is the one --policy accepts (policy_names), so it cannot fall behind.
           "the policies to compare, comma-separated or the flag repeated: " + policy_list() +
               " (custom: the configuration file's own engine tables) [simulator.policy]")
        ->delimiter(',')
        // One value per --policy, so that a configuration file given after
        // it is the file, not a policy name.
        ->allow_extra_args(false)
        ->default_str("fcfs,easy,conservative");
    sim->add_option("--compat", a.compat,
                    "none, or pyss: pyss's job mapping and event order [simulator.compat]")
        ->check(CLI::IsMember({"none", "pyss"}))
        ->default_str("none");
    sim->add_option("--jobs-csv", a.jobs_csv,
                    "write one CSV line per job to this file (one file per policy, suffixed, when "
                    "several run) [simulator.jobs_csv]");
    sim->add_option("--batsim-csv", a.batsim_csv,
                    "write Batsim's _jobs.csv columns to this file, for evalys "
                    "[simulator.batsim_csv]");
    sim->add_option("--jobs-npy", a.jobs_npy,
                    "write the --batsim-csv jobs as NumPy .npy records (numeric columns; "
                    "final_state 1 COMPLETED_SUCCESSFULLY, 2 COMPLETED_WALLTIME_REACHED, 3 "
                    "REJECTED) and their allocated_resources to FILE.nodes, one line each "
                    "[simulator.jobs_npy]");
    sim->add_option("--swf-out", a.swf_out,
                    "write the simulated schedule as SWF (wait times in field 3) "
                    "[simulator.swf_out]");
    sim->add_option("--summary-json", a.summary_json,
                    "write every metric, counter and the run's provenance as JSON "
                    "[simulator.summary_json]");
    sim->add_flag("--json", a.json_flag,
                  "print the summary JSON on the standard output instead of the table");
}

// Job classes, malleable jobs, FPFS, and the generated workload.
void add_model_flags(CLI::App* sim, SimulateArgs& a) {
    // [Feitelson97]: job classes (docs/user-guide.md, "Job classes").
    sim->add_option("--interactive-procs", a.interactive_procs,
                    "classes: a job of at most this many processors (and --interactive-time) is "
                    "in class interactive [simulator.interactive_procs]")
        ->check(int_at_least(0))
        ->default_str("64");
    sim->add_option("--interactive-time", a.interactive_time,
                    "classes: ... and at most this many seconds requested "
                    "[simulator.interactive_time]")
        ->check(int_at_least(0))
        ->default_str("7200");
    // [Weissman03]: malleable jobs (docs/user-guide.md, "Malleable jobs").
    sim->add_option("--min-pct", a.min_pct,
                    "malleable: each job's min as a percentage of its ideal (its processors), "
                    "rounded up [simulator.min_pct]")
        ->check(real_in(0, 100, true, false, "a percentage in (0, 100]"))
        ->default_str("100");
    sim->add_option("--mpl-limit", a.mpl_limit,
                    "malleable: M of achieve_mp(M), 0 for no limit [simulator.mpl_limit]")
        ->check(int_in(0, 1'000'000'000, "0 (no limit) or a count up to 1000000000"))
        ->default_str("0");
    sim->add_option("--exec-model", a.exec_model,
                    "malleable: run time on fewer processors than ideal [simulator.exec_model]")
        ->check(CLI::IsMember({"linear", "parabolic"}))
        ->default_str("linear");
    sim->add_option("--adapt-latency", a.adapt_latency,
                    "malleable: seconds every grow or shrink costs [simulator.adapt_latency]")
        // The engine's range (malleable.adapt_latency), named by the flag.
        ->check(real_in(0, 1e9, false, false, "a number of seconds from 0 to 1e9"))
        ->default_str("0");
    sim->add_option("--adapt-per-byte", a.adapt_per_byte,
                    "malleable: seconds per byte redistributed [simulator.adapt_per_byte]")
        ->check(real_in(0, 1e3, false, false, "a number of seconds per byte from 0 to 1000"))
        ->default_str("0");
    sim->add_option("--max-jumps", a.max_jumps,
                    "FPFS: how many times a job may be jumped over [simulator.max_jumps]")
        ->check(int_at_least(0))
        ->default_str("10");
    sim->add_option("--jobs", a.jobs,
                    "generated workload: number of jobs [simulator.workload.jobs]")
        ->check(int_in(1, kMaxJobs, "a whole number from 1 to 100000000"))
        ->default_str("10000");
    sim->add_option("--load", a.load, "generated workload: offered load [simulator.workload.load]")
        ->check(offered_load())
        ->default_str("0.5");
    sim->add_option("--seed", a.seed, "generated workload: random seed [simulator.workload.seed]")
        ->check(int_at_least(0))
        ->default_str("1");
    sim->add_flag("--no-progress", a.no_progress,
                  "no progress bar (shown only when stderr is a terminal) [simulator.progress]");
}

// Gang scheduling ([Zhang00]).
void add_gang_flags(CLI::App* sim, SimulateArgs& a) {
    sim->add_option("--mpl", a.mpl,
                    "gang: multiprogramming level, the matrix's rows [simulator.mpl]")
        ->check(int_in(1, 32, "a whole number from 1 to 32"))
        ->default_str("5");
    // The ranges of run_config.cpp's checks, so that an error names the flag.
    sim->add_option("--slice", a.slice, "gang: time slice in seconds [simulator.slice]")
        ->check(real_in(1e-6, 1e9, false, false,
                        "a number of seconds from one microsecond (0.000001) to 1e9"))
        ->default_str("200");
    sim->add_option("--cs-overhead", a.cs_overhead,
                    "gang: context-switch overhead, a fraction of the slice "
                    "[simulator.cs_overhead]")
        ->check(real_in(0, 1, false, true, "a number in [0, 1)"))
        ->default_str("0");
    sim->add_option("--migration-cost", a.migration_cost,
                    "gang: cost C of one migration in seconds [simulator.migration_cost]")
        ->check(real_in(0, 1e9, false, false, "a number of seconds from 0 to 1e9"))
        ->default_str("0");
    sim->add_option("--migration-q", a.migration_q,
                    "gang: most tasks migrated per slice, -1 for no limit "
                    "[simulator.migration_q]")
        ->check(int_in(-1, 1'000'000'000, "-1 (unlimited) or a count from 0 to 1000000000"))
        ->default_str("-1");
    sim->add_option("--packing", a.packing,
                    "gang: a job's columns in a row, first_fit or buddy ([Feitelson97] §3) "
                    "[simulator.packing]")
        ->check(CLI::IsMember({"first_fit", "buddy"}))
        ->default_str("first_fit");
    sim->add_option("--matrix-at", a.matrix_at,
                    "gang: print the matrix at this simulated time in seconds "
                    "[simulator.matrix_at]")
        ->check(real_in(0, 1e12, false, false, "a time in seconds from 0 to 1e12"));
}

// Pools, memory, arrivals, dependencies and partitions.
void add_resource_flags(CLI::App* sim, SimulateArgs& a) {
    sim->add_option("--pool", a.pool_flags,
                    "a pool of the machine, name=capacity, repeatable or comma-separated "
                    "([[machine.pools]]); replaces the capacity of a workload's pool of that name")
        ->delimiter(',');
    sim->add_option("--memory", a.memory,
                    "memory as a pool from SWF fields 10/7: none (default) | requested | used | "
                    "auto (requested, else used) [simulator.memory]")
        ->check(CLI::IsMember({"none", "requested", "used", "auto"}));
    sim->add_option("--memory-units", a.memory_units,
                    "how fields 7 and 10 read: kb-per-processor (SWF, default) | bytes-per-job "
                    "(wagap-2013) [simulator.memory_units]")
        ->check(CLI::IsMember({"kb-per-processor", "bytes-per-job"}));
    sim->add_option("--memory-capacity", a.memory_capacity,
                    "the memory pool's capacity in KB (suffix K, M, G, T: 32G); default: the "
                    ".machines file beside the trace [simulator.memory_capacity]");
    sim->add_flag("--positive-use", a.positive_use,
                  "keep only jobs with positive CPU time (field 6) and used memory (field 7), "
                  "[Leinberger99]'s NAS filter [simulator.positive_use]");
    sim->add_option("--cycle", a.cycle,
                    "a scheduling pass every S seconds (at multiples of S) while jobs wait, "
                    "as a batch system's scheduling cycle; 0: passes at events only "
                    "[simulator.cycle]")
        ->check(int_at_least(0))
        ->default_str("0");
    sim->add_option("--dependencies", a.dependencies,
                    "SWF fields 17 and 18 (preceding job, think time): follow | ignore | auto "
                    "(default: follow, except for Alea's extended SWF, which comes with a "
                    ".machines file) [simulator.dependencies]")
        ->check(CLI::IsMember({"follow", "ignore", "auto"}));
    sim->add_option("--queue-length", a.queue_length,
                    "replace the arrivals by Poisson ones calibrated so that FCFS/FF-EASY keeps "
                    "this mean ready queue ([Leinberger99] §4.1); 0: the workload's own arrivals "
                    "[simulator.queue_length]")
        ->check(nonnegative_real());
    sim->add_option("--arrival-rate", a.arrival_rate,
                    "replace the arrivals by Poisson ones at this rate, jobs/s; 0: the "
                    "workload's own arrivals [simulator.arrival_rate]")
        ->check(nonnegative_real());
    sim->add_option("--arrival-seed", a.arrival_seed,
                    "seed of the Poisson arrivals [simulator.arrival_seed]")
        ->check(int_at_least(0))
        ->default_str("1");

    sim->add_option("--partitions", a.partitions_flag,
                    "the machine's partitions, name=nodes separated by commas, a '*' after the "
                    "default ones: small=0-31,big=0-127* ([[machine.partitions]], which it "
                    "replaces)");
    sim->add_option("--partition-names", a.partition_names,
                    "what SWF field 16's partition numbers 1, 2, ... name, comma-separated; "
                    "default: the machine's partitions in configuration order "
                    "[simulator.partition_names]")
        ->delimiter(',');
}

// Clusters, [Ngubiri07]'s groups and the stopping rule.
void add_statistics_flags(CLI::App* sim, SimulateArgs& a) {
    sim->add_option(
        "--clusters", a.clusters_flag,
        "a multi-cluster machine ([Ngubiri07]): 5x20 or 20,20,16 ([[machine.clusters]]); "
        "default: the workload's '; Clusters:' header; none: one machine");
    sim->add_flag("--groups", a.groups_flag,
                  "report [Ngubiri07]'s groups C, S, W (automatic when the workload has "
                  "components) [simulator.groups]");
    sim->add_option("--size-groups", a.size_groups,
                    "the largest size of S1, S2, S3, e.g. 1,3,7; default: the quartiles of the "
                    "workload [simulator.size_groups]")
        ->delimiter(',');
    sim->add_option("--width-groups", a.width_groups,
                    "the largest widest component of W1, W2, W3; default: the workload's "
                    "quartiles [simulator.width_groups]")
        ->delimiter(',');
    sim->add_option(
           "--stop-rel-error", a.stop_rel_error,
           "stop when every average response time is known within this relative error "
           "([Ngubiri07]: 0.05), by batch means; 0: run every job [simulator.stop_rel_error]")
        ->check(nonnegative_real())
        ->default_str("0");
    sim->add_option("--warmup", a.warmup,
                    "leave the first N arrivals out of every metric [simulator.warmup]")
        ->check(int_at_least(0))
        ->default_str("0");
    sim->add_option("--batch-jobs", a.batch_jobs,
                    "batch means: jobs per batch at the start, doubled as the run grows (default "
                    "500) [simulator.batch_jobs]")
        ->check(int_at_least(1));
    sim->add_option("--min-batches", a.min_batches,
                    "batch means: batches before an interval is trusted (default 20) "
                    "[simulator.min_batches]")
        ->check(int_in(2, kMaxMinBatches,
                       "a count of batches from 2 to " + std::to_string(kMaxMinBatches)));
    sim->add_option("--confidence", a.confidence,
                    "confidence of the intervals (default 0.95) [simulator.confidence]")
        ->check(real_in(0, 1, true, true, "a number in (0, 1)"));
    sim->add_option("--stop-on", a.stop_on,
                    "groups (default): the whole stream and every group meet the rule | stream: "
                    "the whole stream only [simulator.stop_on]")
        ->check(CLI::IsMember({"groups", "stream"}));
}

// simulate_config's steps, in the order it checks the flags: each lays
// the flags of one concern over the file's run.
struct FlagsOverFile {
    const SimulateArgs& a;
    RunConfig& rc;

    // A flag given is taken as given, and checked (check_statistics,
    // the engine): a bad value is an error, never silently ignored.
    bool given(const char* flag) const { return a.command->count(flag) > 0; }

    void trace() {
        if (given("--trace") && a.trace.empty())
            throw ConfigError(
                "--trace: is empty: name a trace, or leave --trace out for the generated workload");
        if (!a.trace.empty()) rc.trace = a.trace;
    }

    // An empty output path would write nothing and say nothing.
    void refuse_empty_outputs() const {
        for (const char* f :
             {"--jobs-csv", "--summary-json", "--batsim-csv", "--jobs-npy", "--swf-out"})
            if (given(f) && a.command->get_option(f)->as<std::string>().empty())
                throw ConfigError(std::string(f) +
                                  ": is empty: name a file, or leave the flag out for no file");
    }

    void machine_and_policies() {
        if (given("--procs")) rc.procs = a.procs;
        if (!a.policies.empty()) {
            for (const auto& p : a.policies) check_policy(p);
            // custom runs the file's engine tables: without a file it would
            // run the engine's defaults under a name that promises more.
            if (a.config_path.empty() &&
                std::find(a.policies.begin(), a.policies.end(), "custom") != a.policies.end())
                throw ConfigError(
                    "--policy custom: runs a configuration file's own engine tables, and no "
                    "file is given (rota simulate FILE.toml --policy custom)");
            rc.policies = a.policies;
        }
        if (!a.compat.empty()) rc.compat = a.compat;
    }

    void outputs() {
        if (!a.jobs_csv.empty()) rc.jobs_csv = a.jobs_csv;
        if (!a.summary_json.empty()) rc.summary_json = a.summary_json;
        if (!a.batsim_csv.empty()) rc.batsim_csv = a.batsim_csv;
        if (!a.jobs_npy.empty()) rc.jobs_npy = a.jobs_npy;
        if (!a.swf_out.empty()) rc.swf_out = a.swf_out;
        if (a.json_flag) rc.json = true;
    }

    // FPFS, job classes, malleable jobs and the generated workload.
    void model() {
        if (given("--max-jumps")) rc.max_jumps = a.max_jumps;
        if (given("--min-pct")) rc.min_pct = a.min_pct;
        if (given("--interactive-procs")) rc.interactive_procs = a.interactive_procs;
        if (given("--interactive-time")) rc.interactive_time = a.interactive_time;
        if (given("--mpl-limit")) rc.mpl_limit = a.mpl_limit;
        if (given("--exec-model")) rc.exec_model = a.exec_model;
        if (given("--adapt-latency")) rc.adapt_latency = a.adapt_latency;
        if (given("--adapt-per-byte")) rc.adapt_per_byte = a.adapt_per_byte;
        if (given("--jobs")) rc.workload.jobs = a.jobs;
        if (given("--load")) rc.workload.load = a.load;
        if (given("--seed")) {
            if (a.seed < 0) throw std::invalid_argument("--seed must be >= 0");
            rc.workload.seed = static_cast<std::uint64_t>(a.seed);
        }
        if (a.no_progress) rc.progress = false;
    }

    void gang() {
        if (given("--mpl")) rc.mpl = a.mpl;
        if (given("--slice")) rc.slice = a.slice;
        if (given("--cs-overhead")) rc.cs_overhead = a.cs_overhead;
        if (given("--migration-cost")) rc.migration_cost = a.migration_cost;
        if (given("--migration-q")) rc.migration_q = a.migration_q;
        if (given("--packing")) rc.packing = a.packing;
        if (given("--matrix-at")) {
            if (!(a.matrix_at >= 0))
                throw std::invalid_argument("--matrix-at must be a time >= 0 in seconds");
            rc.matrix_at = a.matrix_at;
        }
    }

    void pools() {
        std::set<std::string> pools_given;
        for (const auto& f : a.pool_flags) {
            PoolSpec p;
            try {
                p = parse_pool_spec(f);
            } catch (const std::invalid_argument& e) {
                throw ConfigError(std::string("--pool: ") + e.what());
            }
            if (!pools_given.insert(p.name).second)
                throw ConfigError("--pool: pool '" + p.name + "' is given twice");
            bool replaced = false;
            for (auto& q : rc.pools)
                if (q.name == p.name) q = p, replaced = true;
            if (!replaced) rc.pools.push_back(p);
        }
    }

    // How the trace's fields read: memory, dependencies, partitions.
    void trace_fields() {
        if (!a.memory.empty()) rc.memory = a.memory;
        if (!a.memory_units.empty()) rc.memory_units = a.memory_units;
        if (!a.memory_capacity.empty()) {
            try {
                rc.memory_capacity = parse_amount(a.memory_capacity, "--memory-capacity");
            } catch (const std::invalid_argument& e) {
                throw ConfigError(e.what());
            }
        }
        if (a.positive_use) rc.positive_use = true;
        if (!a.dependencies.empty()) rc.dependencies = a.dependencies;
        if (given("--partitions")) try {
                rc.partitions = parse_partitions(a.partitions_flag);
            } catch (const std::invalid_argument& e) {
                throw ConfigError(std::string("--partitions: ") + e.what());
            }
        if (given("--partition-names")) try {
                check_partition_names(a.partition_names);
                rc.partition_names = a.partition_names;
            } catch (const std::invalid_argument& e) {
                throw ConfigError(std::string("--partition-names: ") + e.what());
            }
    }

    void arrivals() {
        if (a.cycle >= 0) rc.cycle = a.cycle;
        if (a.queue_length >= 0) rc.queue_length = a.queue_length;
        if (a.arrival_rate >= 0) rc.arrival_rate = a.arrival_rate;
        if (a.arrival_seed >= 0) rc.arrival_seed = static_cast<std::uint64_t>(a.arrival_seed);
    }

    void clusters_and_group_bounds() {
        try {
            if (a.clusters_flag == "none") {
                rc.clusters.clear();
                rc.one_machine = true;
            } else if (given("--clusters")) {
                try {
                    rc.clusters = parse_clusters(a.clusters_flag);
                } catch (const std::invalid_argument& e) {
                    throw std::invalid_argument(std::string("--") + e.what());
                }
            }
            if (!a.size_groups.empty()) check_group_bounds(a.size_groups, "--size-groups");
            if (!a.width_groups.empty()) check_group_bounds(a.width_groups, "--width-groups");
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
        }
    }

    // [Ngubiri07]'s groups and the stopping rule.
    void statistics() {
        if (a.groups_flag) rc.groups = true;
        if (!a.size_groups.empty()) rc.size_groups = a.size_groups;
        if (!a.width_groups.empty()) rc.width_groups = a.width_groups;
        if (a.stop_rel_error >= 0) rc.stop_rel_error = a.stop_rel_error;
        if (a.warmup >= 0) rc.warmup = a.warmup;
        if (a.batch_jobs >= 0) rc.batch_jobs = a.batch_jobs;
        if (a.min_batches >= 0) rc.min_batches = a.min_batches;
        if (a.confidence >= 0) rc.confidence = a.confidence;
        if (!a.stop_on.empty()) rc.stop_on = a.stop_on;
        for (const char* f :
             {"--size-groups", "--width-groups", "--confidence", "--batch-jobs", "--min-batches"})
            if (given(f)) rc.group_flags.emplace_back(f);
    }
};

}  // namespace

// Adds the `simulate` subcommand to app, its flags bound to `a`.
void add_simulate_command(CLI::App& app, SimulateArgs& a) {
    auto* sim = a.command = app.add_subcommand(
        "simulate", "simulate a trace or a generated workload under one or more policies");
    for (auto* add :
         {add_run_flags, add_model_flags, add_gang_flags, add_resource_flags, add_statistics_flags})
        add(sim, a);
}

// The run's configuration: the file's (or the defaults), then every flag
// given, checked.
RunConfig simulate_config(const SimulateArgs& a) {
    if (!a.config_path.empty())
        if (const std::string hint = swf_hint(a.config_path); !hint.empty())
            throw ConfigError(hint);
    RunConfig rc = load_run_config(a.config_path);
    FlagsOverFile f{a, rc};
    f.trace();
    f.refuse_empty_outputs();
    f.machine_and_policies();
    f.outputs();
    f.model();
    f.gang();
    f.pools();
    f.trace_fields();
    f.arrivals();
    f.clusters_and_group_bounds();
    f.statistics();
    check_statistics(rc);
    refuse_unread_flags(rc, [&](const char* flag) { return f.given(flag); });
    return rc;
}

}  // namespace rota::sim
