// `rota simulate`'s run (simulate_run.h).
#include "simulate_run.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "calibrate.h"
#include "classes.h"
#include "clusters.h"
#include "escape.h"
#include "generate.h"
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
#include "swf.h"
#include "weissman.h"

namespace rota::sim {

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

Workload generated_workload(const RunConfig& rc) {
    Workload w;
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

// The memory pool read from the trace, in the workload's notes and its
// summary JSON.
void note_memory(Workload& w, const RunConfig& rc, const LoadOptions& lo, const Trace& t) {
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
    w.notes.push_back("memory demand from field 10 (requested): " + thousands(st.memory_requested) +
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

Workload load_workload(const RunConfig& rc) {
    if (rc.trace.empty()) return generated_workload(rc);
    Workload w;
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
    if (lo.memory != MemorySource::none) note_memory(w, rc, lo, t);
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

// The command line as a shell reads it back: each argument quoted unless
// it is plain.
std::string command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const auto& a : argv) {
        const bool plain =
            !a.empty() && a.find_first_of(" \t'\"\\$`*?;&|<>()") == std::string::npos;
        std::string q = "'";
        for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += (line.empty() ? "" : " ") + (plain ? a : q + "'");
    }
    return line;
}

// Each policy is one column, one engine and one set of outputs.
void check_policies(RunConfig& rc) {
    if (rc.policies.empty()) rc.policies = {"fcfs", "easy", "conservative"};
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
}

// "-" reads the standard input as a trace; as an output it would be a
// file named "-" (or the results' own stream): refused, by name.
void check_output_flags(const RunConfig& rc) {
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
}

// The run's output files, each policy's by its name, and the paths they
// are checked against: an engine's scripts join the inputs once it is made.
struct OutputFiles {
    std::vector<NamedPath> inputs, outputs;
    std::map<std::string, Output> jobs_csv, batsim_csv, jobs_npy, jobs_npy_nodes, swf_out;
    Output summary_file;
};

// Every output file is opened, so checked, before the workload is read.
OutputFiles open_outputs(const RunConfig& rc) {
    OutputFiles f;
    const bool several = rc.policies.size() > 1;
    for (const auto& policy : rc.policies)
        for (const auto& [path, what] : {std::pair{&rc.jobs_csv, "jobs CSV"},
                                         {&rc.batsim_csv, "Batsim CSV"},
                                         {&rc.jobs_npy, "jobs .npy"},
                                         {&rc.swf_out, "SWF output"}})
            if (!path->empty()) f.outputs.push_back({what, with_suffix(*path, policy, several)});
    for (const auto& policy : rc.policies)
        if (!rc.jobs_npy.empty())
            f.outputs.push_back(
                {"jobs .npy nodes", with_suffix(rc.jobs_npy, policy, several) + ".nodes"});
    if (!rc.summary_json.empty()) f.outputs.push_back({"summary JSON", rc.summary_json});
    f.inputs = run_inputs(rc);
    check_output_paths(f.inputs, f.outputs);
    for (const auto& policy : rc.policies) {
        if (!rc.jobs_csv.empty())
            f.jobs_csv[policy] = open_output(with_suffix(rc.jobs_csv, policy, several), "jobs CSV");
        if (!rc.batsim_csv.empty())
            f.batsim_csv[policy] =
                open_output(with_suffix(rc.batsim_csv, policy, several), "Batsim CSV");
        if (!rc.jobs_npy.empty()) {
            const std::string p = with_suffix(rc.jobs_npy, policy, several);
            f.jobs_npy[policy] = open_output(p, "jobs .npy");
            f.jobs_npy_nodes[policy] = open_output(p + ".nodes", "jobs .npy nodes");
        }
        if (!rc.swf_out.empty())
            f.swf_out[policy] = open_output(with_suffix(rc.swf_out, policy, several), "SWF output");
    }
    if (!rc.summary_json.empty()) f.summary_file = open_output(rc.summary_json, "summary JSON");
    return f;
}

struct EngineFree {
    void operator()(rota_engine* e) const { rota_engine_free(e); }
};

// One `rota simulate`: the workload as every policy runs it, their
// engines, and the results gathered policy by policy for the table, the
// gains and the summary JSON.
struct SimulateRun {
    SimulateRun(RunConfig& rc, OutputFiles& files) : rc(rc), files(files) {}

    RunConfig& rc;
    OutputFiles& files;
    Workload w;
    bool tty = false;
    // Printed once every engine is made and the outputs are checked: a run
    // refused for its configuration or an output prints nothing else.
    std::ostringstream head;
    // [Ngubiri07] §4.2's groups and stopping rule.
    bool with_groups = false;
    std::vector<JobShape> shapes;  // only the groups and the stopping rule read them
    GroupLayout layout;
    BatchMeansOptions bmo;
    const Components* components = nullptr;  // on clusters only
    std::vector<std::string> field16;        // SWF field 16's partition names
    std::vector<std::uint32_t> order;        // the arrivals, once prepare_workload set them
    // Every preset is resolved, and its engine made, before the first
    // simulation: a configuration error in the last policy costs no run.
    std::map<std::string, std::unique_ptr<rota_engine, EngineFree>> engines;
    std::map<std::string, std::string> engine_configs;
    std::map<std::string, std::string> exec_models;  // the policies whose jobs are malleable
    std::vector<std::int32_t> mins;  // [Weissman03]: each job's min, for the malleable policies
    std::int64_t first_submit = 0, last_submit = 0;  // the progress bar's axis
    std::vector<std::pair<std::string, Summary>> columns;
    std::vector<std::pair<std::string, GroupReport>> group_reports;
    std::vector<std::string> rejected_lines, stop_lines, failures;
    nlohmann::json summary_json = nlohmann::json::object();
};

// The clusters: --clusters, else the file's [[machine.clusters]], else
// the workload's own; they make the machine.
void choose_clusters(RunConfig& rc, Workload& w) {
    const bool own_clusters = rc.clusters.empty() && !rc.one_machine && !w.clusters.empty();
    if (own_clusters) rc.clusters = w.clusters;
    if (rc.clusters.empty()) return;
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

// The head's lines on the workload and the machine.
void describe_workload(SimulateRun& run) {
    const RunConfig& rc = run.rc;
    const Workload& w = run.w;
    std::ostringstream& head = run.head;
    head << "workload: " << w.name << "\n"
         << "jobs: " << w.jobs.size() << ", processors: " << w.procs << "\n";
    if (!rc.clusters.empty())
        head << "clusters: " << describe_clusters(rc.clusters) << " (" << rc.clusters.size()
             << " clusters, " << w.procs << " nodes)\n";
    // Components co-allocate a job over clusters; one machine runs it whole.
    if (!w.components.empty() && rc.clusters.empty())
        head << "note: the workload's components are not used: the machine has no clusters "
                "(every job runs whole; --clusters makes a multi-cluster machine)\n";
    if (w.stats.skipped_total() > 0) {
        head << "skipped records:";
        for (const auto& [why, n] : w.stats.skipped) head << " " << why << "=" << n;
        head << "\n";
    }
    for (const auto& n : w.notes) head << n << "\n";
}

// [Ngubiri07] §4.2's groups and stopping rule: the jobs' shapes, the
// groups' bounds and the batch means.
void set_up_groups(SimulateRun& run) {
    const RunConfig& rc = run.rc;
    Workload& w = run.w;
    run.with_groups = !w.components.empty() || rc.groups || rc.stop_rel_error > 0;
    if (!run.with_groups && !rc.group_flags.empty())
        throw ConfigError(rc.group_flags.front() +
                          ": is read only with groups (--groups, --stop-rel-error, or a workload "
                          "whose jobs have components)");
    // On clusters every job is placed, whole or in components: one
    // component of all its nodes for a workload without them, so that the
    // clusters of every job are recorded.
    if (!rc.clusters.empty() && w.components.empty())
        for (const auto& j : w.jobs) w.components.push(&j.procs, 1);
    run.components = rc.clusters.empty() ? nullptr : &w.components;
    if (run.with_groups) {
        run.shapes = job_shapes(w.jobs, w.components);
        GroupBounds b = derive_bounds(run.shapes);
        if (!rc.size_groups.empty()) b.size = rc.size_groups, b.size_source = "given";
        if (!rc.width_groups.empty()) b.widest = rc.width_groups, b.widest_source = "given";
        run.layout = make_layout(run.shapes, b);
    }
    if (rc.warmup >= static_cast<std::int64_t>(w.jobs.size()) && !w.jobs.empty())
        throw ConfigError("the warm-up (" + std::to_string(rc.warmup) +
                          " jobs) leaves none of the workload's " + std::to_string(w.jobs.size()) +
                          " jobs to measure");
    run.bmo.batch = rc.batch_jobs;
    run.bmo.min_batches = rc.min_batches;
    run.bmo.max_batches = 2 * rc.min_batches;
    run.bmo.confidence = rc.confidence;
}

// SWF field 16: the partition numbers name the machine's partitions,
// or partition_names; every number must name one before any run.
void name_partitions(SimulateRun& run) {
    std::string field16_from;
    run.field16 = field16_names(run.rc, &field16_from);
    const std::vector<std::string>& field16 = run.field16;
    if (field16.empty() || run.w.partitions.empty()) return;
    try {
        check_field16(run.w.partitions, run.w.jobs, field16, field16_from);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    std::string named;
    for (std::size_t k = 0; k < field16.size(); ++k)
        named += fmt::format("{}{} = {}", k == 0 ? "" : ", ", k + 1, field16[k]);
    run.head << "partitions: SWF field 16 names " << named << " (" << field16_from << ")\n";
}

void make_engine(SimulateRun& run, const std::string& policy) {
    const RunConfig& rc = run.rc;
    std::string note;
    std::string cfg = engine_toml(rc, policy, run.w.procs, &note);
    if (!note.empty()) std::cerr << "rota: note: " << escaped(note) << "\n";
    rota_engine* e = nullptr;
    int rc_new = rota_engine_new(cfg.c_str(), rc.base_dir.c_str(), &e);
    if (rc_new != ROTA_OK) {
        std::string msg = rota_errmsg(e);
        rota_engine_free(e);
        throw ConfigError(policy + ": " + msg);
    }
    run.engines[policy].reset(e);
    run.engine_configs[policy] = cfg;
    // [Weissman03]'s jobs run at min..ideal under a named policy or a
    // custom configuration with [malleable], at the engine's model.
    if (uses_min(policy))
        run.exec_models[policy] = rc.exec_model;
    else if (policy == "custom")
        if (std::string m = malleable_model(cfg); !m.empty()) run.exec_models[policy] = m;
    // The scripts as the engine found them (the search path,
    // ROTA_POLICY_PATH, the shipped policies; a preset's own): no
    // output may be one, and none is written yet.
    for (int h = 0; rota_hook_name(h) != nullptr; ++h)
        if (const char* s = rota_hook_script(e, h))
            run.files.inputs.push_back(
                {std::string(rota_hook_name(h)) + " script of " + policy, s});
    if (const std::string warn = slice_warning(e, run.w.jobs); !warn.empty())
        std::cerr << "rota: warning: " << policy << ": " << escaped(warn) << "\n";
}

void make_engines(SimulateRun& run) {
    for (const auto& policy : run.rc.policies) make_engine(run, policy);
    if (const std::string warn = cycle_warning(run.rc.cycle, run.w.jobs); !warn.empty())
        std::cerr << "rota: warning: " << escaped(warn) << "\n";
    check_output_paths(run.files.inputs, run.files.outputs);
}

// The provenance: the version, the command, the trace and its digest,
// the effective configuration and the seeds.
nlohmann::json provenance_json(const SimulateRun& run, const Provenance& prov) {
    const RunConfig& rc = run.rc;
    nlohmann::json p;
    p["rota_version"] = rota_version();
    p["abi_version"] = rota_abi_version();
    p["argv"] = prov.argv;
    p["command_line"] = command_line(prov.argv);
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
    p["seeds"] = {
        {"workload", rc.trace.empty() ? nlohmann::json(rc.workload.seed) : nlohmann::json(nullptr)},
        {"arrivals", rc.arrival_seed}};
    p["configuration"] = {{"simulator", run_config_json(rc)}, {"engine", run.engine_configs}};
    return p;
}

// One policy's simulation, from its options to its outputs: what the
// options point to lives as long as the results are written.
struct PolicyRun {
    explicit PolicyRun(std::string policy) : policy(std::move(policy)) {}

    std::string policy;
    SimOptions opt;
    std::vector<std::int32_t> classes;  // [Feitelson97]: each job's class, or empty
    std::unique_ptr<StopMonitor> monitor;
    std::optional<Progress> bar;
    SimResult r;
    double secs = 0;
    MeasuredSet measured;
    Summary s;
    nlohmann::json j;
};

void set_options(const SimulateRun& run, PolicyRun& p, rota_engine* e) {
    const RunConfig& rc = run.rc;
    const Workload& w = run.w;
    SimOptions& opt = p.opt;
    // Only the CSVs print the nodes: a run without them does not
    // keep a text per job.
    opt.record_nodes = run.files.jobs_csv.count(p.policy) > 0 ||
                       run.files.batsim_csv.count(p.policy) > 0 ||
                       run.files.jobs_npy.count(p.policy) > 0;
    opt.order = rc.compat == "pyss" ? EventOrder::pyss : EventOrder::batched;
    opt.cs_overhead = rc.cs_overhead;
    opt.pools = &w.pools;
    opt.components = run.components;
    opt.deps = &w.deps;
    opt.arrival_order = &run.order;
    opt.partition = &w.partitions;  // SWF field 16
    opt.partition_names = &run.field16;
    opt.cycle = rc.cycle;
    p.classes = job_classes(e, w.jobs, rc.interactive_procs, rc.interactive_time);
    if (!p.classes.empty()) opt.job_class = &p.classes;  // [Feitelson97]
    if (auto m = run.exec_models.find(p.policy); m != run.exec_models.end()) {
        // [Weissman03]: min..ideal, scaled by the execution model
        opt.min_procs = &run.mins;
        opt.adapt_bytes = &w.adapt_bytes;  // [Weissman03] §4.1's overhead
        opt.exec_model = m->second == "parabolic" ? 1 : 0;
    }
}

// What watches the simulation as it runs: the stopping rule, the gang
// matrix printed at --matrix-at, the progress bar.
void watch(SimulateRun& run, PolicyRun& p) {
    const RunConfig& rc = run.rc;
    if (rc.stop_rel_error > 0) {
        StopRule rule;
        rule.rel_error = rc.stop_rel_error;
        rule.warmup = rc.warmup;
        rule.groups = rc.stop_on == "groups";
        rule.batches = run.bmo;
        p.monitor = std::make_unique<StopMonitor>(run.shapes, run.layout, run.order, rule);
        p.opt.stop = [m = p.monitor.get()](const std::vector<JobOutcome>& o) {
            return m->update(o);
        };
    }
    if (rc.matrix_at >= 0) {
        auto at = static_cast<std::int64_t>(rc.matrix_at * 1e6);
        auto printed = std::make_shared<bool>(false);
        const auto* jobs = &run.w.jobs;
        p.opt.after_pass = [at, printed, policy = p.policy, jobs](rota_engine* eng,
                                                                  std::int64_t now) {
            if (*printed || now < at) return;
            *printed = true;
            print_matrix(std::cout, eng, policy, now, [jobs](std::int64_t i) {
                return (*jobs)[static_cast<std::size_t>(i)].id;
            });
        };
    }
    if (run.tty) {
        p.bar.emplace(p.policy, run.first_submit, run.last_submit);
        p.opt.progress_every =
            std::max<std::int64_t>(1, static_cast<std::int64_t>(run.w.jobs.size()) / 1000);
        p.opt.progress = [&bar = p.bar, &w = run.w, &order = run.order](std::int64_t d,
                                                                        std::int64_t) {
            if (d > 0) bar->update(w.jobs[order[static_cast<std::size_t>(d - 1)]].submit);
        };
    }
}

// Simulates, then summarizes the measured jobs: after the warm-up, up to
// where the rule held.
void simulate_policy(SimulateRun& run, PolicyRun& p, rota_engine* e) {
    const std::vector<std::uint32_t>& order = run.order;
    auto t0 = std::chrono::steady_clock::now();
    p.r = simulate(e, run.w.jobs, p.opt);
    p.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (p.bar) p.bar->update(run.last_submit, true);
    run.engines[p.policy].reset();
    p.measured = {run.rc.warmup,
                  p.monitor && p.monitor->stopped() ? p.monitor->measured_jobs() : -1};
    std::vector<JobOutcome> kept;
    const bool subset = run.rc.warmup > 0 || p.monitor;
    if (subset) {
        const auto first = static_cast<std::size_t>(p.measured.first);
        const std::size_t last =
            p.measured.count < 0
                ? order.size()
                : std::min(order.size(), first + static_cast<std::size_t>(p.measured.count));
        for (std::size_t k = first; k < last; ++k) kept.push_back(p.r.jobs[order[k]]);
    }
    p.s = summarize(subset ? kept : p.r.jobs, run.w.procs, p.r.capacity_loss);
    p.s.mean_queue = p.r.mean_queue;
    p.s.resources = static_cast<std::int32_t>(1 + run.w.pools.count());
}

nlohmann::json counters_json(const SimResult& r) {
    const rota_counters& c = r.counters;
    return {{"passes", c.passes},
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
}

// [Weissman03]'s Table 2: harvest success rate, harvest events per job (a
// victim's SHRINK is one event for it). The paper does not say whom it
// divides by, so both readings are given: every job, and the jobs harvested
// at least once.
nlohmann::json malleable_json(const SimulateRun& run, const PolicyRun& p) {
    const rota_counters& c = p.r.counters;
    std::int64_t events = 0, harvested = 0;
    for (const auto& o : p.r.jobs) {
        events += o.harvested;
        harvested += o.harvested > 0;
    }
    return {{"min_pct", run.rc.min_pct},
            // A custom configuration's M is its own [malleable]'s.
            {"mpl_limit",
             p.policy == "custom" ? nlohmann::json(nullptr) : nlohmann::json(run.rc.mpl_limit)},
            {"exec_model", run.exec_models.at(p.policy)},
            {"harvest_success_rate",
             c.harvest_attempts > 0
                 ? static_cast<double>(c.harvests) / static_cast<double>(c.harvest_attempts)
                 : 1.0},
            {"harvest_events_per_job",
             p.r.jobs.empty() ? 0.0
                              : static_cast<double>(events) / static_cast<double>(p.r.jobs.size())},
            {"harvested_jobs", harvested},
            {"harvest_events_per_harvested_job",
             harvested == 0 ? 0.0 : static_cast<double>(events) / static_cast<double>(harvested)}};
}

// [Feitelson97] §4.8: the share of completed jobs ever preempted.
nlohmann::json classes_json(const SimResult& r) {
    const rota_counters& c = r.counters;
    std::int64_t done = 0, preempted = 0;
    for (const auto& o : r.jobs)
        if (o.state == FinalState::finished || o.state == FinalState::killed) {
            ++done;
            preempted += o.preemptions > 0;
        }
    return {{"preemptions", c.preemptions},
            {"swap_ins", c.swap_ins},
            {"reservations", c.class_reservations},
            {"preempted_share",
             done > 0 ? static_cast<double>(preempted) / static_cast<double>(done) : 0.0}};
}

// The policy's summary JSON, but for its groups and stopping rule; its
// rejections are noted for the lines after the table.
void summarize_policy(SimulateRun& run, PolicyRun& p) {
    const Workload& w = run.w;
    const SimResult& r = p.r;
    nlohmann::json& j = p.j;
    j = to_json(p.s);
    auto& res = j["pools"] = nlohmann::json::array();
    for (const auto& pool : w.pools.pools)
        res.push_back({{"name", pool.name}, {"capacity", pool.capacity}});
    j["weight"] =
        "mean over the K resources of the job's share (procs / machine procs, demand / "
        "pool "
        "capacity), times its execution time";
    for (const auto& [k, v] : w.info.items()) j[k] = v;
    if (!r.rejections.empty()) {
        run.rejected_lines.push_back(
            fmt::format("{}: {} job{} rejected; first: job {}: {}", p.policy, r.rejections.size(),
                        r.rejections.size() == 1 ? "" : "s", r.rejections.front().first,
                        r.rejections.front().second));
    }
    j["simulation_seconds"] = p.secs;
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
    j["counters"] = counters_json(r);
    j["migration_node_seconds"] = r.migration_node_seconds;
    if (run.exec_models.count(p.policy) > 0) j["malleable"] = malleable_json(run, p);
    if (p.opt.job_class) j["classes"] = classes_json(r);
    if (!r.rejections.empty()) {
        auto& rej = j["rejections"] = nlohmann::json::array();
        for (std::size_t k = 0; k < r.rejections.size() && k < 100; ++k)
            rej.push_back({{"job_id", r.rejections[k].first}, {"reason", r.rejections[k].second}});
    }
}

// The stopping rule's outcome, printed after the table.
std::string stop_line(const SimulateRun& run, const PolicyRun& p, const BatchMeansResult& b) {
    const RunConfig& rc = run.rc;
    if (p.monitor->stopped())
        return fmt::format(
            "{}: stopping rule reached: max relative error {:.4f} <= {} at "
            "{:g} % ({}); {} jobs measured after a warm-up of {}, in {} "
            "batches of {}; stopped at t = {} s after {} arrivals",
            p.policy, b.max_rel_error, rc.stop_rel_error, 100 * rc.confidence,
            rc.stop_on == "groups" ? "stream and every group" : "whole stream",
            thousands(p.monitor->measured_jobs()), thousands(rc.warmup), b.batches,
            thousands(b.batch_size), thousands(p.r.stop_time), thousands(p.r.arrived));
    return fmt::format(
        "{}: stopping rule NOT reached: the workload's {} jobs ran "
        "out with max relative error {} (target {}); every job after "
        "the warm-up of {} is measured",
        p.policy, thousands(static_cast<std::int64_t>(run.w.jobs.size())),
        std::isinf(b.max_rel_error) ? std::string("unknown (too few batches)")
                                    : fmt::format("{:.4f}", b.max_rel_error),
        rc.stop_rel_error, thousands(rc.warmup));
}

// [Ngubiri07] §4.2: the policy's groups, and whether the stopping rule held.
void report_groups(SimulateRun& run, PolicyRun& p) {
    const RunConfig& rc = run.rc;
    if (run.with_groups) {
        GroupReport gr = group_report(run.w.jobs, run.shapes, p.r.jobs, run.order, run.layout,
                                      p.measured, run.bmo);
        gr.time_unit = run.w.time_unit;
        p.j["groups"] = to_json(gr);
        run.group_reports.emplace_back(p.policy, std::move(gr));
    }
    if (!p.monitor) return;
    const bool held = p.monitor->stopped();
    const auto& b = held ? p.monitor->last() : run.group_reports.back().second.batches;
    p.j["stopping"] = {
        {"rel_error", rc.stop_rel_error},
        {"confidence", rc.confidence},
        {"on", rc.stop_on},
        {"warmup", rc.warmup},
        {"reached", held},
        {"max_rel_error",
         std::isinf(b.max_rel_error) ? nlohmann::json() : nlohmann::json(b.max_rel_error)},
        {"arrived", p.r.arrived},
        {"stop_time", p.r.stop_time},
        {"measured_jobs", held ? p.monitor->measured_jobs() : p.measured.count}};
    run.stop_lines.push_back(stop_line(run, p, b));
}

void write_outputs(SimulateRun& run, PolicyRun& p) {
    OutputFiles& files = run.files;
    const Workload& w = run.w;
    const SimResult& r = p.r;
    if (auto f = files.jobs_csv.find(p.policy); f != files.jobs_csv.end()) {
        JobExtras extras{nullptr, &w.jobs, &r.nodes, p.opt.job_class,
                         run.exec_models.count(p.policy) > 0};
        write_jobs_csv(f->second->out(), r.jobs, w.components.empty() ? nullptr : &w.components,
                       run.components ? &r.clusters : nullptr, &extras);
        f->second->commit();
    }
    if (auto f = files.batsim_csv.find(p.policy); f != files.batsim_csv.end()) {
        const RunConfig& rc = run.rc;
        write_batsim_csv(
            f->second->out(), r.jobs, r.nodes,
            workload_stem(rc.trace.empty() ? model_name(rc.workload.model) : rc.trace));
        f->second->commit();
    }
    if (auto f = files.jobs_npy.find(p.policy); f != files.jobs_npy.end()) {
        Output& nodes_file = files.jobs_npy_nodes[p.policy];
        write_jobs_npy(f->second->out(), &nodes_file->out(), r.jobs, r.nodes);
        f->second->commit();
        nodes_file->commit();
    }
    if (auto f = files.swf_out.find(p.policy); f != files.swf_out.end()) {
        write_schedule_swf(f->second->out(), w.jobs, r.jobs,
                           {p.policy, rota_version(), w.name, w.procs});
        f->second->commit();
    }
}

void run_policy(SimulateRun& run, const std::string& policy) {
    rota_engine* e = run.engines[policy].get();
    PolicyRun p(policy);
    set_options(run, p, e);
    watch(run, p);
    simulate_policy(run, p, e);
    summarize_policy(run, p);
    report_groups(run, p);
    run.summary_json[policy] = p.j;
    run.columns.emplace_back(policy, p.s);
    write_outputs(run, p);
    std::cerr << fmt::format(
        "{}: simulated {} jobs in {}\n", policy, run.w.jobs.size(),
        p.secs < 60 ? fmt::format("{:.2f} s", p.secs) : human_duration(p.secs));
}

void run_policies(SimulateRun& run) {
    if (!run.exec_models.empty()) run.mins = min_procs(run.w.jobs, run.rc.min_pct);
    if (!run.order.empty()) {
        run.first_submit = run.w.jobs[run.order.front()].submit;
        run.last_submit = run.w.jobs[run.order.back()].submit;
    }
    for (const auto& policy : run.rc.policies) try {
            run_policy(run, policy);
        } catch (const std::exception& ex) {
            // The results already computed are kept: reported and written below.
            run.failures.push_back(policy + ": " + ex.what());
            run.summary_json[policy] = {{"error", ex.what()}};
            if (run.tty) std::cerr << "\n";  // past the progress bar; the error is printed below
        }
}

void print_results(const SimulateRun& run) {
    const RunConfig& rc = run.rc;
    if (rc.warmup > 0 || rc.stop_rel_error > 0)
        std::cout << "metrics over the measured jobs: arrivals after the warm-up of "
                  << thousands(rc.warmup)
                  << (rc.stop_rel_error > 0 ? ", up to where the stopping rule held" : "") << "\n";
    if (!run.columns.empty()) print_table(std::cout, run.columns);
    if (const std::string best = best_line(run.columns); !best.empty()) std::cout << best << "\n";
    for (const auto& l : run.rejected_lines) std::cout << l << "\n";
    for (const auto& [name, gr] : run.group_reports) print_groups(std::cout, name, gr);
    if (!run.stop_lines.empty()) std::cout << "\n";
    for (const auto& l : run.stop_lines) std::cout << l << "\n";
}

// [Leinberger99] §4.2's gains over the baseline, when it ran with others.
void report_gains(SimulateRun& run) {
    const auto& columns = run.columns;
    const std::string base = gain_baseline(run.rc.policies);
    if (base.empty() || columns.size() <= 1) return;
    print_gains(std::cout, columns, base);
    const Summary* b = nullptr;
    for (const auto& [name, s] : columns)
        if (name == base) b = &s;
    for (const auto& [name, s] : columns) {
        if (!b) break;
        auto gain = [](double x) -> nlohmann::json {
            return std::isnan(x) ? nlohmann::json() : nlohmann::json(x);
        };
        run.summary_json[name]["gain_over_" + base] = {
            {"response_mean", gain(normalised_gain(b->all.response.mean, s.all.response.mean))},
            {"weighted_response",
             gain(normalised_gain(b->all.weighted_response, s.all.weighted_response))}};
    }
}

// The exit status: 1 when a simulation failed, each failure named.
int report_failures(const SimulateRun& run) {
    if (run.failures.empty()) return 0;
    for (const auto& f : run.failures) std::cerr << "rota: error: " << escaped(f) << "\n";
    if (run.rc.policies.size() > 1)
        std::cerr << "rota: error: " << run.failures.size() << " of " << run.rc.policies.size()
                  << " simulations failed; the others are reported above\n";
    return 1;
}

}  // namespace

int run_simulate(RunConfig rc, const Provenance& prov) {
    check_policies(rc);
    check_output_flags(rc);
    OutputFiles files = open_outputs(rc);
    // --json: the JSON alone on the standard output, everything else on stderr.
    std::streambuf* const stdout_buf = std::cout.rdbuf();
    if (rc.json) std::cout.rdbuf(std::cerr.rdbuf());
    struct Restore {
        std::streambuf* buf;
        ~Restore() { std::cout.rdbuf(buf); }
    } restore{stdout_buf};

    SimulateRun run(rc, files);
    run.w = load_workload(rc);
    run.tty = rc.progress && isatty(STDERR_FILENO);
    choose_clusters(rc, run.w);
    describe_workload(run);
    set_up_groups(run);
    name_partitions(run);
    prepare_workload(rc, run.w, run.head);
    // After prepare_workload: Poisson arrivals replace the submit times.
    run.order = arrival_order(run.w.jobs);
    make_engines(run);
    std::cout << escaped(run.head.str(), true);
    // Only a summary printed as JSON carries the provenance: hashing the
    // trace is a read of the whole file.
    if (files.summary_file || rc.json) run.summary_json["provenance"] = provenance_json(run, prov);
    run_policies(run);
    print_results(run);
    report_gains(run);
    if (files.summary_file) {
        files.summary_file->out() << json_safe(run.summary_json).dump(2) << "\n";
        files.summary_file->commit();
    }
    if (rc.json) {
        std::cout.rdbuf(stdout_buf);
        std::cout << json_safe(run.summary_json).dump(2) << "\n";
    }
    return report_failures(run);
}

}  // namespace rota::sim
