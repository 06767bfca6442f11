// The `rota` command-line tool: simulate traces and generated workloads
// under the engine's policies, and generate synthetic workloads.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <sstream>

#include "calibrate.h"
#include "classes.h"
#include "cli_checks.h"
#include "clusters.h"
#include "escape.h"
#include "generate.h"
#include "generate_command.h"
#include "groups.h"
#include "jobs_npy.h"
#include "malleable.h"
#include "matrix_view.h"
#include "metrics.h"
#include "output_file.h"
#include "outputs.h"
#include "run_config.h"
#include "sha256.h"
#include "simulation.h"
#include "stopping.h"
#include "sweep.h"
#include "swf.h"
#include "top_command.h"
#include "weissman.h"

using namespace rota::sim;

namespace {

struct Workload {
    std::string name;
    std::vector<TraceJob> jobs;
    std::int32_t procs = 0;
    MappingStats stats;
    PoolDemands pools;
    std::vector<double> unit_arrivals;  // a generated workload's own unit-rate arrivals
    Components components;              // [Ngubiri07]: every job's widths, or empty
    std::vector<ClusterSpec> clusters;  // the machine the workload declares (its header)
    double time_unit = 0;               // seconds per model time unit, if declared
    std::vector<std::string> notes;     // printed after the workload's name
    nlohmann::json info = nlohmann::json::object();  // memory, arrivals: for the summary JSON
    Dependencies deps;                               // SWF fields 17 and 18, or empty
    std::vector<std::int32_t> partitions;            // SWF field 16 per job, or empty
    std::vector<std::int64_t> adapt_bytes;           // AdaptBytes of field 14 per job, or empty
};

std::string thousands(std::int64_t v) {
    std::string s = std::to_string(v < 0 ? -v : v), out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return v < 0 ? "-" + out : out;
}

// The workload's dependencies, in its notes and its summary JSON.
void note_dependencies(Workload& w, const std::string& mode, std::int64_t dropped) {
    const std::size_t n = w.deps.count();
    if (n == 0 && dropped == 0) return;
    w.notes.push_back(fmt::format(
        "dependencies: {} of the {} jobs are submitted when the job they follow ends, plus their "
        "think time (SWF fields 17 and 18){}",
        thousands(static_cast<std::int64_t>(n)),
        thousands(static_cast<std::int64_t>(w.jobs.size())),
        dropped > 0 ? fmt::format("; {} follow a job the mapping skipped and keep their own submit "
                                  "time",
                                  thousands(dropped))
                    : std::string()));
    w.info["dependencies"] = {{"mode", mode}, {"dependent_jobs", n}, {"dropped", dropped}};
}

Workload load_workload(const RunConfig& rc) {
    Workload w;
    if (rc.trace.empty()) {
        GenerateOptions g = rc.workload;
        if (rc.procs > 0) g.procs = rc.procs;
        w.name = "generated: " + describe(g);
        // The fitted log is an input: its faults exit 1, as a trace's do.
        if (!g.fit_trace.empty()) try {
                fit_weissman_trace(g.fit_trace);
            } catch (const std::exception& e) {
                throw std::runtime_error(g.fit_trace + ": " + e.what());
            }
        GeneratedWorkload gw = generate_configured(g);
        w.jobs = std::move(gw.jobs);
        w.pools = std::move(gw.pools);
        w.unit_arrivals = std::move(gw.unit_arrivals);
        w.components = std::move(gw.components);
        w.deps = std::move(gw.deps);
        if (!gw.apps.empty()) {  // [Weissman03] §4.1: each job's adaptation bytes
            w.adapt_bytes.resize(w.jobs.size(), 0);
            for (std::size_t i = 0; i < w.jobs.size(); ++i)
                for (const auto& e : gw.apps.entries)
                    if (e.executable == gw.apps.executable[i]) w.adapt_bytes[i] = e.adapt_bytes;
        }
        note_dependencies(w, "generated", 0);
        w.procs = g.procs;
        if (g.model == WorkloadModel::ngubiri) {
            for (auto n : g.clusters) w.clusters.push_back({"", n});
            w.procs = static_cast<std::int32_t>(total_nodes(w.clusters));
            w.time_unit = g.time_unit;
        }
        return w;
    }
    LoadOptions lo;
    Trace t;
    try {
        lo = load_options(rc);
        t = load_trace(rc.trace, lo);
        w.procs = trace_procs(rc, t);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    if (t.machines && rc.procs <= 0 && t.header.max_procs <= 0 && t.header.max_nodes <= 0)
        w.notes.push_back("processors from " + t.machines->path + ": " +
                          thousands(t.machines->cpus) + " (" +
                          std::to_string(t.machines->clusters) + " clusters)");
    w.name = rc.trace == "-" ? std::string("standard input") : escaped(rc.trace);
    w.jobs = std::move(t.jobs);
    w.stats = std::move(t.stats);
    w.pools = std::move(t.pools);
    w.components = std::move(t.components);
    w.clusters = t.header.clusters;
    w.time_unit = t.header.time_unit;
    w.deps = std::move(t.deps);
    w.partitions = std::move(t.partitions);
    w.adapt_bytes = std::move(t.adapt_bytes);
    note_dependencies(w, t.deps_followed ? "follow" : "ignore", w.stats.dependencies_dropped);
    if (!t.deps_followed && lo.dependencies == DependencyMode::automatic && t.machines)
        w.notes.push_back(
            "note: fields 17 and 18 are not read as dependencies: a .machines file marks the "
            "Alea simulator's extended SWF, which uses them otherwise (--dependencies follow "
            "reads them)");
    if (lo.memory != MemorySource::none) {
        const auto& st = w.stats;
        std::int64_t cap = 0;
        for (const auto& p : w.pools.pools)
            if (p.name == kMemoryPool) cap = p.capacity;
        w.notes.push_back("memory pool: " + thousands(cap) + " KB" +
                          (rc.memory_capacity > 0 ? ""
                           : t.machines           ? " (from " + t.machines->path + ")"
                                                  : "") +
                          "; demand: " + memory_source_name(lo.memory) + " memory read as " +
                          memory_units_name(lo.memory_units));
        if (t.machines && lo.memory_units == MemoryUnits::kb_per_processor)
            w.notes.push_back(
                "note: a .machines file comes with the Alea simulator's extended SWF, whose field "
                "10 (wagap-2013) is bytes per job: --memory-units bytes-per-job reads it so");
        w.notes.push_back(
            "memory demand from field 10 (requested): " + thousands(st.memory_requested) +
            " jobs, from field 7 (used): " + thousands(st.memory_used) +
            ", from neither: " + thousands(st.memory_missing) + " (demand 0)");
        w.info["memory"] = {{"source", memory_source_name(lo.memory)},
                            {"units", memory_units_name(lo.memory_units)},
                            {"capacity_kb", cap},
                            {"from_requested", st.memory_requested},
                            {"from_used", st.memory_used},
                            {"missing", st.memory_missing},
                            {"missing_ids_sample", st.memory_missing_ids_sample}};
    }
    return w;
}

// The pools of the run: the configuration's (file and --pool) and the
// workload's, merged by name; then the arrivals [Leinberger99] §4.1 asks for.
// Its lines go to `out`, printed with the workload's once the run is checked.
void prepare_workload(RunConfig& rc, Workload& w, std::ostream& out) {
    std::vector<std::string> unused;
    try {
        merge_pools(w.pools, w.jobs.size(), rc.pools, &unused);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    for (const auto& n : unused)
        std::cerr << "rota: note: no job of the workload demands pool '" << escaped(n)
                  << "' (demand 0 for every job)\n";
    rc.pools = w.pools.pools;
    if (!w.pools.empty()) {
        out << "resources: K = " << 1 + w.pools.count() << ": processors=" << w.procs;
        for (const auto& p : w.pools.pools) out << " " << p.name << "=" << p.capacity;
        out << "\n";
        const auto over = over_capacity(w.pools, w.jobs.size());
        for (std::size_t k = 0; k < over.size(); ++k)
            if (over[k] > 0)
                out << "jobs demanding more " << w.pools.pools[k].name
                    << " than the machine has: " << thousands(over[k])
                    << " (the engine rejects them; they are counted as rejected)\n";
    }
    if (rc.arrival_rate <= 0 && rc.queue_length <= 0) return;
    if (rc.arrival_rate > 0 && rc.queue_length > 0)
        throw ConfigError(
            "--arrival-rate and --queue-length [simulator.arrival_rate, simulator.queue_length] "
            "each set the arrival rate: give one of them");
    if (!w.deps.empty())
        throw ConfigError(
            "--arrival-rate and --queue-length replace every job's arrival by a Poisson one; "
            "this workload's jobs that follow others (SWF fields 17 and 18) have none to "
            "replace (--dependencies ignore reads the trace without them)");
    if (rc.compat == "pyss")
        throw ConfigError(
            "--compat pyss replays the trace's own arrivals: drop --queue-length "
            "and --arrival-rate");
    // A generated feitelson-k workload has its own arrival stream (from its
    // seed); other workloads draw one from arrival_seed.
    const bool own = !w.unit_arrivals.empty();
    std::vector<double> unit =
        own ? w.unit_arrivals : unit_poisson_arrivals(w.jobs.size(), rc.arrival_seed);
    nlohmann::json a = {
        {"process", "poisson"},
        {"seed", own ? nlohmann::json("the workload's") : nlohmann::json(rc.arrival_seed)}};
    if (rc.arrival_rate > 0) {
        try {
            set_arrivals(w.jobs, unit, rc.arrival_rate);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(std::string("--arrival-rate: ") + e.what());
        }
        a["rate"] = rc.arrival_rate;
        out << fmt::format("arrivals: Poisson at {:.6g} jobs/s\n", rc.arrival_rate);
    } else {
        CalibrationOptions co;
        co.target = rc.queue_length;
        co.progress = print_calibration_step;
        CalibrationResult r;
        try {
            r = calibrate_arrivals(w.jobs, w.pools, w.procs, unit, co);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
        }
        a["rate"] = r.rate;
        a["calibration"] = {{"policy", co.policy},
                            {"target_queue_length", co.target},
                            {"mean_queue_length", r.mean_queue},
                            {"tolerance", co.tolerance},
                            {"simulations", r.runs},
                            {"converged", r.converged}};
        out << fmt::format(
            "arrivals: Poisson at {:.6g} jobs/s (offered load {:.3f}), calibrated: "
            "FCFS/FF-EASY (preset {}) keeps {:.2f} jobs waiting on average for a target of {} "
            "({} simulations{})\n",
            r.rate, r.offered_load, co.policy, r.mean_queue, co.target, r.runs,
            r.converged ? "" : ", not within the tolerance");
    }
    // The jobs arrive in the order the workload gives them.
    w.info["arrivals"] = a;
}

// The baseline of [Leinberger99] §4.2's gains: FCFS/FF-EASY.
std::string gain_baseline(const std::vector<std::string>& policies) {
    for (const char* b : {"ff-easy", "easy"})
        for (const auto& p : policies)
            if (p == b) return b;
    return {};
}

std::string with_suffix(const std::string& path, const std::string& policy, bool several) {
    if (!several) return path;
    auto dot = path.find_last_of('.');
    auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return path + "." + policy;
    return path.substr(0, dot) + "." + policy + path.substr(dot);
}

// The progress of one simulation by simulated time: the arrivals' span is
// the axis (the jobs still running after the last arrival are not
// counted), with the time elapsed and an estimate of the time left.
class Progress {
  public:
    Progress(std::string label, std::int64_t first, std::int64_t last)
        : label_(std::move(label)),
          first_(first),
          last_(last),
          t0_(std::chrono::steady_clock::now()) {}
    void update(std::int64_t now_s, bool done = false) {
        const auto wall = std::chrono::steady_clock::now();
        const double elapsed = std::chrono::duration<double>(wall - t0_).count();
        if (!done && elapsed - shown_ < 0.2) return;
        shown_ = elapsed;
        const double f = done ? 1.0
                              : std::clamp(last_ > first_ ? static_cast<double>(now_s - first_) /
                                                                static_cast<double>(last_ - first_)
                                                          : 1.0,
                                           0.0, 1.0);
        const int bar = static_cast<int>(f * 30);
        const std::string eta = done       ? std::string("done")
                                : f > 0.01 ? "ETA " + human_duration(elapsed * (1 - f) / f)
                                           : std::string("ETA ?");
        std::fprintf(
            stderr, "\r%-14s [%.*s%*s] %3d%%  simulated %s of %s, elapsed %s, %s   ",
            label_.c_str(), bar, "##############################", 30 - bar, "",
            static_cast<int>(100 * f),
            human_duration(static_cast<double>(std::max<std::int64_t>(0, now_s - first_))).c_str(),
            human_duration(static_cast<double>(last_ - first_)).c_str(),
            human_duration(elapsed).c_str(), eta.c_str());
        if (done) std::fputc('\n', stderr);
    }

  private:
    std::string label_;
    std::int64_t first_, last_;
    std::chrono::steady_clock::time_point t0_;
    double shown_ = -1;
};

// An output file, opened (and so checked) before the first simulation; a
// file it replaces is kept until the run has written the new one whole.
using Output = std::unique_ptr<OutputFile>;

Output open_output(const std::string& path, const char* what) {
    return std::make_unique<OutputFile>(path, what);
}

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

// The files `rota simulate` reads: no output may be one of them.
std::vector<NamedPath> run_inputs(const RunConfig& rc) {
    std::vector<NamedPath> in;
    if (!rc.config_file.empty()) in.push_back({"configuration file", rc.config_file});
    if (!rc.trace.empty()) {
        in.push_back({"trace", rc.trace});
        in.push_back({".machines file", rc.trace + ".machines"});
    }
    if (!rc.workload.fit_trace.empty()) in.push_back({"fitted trace", rc.workload.fit_trace});
    // The policy scripts the configuration names, as the engine finds
    // them from the configuration's directory; every engine's own scripts
    // are checked again once it is made (rota_hook_script).
    if (const toml::table* pol = rc.engine["policy"].as_table())
        for (const auto& [hook, t] : *pol)
            if (const auto* tt = t.as_table())
                if (const auto s = (*tt)["script"].value<std::string>(); s && !s->empty())
                    in.push_back({"script", (*s)[0] == '/' ? *s : rc.base_dir + "/" + *s});
    return in;
}

// The simulator's effective configuration, for the summary JSON.
nlohmann::json run_config_json(const RunConfig& rc) {
    nlohmann::json pools = nlohmann::json::array();
    for (const auto& p : rc.pools) pools.push_back({{"name", p.name}, {"capacity", p.capacity}});
    nlohmann::json clusters = nlohmann::json::array();
    for (const auto& c : rc.clusters) clusters.push_back({{"name", c.name}, {"nodes", c.nodes}});
    nlohmann::json j = {{"trace", rc.trace},
                        {"procs", rc.procs},
                        {"policies", rc.policies},
                        {"compat", rc.compat},
                        {"max_jumps", rc.max_jumps},
                        {"mpl", rc.mpl},
                        {"slice", rc.slice},
                        {"cs_overhead", rc.cs_overhead},
                        {"migration_cost", rc.migration_cost},
                        {"migration_q", rc.migration_q},
                        {"packing", rc.packing},
                        {"pools", pools},
                        {"memory", rc.memory},
                        {"memory_units", rc.memory_units},
                        {"memory_capacity", rc.memory_capacity},
                        {"positive_use", rc.positive_use},
                        {"dependencies", rc.dependencies},
                        {"cycle", rc.cycle},
                        {"queue_length", rc.queue_length},
                        {"arrival_rate", rc.arrival_rate},
                        {"arrival_seed", rc.arrival_seed},
                        {"clusters", clusters},
                        {"groups", rc.groups},
                        {"size_groups", rc.size_groups},
                        {"width_groups", rc.width_groups},
                        {"stop_rel_error", rc.stop_rel_error},
                        {"warmup", rc.warmup},
                        {"batch_jobs", rc.batch_jobs},
                        {"min_batches", rc.min_batches},
                        {"confidence", rc.confidence},
                        {"stop_on", rc.stop_on},
                        {"jobs_csv", rc.jobs_csv},
                        {"batsim_csv", rc.batsim_csv},
                        {"jobs_npy", rc.jobs_npy},
                        {"swf_out", rc.swf_out},
                        {"summary_json", rc.summary_json},
                        {"workload", rc.trace.empty() ? nlohmann::json(describe(rc.workload))
                                                      : nlohmann::json(nullptr)}};
    // Only when given: a run without partitions writes what it wrote before.
    if (!rc.partitions.empty()) j["partitions"] = format_partitions(rc.partitions);
    if (!rc.partition_names.empty()) j["partition_names"] = rc.partition_names;
    return j;
}

std::string workload_stem(const std::string& name) {
    std::string s = name;
    if (const auto slash = s.find_last_of('/'); slash != std::string::npos) s = s.substr(slash + 1);
    if (const auto dot = s.find('.'); dot != std::string::npos && dot > 0) s = s.substr(0, dot);
    for (char& c : s)
        if (c == ',' || c == ' ' || c == '"' || c == '\n') c = '_';
    return s.empty() ? std::string("w0") : s;
}

// The provenance of a run: what made these numbers (summary JSON).
struct Provenance {
    std::vector<std::string> argv;
};

int run_simulate(RunConfig rc, const Provenance& prov) {
    if (rc.policies.empty()) rc.policies = {"fcfs", "easy", "conservative"};
    // Each policy is one column, one engine and one set of outputs.
    for (std::size_t i = 0; i < rc.policies.size(); ++i)
        for (std::size_t k = 0; k < i; ++k)
            if (rc.policies[k] == rc.policies[i])
                throw ConfigError("policy '" + rc.policies[i] +
                                  "' is given twice (--policy or simulator.policy): name each "
                                  "policy once");
    if (rc.compat != "none" && rc.compat != "pyss")
        throw ConfigError("unknown compat mode '" + rc.compat + "' (expected none or pyss)");
    for (const auto& p : rc.policies)
        if (rc.compat == "pyss" && is_gang_preset(p))
            throw ConfigError(
                "--compat pyss reproduces pyss's space-sharing schedules; it does "
                "not apply to the gang preset '" +
                p + "'");
    // "-" reads the standard input as a trace; as an output it would be a
    // file named "-" (or the results' own stream): refused, by name.
    for (const auto& [path, what] : {std::pair{&rc.jobs_csv, "--jobs-csv"},
                                     {&rc.batsim_csv, "--batsim-csv"},
                                     {&rc.jobs_npy, "--jobs-npy"},
                                     {&rc.swf_out, "--swf-out"},
                                     {&rc.summary_json, "--summary-json"}}) {
        if (*path == "-")
            throw ConfigError(std::string(what) +
                              ": '-' is not a file: the standard output carries the results "
                              "(name a file, or /dev/stdout to mix them in)");
        // With several policies each file is the path plus the policy: a
        // directory there would get siblings named after it instead.
        std::error_code ec;
        if (!path->empty() && std::filesystem::is_directory(*path, ec))
            throw ConfigError(std::string(what) + ": '" + *path +
                              "' is a directory: name a file in it");
    }
    // Every output file is opened, so checked, before the workload is read.
    const bool several = rc.policies.size() > 1;
    std::vector<NamedPath> outputs;
    for (const auto& policy : rc.policies)
        for (const auto& [path, what] : {std::pair{&rc.jobs_csv, "jobs CSV"},
                                         {&rc.batsim_csv, "Batsim CSV"},
                                         {&rc.jobs_npy, "jobs .npy"},
                                         {&rc.swf_out, "SWF output"}})
            if (!path->empty()) outputs.push_back({what, with_suffix(*path, policy, several)});
    for (const auto& policy : rc.policies)
        if (!rc.jobs_npy.empty())
            outputs.push_back(
                {"jobs .npy nodes", with_suffix(rc.jobs_npy, policy, several) + ".nodes"});
    if (!rc.summary_json.empty()) outputs.push_back({"summary JSON", rc.summary_json});
    std::vector<NamedPath> inputs = run_inputs(rc);
    check_output_paths(inputs, outputs);
    std::map<std::string, Output> jobs_csv, batsim_csv, jobs_npy, jobs_npy_nodes, swf_out;
    for (const auto& policy : rc.policies) {
        if (!rc.jobs_csv.empty())
            jobs_csv[policy] = open_output(with_suffix(rc.jobs_csv, policy, several), "jobs CSV");
        if (!rc.batsim_csv.empty())
            batsim_csv[policy] =
                open_output(with_suffix(rc.batsim_csv, policy, several), "Batsim CSV");
        if (!rc.jobs_npy.empty()) {
            const std::string p = with_suffix(rc.jobs_npy, policy, several);
            jobs_npy[policy] = open_output(p, "jobs .npy");
            jobs_npy_nodes[policy] = open_output(p + ".nodes", "jobs .npy nodes");
        }
        if (!rc.swf_out.empty())
            swf_out[policy] = open_output(with_suffix(rc.swf_out, policy, several), "SWF output");
    }
    Output summary_file;
    if (!rc.summary_json.empty()) summary_file = open_output(rc.summary_json, "summary JSON");
    // --json: the JSON alone on the standard output, everything else on stderr.
    std::streambuf* const stdout_buf = std::cout.rdbuf();
    if (rc.json) std::cout.rdbuf(std::cerr.rdbuf());
    struct Restore {
        std::streambuf* buf;
        ~Restore() { std::cout.rdbuf(buf); }
    } restore{stdout_buf};

    Workload w = load_workload(rc);
    const bool tty = rc.progress && isatty(STDERR_FILENO);
    // The clusters: --clusters, else the file's [[machine.clusters]], else
    // the workload's own; they make the machine.
    const bool own_clusters = rc.clusters.empty() && !rc.one_machine && !w.clusters.empty();
    if (own_clusters) rc.clusters = w.clusters;
    if (!rc.clusters.empty()) {
        const auto nodes = static_cast<std::int32_t>(total_nodes(rc.clusters));
        // A header that contradicts itself is not read one way or the other.
        if (own_clusters && rc.procs <= 0 && w.procs > 0 && w.procs != nodes)
            throw ConfigError("the trace's machine size (" + std::to_string(w.procs) +
                              " processors, its MaxProcs or MaxNodes) and its Clusters " +
                              describe_clusters(rc.clusters) + " (" + std::to_string(nodes) +
                              " nodes) disagree: correct the header, or give --clusters (none: "
                              "one machine of its MaxProcs)");
        if (rc.procs > 0 && rc.procs != nodes)
            throw ConfigError("--procs " + std::to_string(rc.procs) + " and clusters " +
                              describe_clusters(rc.clusters) + " (" + std::to_string(nodes) +
                              " nodes) disagree: give one of them");
        w.procs = nodes;
        if (rc.queue_length > 0)
            throw ConfigError(
                "--queue-length calibrates the arrivals on one machine ([Leinberger99]); with "
                "clusters "
                "give the rate itself: --arrival-rate");
    }

    std::vector<std::pair<std::string, Summary>> columns;
    std::vector<std::pair<std::string, GroupReport>> group_reports;
    std::vector<std::string> rejected_lines;
    nlohmann::json summary_json = nlohmann::json::object();
    // Printed once every engine is made and the outputs are checked: a run
    // refused for its configuration or an output prints nothing else.
    std::ostringstream head;
    head << "workload: " << w.name << "\n"
         << "jobs: " << w.jobs.size() << ", processors: " << w.procs << "\n";
    if (!rc.clusters.empty())
        head << "clusters: " << describe_clusters(rc.clusters) << " (" << rc.clusters.size()
             << " clusters, " << w.procs << " nodes)\n";
    // Components co-allocate a job over clusters; one machine runs it whole.
    if (!w.components.empty() && rc.clusters.empty())
        head << "note: the workload's components are not used: the machine has no clusters "
                "(every job runs whole; --clusters makes a multi-cluster machine)\n";
    // [Ngubiri07] §4.2's groups and stopping rule.
    const bool with_groups = !w.components.empty() || rc.groups || rc.stop_rel_error > 0;
    if (!with_groups && !rc.group_flags.empty())
        throw ConfigError(rc.group_flags.front() +
                          ": is read only with groups (--groups, --stop-rel-error, or a workload "
                          "whose jobs have components)");
    // On clusters every job is placed, whole or in components: one
    // component of all its nodes for a workload without them, so that the
    // clusters of every job are recorded.
    if (!rc.clusters.empty() && w.components.empty())
        for (const auto& j : w.jobs) w.components.push(&j.procs, 1);
    // Only the groups and the stopping rule read the shapes.
    const std::vector<JobShape> shapes =
        with_groups ? job_shapes(w.jobs, w.components) : std::vector<JobShape>{};
    const Components* components = rc.clusters.empty() ? nullptr : &w.components;
    GroupLayout layout;
    if (with_groups) {
        GroupBounds b = derive_bounds(shapes);
        if (!rc.size_groups.empty()) b.size = rc.size_groups, b.size_source = "given";
        if (!rc.width_groups.empty()) b.widest = rc.width_groups, b.widest_source = "given";
        layout = make_layout(shapes, b);
    }
    if (rc.warmup >= static_cast<std::int64_t>(w.jobs.size()) && !w.jobs.empty())
        throw ConfigError("the warm-up (" + std::to_string(rc.warmup) +
                          " jobs) leaves none of the workload's " + std::to_string(w.jobs.size()) +
                          " jobs to measure");
    BatchMeansOptions bmo;
    bmo.batch = rc.batch_jobs;
    bmo.min_batches = rc.min_batches;
    bmo.max_batches = 2 * rc.min_batches;
    bmo.confidence = rc.confidence;
    std::vector<std::string> stop_lines;
    if (w.stats.skipped_total() > 0) {
        head << "skipped records:";
        for (const auto& [why, n] : w.stats.skipped) head << " " << why << "=" << n;
        head << "\n";
    }
    for (const auto& n : w.notes) head << n << "\n";
    // SWF field 16: the partition numbers name the machine's partitions,
    // or partition_names; every number must name one before any run.
    std::string field16_from;
    const std::vector<std::string> field16 = field16_names(rc, &field16_from);
    if (!field16.empty() && !w.partitions.empty()) {
        try {
            check_field16(w.partitions, w.jobs, field16, field16_from);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
        }
        std::string named;
        for (std::size_t k = 0; k < field16.size(); ++k)
            named += fmt::format("{}{} = {}", k == 0 ? "" : ", ", k + 1, field16[k]);
        head << "partitions: SWF field 16 names " << named << " (" << field16_from << ")\n";
    }
    prepare_workload(rc, w, head);
    // After prepare_workload: Poisson arrivals replace the submit times.
    const std::vector<std::uint32_t> order = arrival_order(w.jobs);
    // Every preset is resolved, and its engine made, before the first
    // simulation: a configuration error in the last policy costs no run.
    struct EngineFree {
        void operator()(rota_engine* e) const { rota_engine_free(e); }
    };
    std::map<std::string, std::unique_ptr<rota_engine, EngineFree>> engines;
    std::map<std::string, std::string> engine_configs;
    std::map<std::string, std::string> exec_models;  // the policies whose jobs are malleable
    for (const auto& policy : rc.policies) {
        std::string note;
        std::string cfg = engine_toml(rc, policy, w.procs, &note);
        if (!note.empty()) std::cerr << "rota: note: " << escaped(note) << "\n";
        rota_engine* e = nullptr;
        int rc_new = rota_engine_new(cfg.c_str(), rc.base_dir.c_str(), &e);
        if (rc_new != ROTA_OK) {
            std::string msg = rota_errmsg(e);
            rota_engine_free(e);
            throw ConfigError(policy + ": " + msg);
        }
        engines[policy].reset(e);
        engine_configs[policy] = cfg;
        // [Weissman03]'s jobs run at min..ideal under a named policy or a
        // custom configuration with [malleable], at the engine's model.
        if (uses_min(policy))
            exec_models[policy] = rc.exec_model;
        else if (policy == "custom")
            if (std::string m = malleable_model(cfg); !m.empty()) exec_models[policy] = m;
        // The scripts as the engine found them (the search path,
        // ROTA_POLICY_PATH, the shipped policies; a preset's own): no
        // output may be one, and none is written yet.
        for (int h = 0; rota_hook_name(h) != nullptr; ++h)
            if (const char* s = rota_hook_script(e, h))
                inputs.push_back({std::string(rota_hook_name(h)) + " script of " + policy, s});
        if (const std::string warn = slice_warning(e, w.jobs); !warn.empty())
            std::cerr << "rota: warning: " << policy << ": " << escaped(warn) << "\n";
    }
    if (const std::string warn = cycle_warning(rc.cycle, w.jobs); !warn.empty())
        std::cerr << "rota: warning: " << escaped(warn) << "\n";
    check_output_paths(inputs, outputs);
    std::cout << escaped(head.str(), true);
    // The provenance: the version, the command, the trace and its digest,
    // the effective configuration and the seeds. Only a summary printed as
    // JSON carries it: hashing the trace is a read of the whole file.
    if (summary_file || rc.json) {
        nlohmann::json p;
        p["rota_version"] = rota_version();
        p["abi_version"] = rota_abi_version();
        p["argv"] = prov.argv;
        std::string line;
        for (const auto& a : prov.argv) {
            const bool plain =
                !a.empty() && a.find_first_of(" \t'\"\\$`*?;&|<>()") == std::string::npos;
            std::string q = "'";
            for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
            line += (line.empty() ? "" : " ") + (plain ? a : q + "'");
        }
        p["command_line"] = line;
        if (rc.trace.empty()) {
            p["trace"] = nullptr;
            p["workload"] = {{"generated", describe(rc.workload)},
                             {"model", model_name(rc.workload.model)},
                             {"seed", rc.workload.seed}};
        } else {
            nlohmann::json t = {{"path", rc.trace}};
            if (rc.trace == "-") {
                t["sha256"] = nullptr;
                t["note"] = "read from the standard input: no digest";
            } else {
                t["sha256"] = sha256_file(rc.trace);
            }
            p["trace"] = t;
            p["workload"] = nullptr;
        }
        p["seeds"] = {{"workload", rc.trace.empty() ? nlohmann::json(rc.workload.seed)
                                                    : nlohmann::json(nullptr)},
                      {"arrivals", rc.arrival_seed}};
        p["configuration"] = {{"simulator", run_config_json(rc)}, {"engine", engine_configs}};
        summary_json["provenance"] = p;
    }
    std::vector<std::string> failures;
    const std::vector<std::int32_t> mins =
        !exec_models.empty() ? min_procs(w.jobs, rc.min_pct) : std::vector<std::int32_t>{};
    std::int64_t first_submit = 0, last_submit = 0;
    if (!order.empty()) {
        first_submit = w.jobs[order.front()].submit;
        last_submit = w.jobs[order.back()].submit;
    }
    for (const auto& policy : rc.policies) try {
            rota_engine* e = engines[policy].get();
            SimOptions opt;
            // Only the CSVs print the nodes: a run without them does not
            // keep a text per job.
            opt.record_nodes = jobs_csv.count(policy) > 0 || batsim_csv.count(policy) > 0 ||
                               jobs_npy.count(policy) > 0;
            opt.order = rc.compat == "pyss" ? EventOrder::pyss : EventOrder::batched;
            opt.cs_overhead = rc.cs_overhead;
            opt.pools = &w.pools;
            opt.components = components;
            opt.deps = &w.deps;
            opt.arrival_order = &order;
            opt.partition = &w.partitions;  // SWF field 16
            opt.partition_names = &field16;
            opt.cycle = rc.cycle;
            const std::vector<std::int32_t> classes =
                job_classes(e, w.jobs, rc.interactive_procs, rc.interactive_time);
            if (!classes.empty()) opt.job_class = &classes;  // [Feitelson97]
            if (auto m = exec_models.find(policy); m != exec_models.end()) {
                // [Weissman03]: min..ideal, scaled by the execution model
                opt.min_procs = &mins;
                opt.adapt_bytes = &w.adapt_bytes;  // [Weissman03] §4.1's overhead
                opt.exec_model = m->second == "parabolic" ? 1 : 0;
            }
            std::unique_ptr<StopMonitor> monitor;
            if (rc.stop_rel_error > 0) {
                StopRule rule;
                rule.rel_error = rc.stop_rel_error;
                rule.warmup = rc.warmup;
                rule.groups = rc.stop_on == "groups";
                rule.batches = bmo;
                monitor = std::make_unique<StopMonitor>(shapes, layout, order, rule);
                opt.stop = [m = monitor.get()](const std::vector<JobOutcome>& o) {
                    return m->update(o);
                };
            }
            if (rc.matrix_at >= 0) {
                auto at = static_cast<std::int64_t>(rc.matrix_at * 1e6);
                auto printed = std::make_shared<bool>(false);
                const auto* jobs = &w.jobs;
                opt.after_pass = [at, printed, policy, jobs](rota_engine* eng, std::int64_t now) {
                    if (*printed || now < at) return;
                    *printed = true;
                    print_matrix(std::cout, eng, policy, now, [jobs](std::int64_t i) {
                        return (*jobs)[static_cast<std::size_t>(i)].id;
                    });
                };
            }
            std::optional<Progress> bar;
            if (tty) {
                bar.emplace(policy, first_submit, last_submit);
                opt.progress_every =
                    std::max<std::int64_t>(1, static_cast<std::int64_t>(w.jobs.size()) / 1000);
                opt.progress = [&](std::int64_t d, std::int64_t) {
                    if (d > 0) bar->update(w.jobs[order[static_cast<std::size_t>(d - 1)]].submit);
                };
            }
            auto t0 = std::chrono::steady_clock::now();
            SimResult r = simulate(e, w.jobs, opt);
            double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (bar) bar->update(last_submit, true);
            engines[policy].reset();
            // The measured jobs: after the warm-up, up to where the rule held.
            MeasuredSet measured{rc.warmup,
                                 monitor && monitor->stopped() ? monitor->measured_jobs() : -1};
            std::vector<JobOutcome> kept;
            const bool subset = rc.warmup > 0 || monitor;
            if (subset) {
                const auto first = static_cast<std::size_t>(measured.first);
                const std::size_t last =
                    measured.count < 0
                        ? order.size()
                        : std::min(order.size(), first + static_cast<std::size_t>(measured.count));
                for (std::size_t k = first; k < last; ++k) kept.push_back(r.jobs[order[k]]);
            }
            Summary s = summarize(subset ? kept : r.jobs, w.procs, r.capacity_loss);
            s.mean_queue = r.mean_queue;
            s.resources = static_cast<std::int32_t>(1 + w.pools.count());
            auto j = to_json(s);
            auto& res = j["pools"] = nlohmann::json::array();
            for (const auto& p : w.pools.pools)
                res.push_back({{"name", p.name}, {"capacity", p.capacity}});
            j["weight"] =
                "mean over the K resources of the job's share (procs / machine procs, demand / "
                "pool "
                "capacity), times its execution time";
            for (const auto& [k, v] : w.info.items()) j[k] = v;
            if (!r.rejections.empty()) {
                rejected_lines.push_back(
                    fmt::format("{}: {} job{} rejected; first: job {}: {}", policy,
                                r.rejections.size(), r.rejections.size() == 1 ? "" : "s",
                                r.rejections.front().first, r.rejections.front().second));
            }
            j["simulation_seconds"] = secs;
            j["skipped"] = w.stats.skipped;
            std::uint64_t failures = 0;
            auto& hooks = j["hooks"] = nlohmann::json::object();
            for (const auto& [name, st] : r.hooks) {
                failures += st.failures;
                hooks[name] = {{"calls", st.calls},
                               {"failures", st.failures},
                               {"seconds", static_cast<double>(st.nanoseconds) / 1e9}};
            }
            j["hook_failures"] = failures;
            j["migrations"] = r.counters.migrations;
            j["migrated_tasks"] = r.counters.migrated_tasks;
            const rota_counters& c = r.counters;
            j["counters"] = {{"passes", c.passes},
                             {"submitted", c.submitted},
                             {"started", c.started},
                             {"backfilled", c.backfilled},
                             {"finished", c.finished},
                             {"killed", c.killed},
                             {"rejected", c.rejected},
                             {"cancelled", c.cancelled},
                             {"reloads", c.reloads},
                             {"reload_failures", c.reload_failures},
                             {"migrations", c.migrations},
                             {"migrated_tasks", c.migrated_tasks},
                             {"window_extensions", c.window_extensions},
                             {"requeued", c.requeued},
                             {"adopted", c.adopted},
                             {"harvest_attempts", c.harvest_attempts},
                             {"harvests", c.harvests},
                             {"grows", c.grows},
                             {"shrinks", c.shrinks},
                             {"rekeys", c.rekeys},
                             {"resorts", c.resorts},
                             {"reservations_moved", c.reservations_moved},
                             {"slices", r.slices},
                             {"event_times", r.event_times}};
            j["migration_node_seconds"] = r.migration_node_seconds;
            if (exec_models.count(policy) > 0) {
                // [Weissman03]'s Table 2: harvest success rate, harvest events
                // per job (a victim's SHRINK is one event for it).
                std::int64_t events = 0;
                for (const auto& o : r.jobs) events += o.harvested;
                j["malleable"] = {
                    {"min_pct", rc.min_pct},
                    // A custom configuration's M is its own [malleable]'s.
                    {"mpl_limit",
                     policy == "custom" ? nlohmann::json(nullptr) : nlohmann::json(rc.mpl_limit)},
                    {"exec_model", exec_models.at(policy)},
                    {"harvest_success_rate",
                     c.harvest_attempts > 0
                         ? static_cast<double>(c.harvests) / static_cast<double>(c.harvest_attempts)
                         : 1.0},
                    {"harvest_events_per_job",
                     r.jobs.empty()
                         ? 0.0
                         : static_cast<double>(events) / static_cast<double>(r.jobs.size())}};
            }
            if (opt.job_class) {
                // [Feitelson97] §4.8: the share of completed jobs ever preempted.
                std::int64_t done = 0, preempted = 0;
                for (const auto& o : r.jobs)
                    if (o.state == FinalState::finished || o.state == FinalState::killed) {
                        ++done;
                        preempted += o.preemptions > 0;
                    }
                j["classes"] = {
                    {"preemptions", c.preemptions},
                    {"swap_ins", c.swap_ins},
                    {"reservations", c.class_reservations},
                    {"preempted_share",
                     done > 0 ? static_cast<double>(preempted) / static_cast<double>(done) : 0.0}};
            }
            if (!r.rejections.empty()) {
                auto& rej = j["rejections"] = nlohmann::json::array();
                for (std::size_t k = 0; k < r.rejections.size() && k < 100; ++k)
                    rej.push_back(
                        {{"job_id", r.rejections[k].first}, {"reason", r.rejections[k].second}});
            }
            if (with_groups) {
                GroupReport gr = group_report(w.jobs, shapes, r.jobs, order, layout, measured, bmo);
                gr.time_unit = w.time_unit;
                j["groups"] = to_json(gr);
                group_reports.emplace_back(policy, std::move(gr));
            }
            if (monitor) {
                const bool held = monitor->stopped();
                const auto& b = held ? monitor->last() : group_reports.back().second.batches;
                j["stopping"] = {
                    {"rel_error", rc.stop_rel_error},
                    {"confidence", rc.confidence},
                    {"on", rc.stop_on},
                    {"warmup", rc.warmup},
                    {"reached", held},
                    {"max_rel_error", std::isinf(b.max_rel_error)
                                          ? nlohmann::json()
                                          : nlohmann::json(b.max_rel_error)},
                    {"arrived", r.arrived},
                    {"stop_time", r.stop_time},
                    {"measured_jobs", held ? monitor->measured_jobs() : measured.count}};
                stop_lines.push_back(
                    held
                        ? fmt::format(
                              "{}: stopping rule reached: max relative error {:.4f} <= {} at "
                              "{:g} % ({}); {} jobs measured after a warm-up of {}, in {} "
                              "batches of {}; stopped at t = {} s after {} arrivals",
                              policy, b.max_rel_error, rc.stop_rel_error, 100 * rc.confidence,
                              rc.stop_on == "groups" ? "stream and every group" : "whole stream",
                              thousands(monitor->measured_jobs()), thousands(rc.warmup), b.batches,
                              thousands(b.batch_size), thousands(r.stop_time), thousands(r.arrived))
                        : fmt::format("{}: stopping rule NOT reached: the workload's {} jobs ran "
                                      "out with max relative error {} (target {}); every job after "
                                      "the warm-up of {} is measured",
                                      policy, thousands(static_cast<std::int64_t>(w.jobs.size())),
                                      std::isinf(b.max_rel_error)
                                          ? std::string("unknown (too few batches)")
                                          : fmt::format("{:.4f}", b.max_rel_error),
                                      rc.stop_rel_error, thousands(rc.warmup)));
            }
            summary_json[policy] = j;
            columns.emplace_back(policy, s);
            if (auto f = jobs_csv.find(policy); f != jobs_csv.end()) {
                JobExtras extras{nullptr, &w.jobs, &r.nodes, opt.job_class};
                write_jobs_csv(f->second->out(), r.jobs,
                               w.components.empty() ? nullptr : &w.components,
                               components ? &r.clusters : nullptr, &extras);
                f->second->commit();
            }
            if (auto f = batsim_csv.find(policy); f != batsim_csv.end()) {
                write_batsim_csv(
                    f->second->out(), r.jobs, r.nodes,
                    workload_stem(rc.trace.empty() ? model_name(rc.workload.model) : rc.trace));
                f->second->commit();
            }
            if (auto f = jobs_npy.find(policy); f != jobs_npy.end()) {
                Output& nodes_file = jobs_npy_nodes[policy];
                write_jobs_npy(f->second->out(), &nodes_file->out(), r.jobs, r.nodes);
                f->second->commit();
                nodes_file->commit();
            }
            if (auto f = swf_out.find(policy); f != swf_out.end()) {
                write_schedule_swf(f->second->out(), w.jobs, r.jobs,
                                   {policy, rota_version(), w.name, w.procs});
                f->second->commit();
            }
            std::cerr << fmt::format(
                "{}: simulated {} jobs in {}\n", policy, w.jobs.size(),
                secs < 60 ? fmt::format("{:.2f} s", secs) : human_duration(secs));
        } catch (const std::exception& ex) {
            // The results already computed are kept: reported and written below.
            failures.push_back(policy + ": " + ex.what());
            summary_json[policy] = {{"error", ex.what()}};
            if (tty) std::cerr << "\n";  // past the progress bar; the error is printed below
        }
    if (rc.warmup > 0 || rc.stop_rel_error > 0)
        std::cout << "metrics over the measured jobs: arrivals after the warm-up of "
                  << thousands(rc.warmup)
                  << (rc.stop_rel_error > 0 ? ", up to where the stopping rule held" : "") << "\n";
    if (!columns.empty()) print_table(std::cout, columns);
    if (const std::string best = best_line(columns); !best.empty()) std::cout << best << "\n";
    for (const auto& l : rejected_lines) std::cout << l << "\n";
    for (const auto& [name, gr] : group_reports) print_groups(std::cout, name, gr);
    if (!stop_lines.empty()) std::cout << "\n";
    for (const auto& l : stop_lines) std::cout << l << "\n";
    if (const std::string base = gain_baseline(rc.policies); !base.empty() && columns.size() > 1) {
        print_gains(std::cout, columns, base);
        const Summary* b = nullptr;
        for (const auto& [name, s] : columns)
            if (name == base) b = &s;
        for (const auto& [name, s] : columns) {
            if (!b) break;
            auto gain = [](double x) -> nlohmann::json {
                return std::isnan(x) ? nlohmann::json() : nlohmann::json(x);
            };
            summary_json[name]["gain_over_" + base] = {
                {"response_mean", gain(normalised_gain(b->all.response.mean, s.all.response.mean))},
                {"weighted_response",
                 gain(normalised_gain(b->all.weighted_response, s.all.weighted_response))}};
        }
    }
    if (summary_file) {
        summary_file->out() << json_safe(summary_json).dump(2) << "\n";
        summary_file->commit();
    }
    if (rc.json) {
        std::cout.rdbuf(stdout_buf);
        std::cout << json_safe(summary_json).dump(2) << "\n";
    }
    if (!failures.empty()) {
        for (const auto& f : failures) std::cerr << "rota: error: " << escaped(f) << "\n";
        if (several)
            std::cerr << "rota: error: " << failures.size() << " of " << rc.policies.size()
                      << " simulations failed; the others are reported above\n";
        return 1;
    }
    return 0;
}

}  // namespace

namespace {

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

// Exit codes: 0 success, 1 a run-time error, 2 a usage error (bad options,
// configuration or input values). Messages start with "rota: error:".
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

}  // namespace

namespace {

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
    if (a.command->count("--trace") > 0 && a.trace.empty())
        throw ConfigError(
            "--trace: is empty: name a trace, or leave --trace out for the generated workload");
    if (!a.trace.empty()) rc.trace = a.trace;
    // An empty output path would write nothing and say nothing.
    for (const char* f :
         {"--jobs-csv", "--summary-json", "--batsim-csv", "--jobs-npy", "--swf-out"})
        if (a.command->count(f) > 0 && a.command->get_option(f)->as<std::string>().empty())
            throw ConfigError(std::string(f) +
                              ": is empty: name a file, or leave the flag out for no file");
    // A flag given is taken as given, and checked (check_statistics,
    // the engine): a bad value is an error, never silently ignored.
    auto given = [&](const char* flag) { return a.command->count(flag) > 0; };
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
    if (!a.jobs_csv.empty()) rc.jobs_csv = a.jobs_csv;
    if (!a.summary_json.empty()) rc.summary_json = a.summary_json;
    if (!a.batsim_csv.empty()) rc.batsim_csv = a.batsim_csv;
    if (!a.jobs_npy.empty()) rc.jobs_npy = a.jobs_npy;
    if (!a.swf_out.empty()) rc.swf_out = a.swf_out;
    if (a.json_flag) rc.json = true;
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
    if (a.cycle >= 0) rc.cycle = a.cycle;
    if (a.queue_length >= 0) rc.queue_length = a.queue_length;
    if (a.arrival_rate >= 0) rc.arrival_rate = a.arrival_rate;
    if (a.arrival_seed >= 0) rc.arrival_seed = static_cast<std::uint64_t>(a.arrival_seed);
    try {
        if (a.clusters_flag == "none") {
            rc.clusters.clear();
            rc.one_machine = true;
        } else if (a.command->count("--clusters") > 0) {
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
    check_statistics(rc);
    refuse_unread_flags(rc, given);
    return rc;
}

int run(int argc, char** argv) {
    CLI::App app{
        "rota: a parallel-job scheduling engine, its simulator and a workload generator.\n"
        "Without a command, rota simulates its built-in workload (the Lublin-Feitelson model, "
        "10,000 jobs on 128 processors at offered load 0.5) under FCFS, EASY and conservative "
        "backfilling and prints the results side by side."};
    app.set_version_flag("--version", std::string("rota ") + rota_version(),
                         "print rota's version and exit");
    app.footer(
        "Exit status: 0 success, 1 run-time error, 2 usage error. Documentation: "
        "docs/user-guide.md");
    const Provenance prov{std::vector<std::string>(argv, argv + argc)};
    // No subcommand runs the main job: the built-in workload under FCFS,
    // EASY and conservative backfilling.
    app.require_subcommand(0, 1);

    SimulateArgs args;
    add_simulate_command(app, args);
    auto gen = add_generate_command(app);  // `rota generate`: sim/generate_command.cpp
    auto sweep = add_sweep_command(app);   // `rota sweep`: sim/sweep.cpp
    auto top = add_top_command(app);       // `rota top`: sim/top_command.cpp

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // The help of the command that was given, if any.
        std::string cmd = "simulate";
        for (const CLI::App* c : app.get_subcommands())
            if (c->parsed()) cmd = c->get_name();
        std::cerr << "rota: error: " << escaped(e.what()) << "\n"
                  << "rota: run 'rota " << cmd << " --help' for the options\n";
        return kExitUsage;
    }
    if (sweep->command->parsed()) return run_sweep_command(*sweep);
    if (top->command->parsed()) return run_top_command(*top);
    try {
        if (gen->command->parsed()) return run_generate_command(*gen);
        return run_simulate(simulate_config(args), prov);
    } catch (const ConfigError& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::invalid_argument& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        std::cerr << "rota: error: out of memory: the workload or the run needs more memory "
                     "than there is (fewer jobs, or a smaller machine)\n";
        return kExitRuntime;
    } catch (const std::exception& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return kExitRuntime;
    }
}

}  // namespace

// Whatever the command printed must have reached the standard output:
// a full disk or a closed file there is an error, not a silent success.
int main(int argc, char** argv) {
    const int status = run(argc, argv);
    try {
        flush_stdout();
    } catch (const std::exception& e) {
        std::cerr << "rota: error: " << escaped(e.what()) << "\n";
        return status != 0 ? status : kExitRuntime;
    }
    return status;
}
