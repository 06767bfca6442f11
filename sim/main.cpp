// The `rota` command-line tool: simulate traces and generated workloads
// under the engine's policies, and generate synthetic workloads.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "generate.h"
#include "matrix_view.h"
#include "metrics.h"
#include "run_config.h"
#include "simulation.h"
#include "swf.h"

using namespace rota::sim;

namespace {

struct Workload {
    std::string name;
    std::vector<TraceJob> jobs;
    std::int32_t procs = 0;
    MappingStats stats;
};

Workload load_workload(const RunConfig& rc) {
    Workload w;
    if (rc.trace.empty()) {
        GenerateOptions g = rc.workload;
        if (rc.procs > 0) g.procs = rc.procs;
        w.name = "generated: " + describe(g);
        w.jobs = generate(g);
        w.procs = g.procs;
        return w;
    }
    const bool pyss = rc.compat == "pyss";
    Trace t = load_trace(rc.trace, pyss ? Mapping::pyss : Mapping::standard, rc.procs);
    w.procs = rc.procs > 0             ? rc.procs
              : t.header.max_procs > 0 ? t.header.max_procs
                                       : t.header.max_nodes;
    if (w.procs <= 0)
        throw ConfigError("the trace header gives neither MaxProcs nor MaxNodes: use --procs");
    w.name = rc.trace;
    w.jobs = std::move(t.jobs);
    w.stats = std::move(t.stats);
    return w;
}

std::string with_suffix(const std::string& path, const std::string& policy, bool several) {
    if (!several) return path;
    auto dot = path.find_last_of('.');
    auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return path + "." + policy;
    return path.substr(0, dot) + "." + policy + path.substr(dot);
}

void progress_bar(const std::string& label, std::int64_t done, std::int64_t total) {
    int pct = total > 0 ? static_cast<int>(100 * done / total) : 100;
    int bar = pct * 30 / 100;
    std::fprintf(stderr, "\r%-14s [%.*s%*s] %3d%%", label.c_str(), bar,
                 "##############################", 30 - bar, "", pct);
    if (done >= total) std::fputc('\n', stderr);
}

int run_simulate(RunConfig rc) {
    if (rc.policies.empty()) rc.policies = {"fcfs", "easy", "conservative"};
    if (rc.compat != "none" && rc.compat != "pyss")
        throw ConfigError("unknown compat mode '" + rc.compat + "' (expected none or pyss)");
    for (const auto& p : rc.policies)
        if (rc.compat == "pyss" && is_gang_preset(p))
            throw ConfigError(
                "--compat pyss reproduces pyss's space-sharing schedules; it does "
                "not apply to the gang preset '" +
                p + "'");
    Workload w = load_workload(rc);
    const bool tty = rc.progress && isatty(STDERR_FILENO);

    std::vector<std::pair<std::string, Summary>> columns;
    nlohmann::json summary_json = nlohmann::json::object();
    std::cout << "workload: " << w.name << "\n"
              << "jobs: " << w.jobs.size() << ", processors: " << w.procs << "\n";
    if (w.stats.skipped_total() > 0) {
        std::cout << "skipped records (never ran):";
        for (const auto& [why, n] : w.stats.skipped) std::cout << " " << why << "=" << n;
        std::cout << "\n";
    }
    for (const auto& policy : rc.policies) {
        std::string note;
        std::string cfg = engine_toml(rc, policy, w.procs, &note);
        if (!note.empty()) std::cerr << "rota: note: " << note << "\n";
        rota_engine* e = nullptr;
        int rc_new = rota_engine_new(cfg.c_str(), rc.base_dir.c_str(), &e);
        if (rc_new != ROTA_OK) {
            std::string msg = rota_errmsg(e);
            rota_engine_free(e);
            throw ConfigError(msg);
        }
        SimOptions opt;
        opt.order = rc.compat == "pyss" ? EventOrder::pyss : EventOrder::batched;
        opt.cs_overhead = rc.cs_overhead;
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
        if (tty) {
            opt.progress_every =
                std::max<std::int64_t>(1, static_cast<std::int64_t>(w.jobs.size()) / 100);
            opt.progress = [&](std::int64_t d, std::int64_t t) { progress_bar(policy, d, t); };
        }
        auto t0 = std::chrono::steady_clock::now();
        SimResult r;
        try {
            r = simulate(e, w.jobs, opt);
        } catch (...) {
            rota_engine_free(e);
            throw;
        }
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (tty) progress_bar(policy, 1, 1);
        rota_engine_free(e);
        Summary s = summarize(r.jobs, w.procs, r.capacity_loss);
        auto j = to_json(s);
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
        if (!r.rejections.empty()) {
            auto& rej = j["rejections"] = nlohmann::json::array();
            for (std::size_t k = 0; k < r.rejections.size() && k < 100; ++k)
                rej.push_back(
                    {{"job_id", r.rejections[k].first}, {"reason", r.rejections[k].second}});
        }
        summary_json[policy] = j;
        columns.emplace_back(policy, s);
        if (!rc.jobs_csv.empty()) {
            std::ofstream out(with_suffix(rc.jobs_csv, policy, rc.policies.size() > 1));
            if (!out) throw ConfigError("cannot write '" + rc.jobs_csv + "'");
            write_jobs_csv(out, r.jobs);
        }
        std::cerr << fmt::format("{}: simulated {} jobs in {:.2f} s\n", policy, w.jobs.size(),
                                 secs);
    }
    print_table(std::cout, columns);
    if (!rc.summary_json.empty()) {
        std::ofstream out(rc.summary_json);
        if (!out) throw ConfigError("cannot write '" + rc.summary_json + "'");
        out << summary_json.dump(2) << "\n";
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"rota: parallel-job scheduling engine, simulator and workload generator"};
    // No subcommand runs the main job: the built-in workload under FCFS,
    // EASY and conservative backfilling.
    app.require_subcommand(0, 1);

    std::string config_path;
    std::string trace, compat, jobs_csv, summary_json;
    std::vector<std::string> policies;
    std::int32_t procs = 0;
    std::int64_t max_jumps = -1, jobs = -1;
    double load = -1;
    std::int64_t seed = -1;
    bool no_progress = false;
    std::int64_t mpl = -1, migration_q = -2;
    double slice = -1, cs_overhead = -1, migration_cost = -1, matrix_at = -1;
    auto* sim = app.add_subcommand("simulate", "simulate a trace or a generated workload");
    sim->add_option("config", config_path, "TOML configuration file")->check(CLI::ExistingFile);
    sim->add_option("--trace", trace, "SWF trace (plain or .gz) [simulator.trace]");
    sim->add_option("--procs", procs, "machine size [simulator.procs]; default: trace header");
    sim->add_option(
           "--policy", policies,
           "fcfs|easy|conservative|fpfs|gs|bgs|mgs|mbgs|custom, comma-separated [simulator.policy]")
        ->delimiter(',');
    sim->add_option("--compat", compat, "none|pyss [simulator.compat]");
    sim->add_option("--jobs-csv", jobs_csv, "per-job CSV output [simulator.jobs_csv]");
    sim->add_option("--summary-json", summary_json, "summary JSON output [simulator.summary_json]");
    sim->add_option("--max-jumps", max_jumps, "FPFS maxJumps [simulator.max_jumps]");
    sim->add_option("--jobs", jobs, "generated workload: jobs [simulator.workload.jobs]");
    sim->add_option("--load", load, "generated workload: offered load [simulator.workload.load]");
    sim->add_option("--seed", seed, "generated workload: seed [simulator.workload.seed]");
    sim->add_flag("--no-progress", no_progress, "no progress bar [simulator.progress = false]");
    sim->add_option("--mpl", mpl, "gang: multiprogramming level, matrix rows [simulator.mpl]");
    sim->add_option("--slice", slice, "gang: time slice, seconds [simulator.slice]");
    sim->add_option("--cs-overhead", cs_overhead,
                    "gang: context-switch overhead, fraction of a slice [simulator.cs_overhead]");
    sim->add_option("--migration-cost", migration_cost,
                    "gang: migration cost C, seconds [simulator.migration_cost]");
    sim->add_option("--migration-q", migration_q,
                    "gang: most tasks migrated per slice, -1 unlimited [simulator.migration_q]");
    sim->add_option("--matrix-at", matrix_at,
                    "gang: print the matrix at this simulated time, seconds [simulator.matrix_at]");

    GenerateOptions g;
    std::string out_path, gen_model = "standard";
    auto* gen = app.add_subcommand("generate", "write a synthetic workload as SWF");
    gen->add_option("--model", gen_model,
                    "standard (default) | zhang: seed 000's LLNL workload (320 nodes, load 0.55 "
                    "at factor 1)")
        ->check(CLI::IsMember({"standard", "zhang"}));
    gen->add_option("--factor", g.factor,
                    "zhang: execution-time factor, 1.0..1.8 = workloads 0..8 of seed 000 Table 1");
    gen->add_option("--jobs", g.jobs, "number of jobs");
    gen->add_option("--procs", g.procs, "machine size (default: 1024; zhang: 320)");
    gen->add_option("--load", g.load, "offered load (standard model only)");
    gen->add_option("--phi", g.phi, "Φ: fraction of jobs whose estimate is exact (seed 000 §2.1)");
    gen->add_option("--seed", g.seed, "random seed");
    gen->add_option("-o,--output", out_path, "output file (default: stdout)");

    CLI11_PARSE(app, argc, argv);
    try {
        if (*gen) {
            g.model = parse_model(gen_model);
            if (g.model == WorkloadModel::zhang) {
                if (gen->count("--load") > 0)
                    throw ConfigError("--load does not apply to --model zhang: use --factor");
                if (gen->count("--procs") == 0) g.procs = kZhangProcs;
            } else if (gen->count("--factor") > 0) {
                throw ConfigError("--factor applies only to --model zhang");
            }
            auto w = generate(g);
            if (out_path.empty()) {
                write_swf(std::cout, w, g);
            } else {
                std::ofstream out(out_path);
                if (!out) throw ConfigError("cannot write '" + out_path + "'");
                write_swf(out, w, g);
            }
            return 0;
        }
        RunConfig rc = load_run_config(config_path);
        if (!trace.empty()) rc.trace = trace;
        if (procs > 0) rc.procs = procs;
        if (!policies.empty()) {
            for (const auto& p : policies) check_policy(p);
            rc.policies = policies;
        }
        if (!compat.empty()) rc.compat = compat;
        if (!jobs_csv.empty()) rc.jobs_csv = jobs_csv;
        if (!summary_json.empty()) rc.summary_json = summary_json;
        if (max_jumps >= 0) rc.max_jumps = max_jumps;
        if (jobs > 0) rc.workload.jobs = jobs;
        if (load > 0) rc.workload.load = load;
        if (seed >= 0) rc.workload.seed = static_cast<std::uint64_t>(seed);
        if (no_progress) rc.progress = false;
        if (mpl > 0) rc.mpl = mpl;
        if (slice > 0) rc.slice = slice;
        if (cs_overhead >= 0) rc.cs_overhead = cs_overhead;
        if (migration_cost >= 0) rc.migration_cost = migration_cost;
        if (migration_q >= -1) rc.migration_q = migration_q;
        if (matrix_at >= 0) rc.matrix_at = matrix_at;
        return run_simulate(std::move(rc));
    } catch (const std::exception& e) {
        std::cerr << "rota: error: " << e.what() << "\n";
        return 1;
    }
}
