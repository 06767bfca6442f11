#include "generate_command.h"

#include <fmt/core.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibrate.h"
#include "cli_checks.h"
#include "clusters.h"
#include "output_file.h"
#include "run_config.h"
#include "swf.h"
#include "weissman.h"

namespace rota::sim {

namespace {

// A generator setting refused, named by the `rota generate` flag that set
// it: its name with dashes; ngubiri's size interval is one flag, --sizes.
std::string generate_flag_error(const GenerateError& e) {
    if (e.setting == "size_min" || e.setting == "size_max")
        return "--sizes: " + e.setting + " " + e.rule;
    std::string flag = "--" + e.setting;
    std::replace(flag.begin(), flag.end(), '_', '-');
    return flag + ": " + e.rule;
}

}  // namespace

std::shared_ptr<GenerateArgs> add_generate_command(CLI::App& app) {
    auto a = std::make_shared<GenerateArgs>();
    GenerateOptions& g = a->g;
    auto* gen = app.add_subcommand("generate", "write a synthetic workload as SWF");
    a->command = gen;
    gen->add_option(
           "--model", a->model,
           "lublin: the Lublin-Feitelson 2003 model (128 processors, load 0.5; the "
           "built-in workload) | standard: rota's own model | zhang: [Zhang00]'s LLNL "
           "workload (320 nodes, load 0.55 "
           "at factor 1) | feitelson-k: [Leinberger99]'s K-resource workload (128 processors) "
           "| ngubiri: [Ngubiri07]'s multi-cluster workload (5 clusters of 20 nodes) | "
           "feitelson96: [Feitelson97]'s workload with repeated runs (128 processors, load "
           "0.5) | weissman: [Weissman03] §4.2's system-centric workload fitted to the SDSC "
           "SP2 log (128 processors) | weissman-apps: [Weissman03] §4.1's STEN/GE/CL "
           "instances (64 processors)")
        ->check(CLI::IsMember({"standard", "zhang", "feitelson-k", "ngubiri", "lublin",
                               "feitelson96", "weissman", "weissman-apps"}))
        ->default_str("standard");
    gen->add_option("--k", g.k, "feitelson-k: resources K, processors and K-1 pools (default 2)")
        ->check(int_in(1, kMaxResources, "a whole number from 1 to 64"));
    gen->add_option("--variance", g.variance,
                    "feitelson-k: V of the requirements' Normal(0.5, V) (default 0.1)");
    gen->add_option(
        "--queue-length", a->queue,
        "feitelson-k: calibrate the Poisson arrival rate so that FCFS/FF-EASY keeps "
        "this mean ready queue ([Leinberger99] §4.1: 32, 64, 128); else --load sets it");
    gen->add_option("--tolerance", a->tolerance,
                    "feitelson-k: relative tolerance of the calibration (default 0.05)");
    gen->add_option("--pool-capacity", g.pool_capacity,
                    "feitelson-k: capacity of each pool r2..rK (default 1000000)")
        ->check(int_at_least(1));
    gen->add_option("--fit-trace", g.fit_trace,
                    "weissman: the SWF log whose hourly arrivals, sizes and Weibull run times "
                    "the workload follows (default: the built-in SDSC SP2 fit)");
    gen->add_option("--apps", g.apps,
                    "weissman-apps: the trace template, sten | ge | cl | mixed (default mixed)")
        ->check(CLI::IsMember({"sten", "ge", "cl", "mixed"}));
    gen->add_option("--beta", g.beta,
                    "weissman-apps: beta of the inter-arrival time RT_ideal / (P / P_ideal) x "
                    "beta (§4.1: 0.25, 0.5, 0.75, 1; default 1; 0 submits every job at once)")
        ->check(real_in(0, 1e6, false, false, "a number >= 0"));
    gen->add_option("--factor", g.factor,
                    "zhang: execution-time factor, 1.0..1.8 = workloads 0..8 of [Zhang00] Table 1");
    gen->add_option("--q", g.q, "ngubiri: q of the size distribution D(q), eq. 1 (default 0.85)");
    gen->add_option("--sizes", a->sizes, "ngubiri: the size interval n1-n2 of D(q) (default 1-38)");
    gen->add_option("--thres", g.thres,
                    "ngubiri: the largest job not broken into components (default 11)")
        ->check(int_in(0, kMaxNgubiriSize, "a whole number from 0 to 1000000"));
    gen->add_option("--max-components", g.max_components,
                    "ngubiri: the most components of a job, k (default 4)")
        ->check(int_in(1, kMaxComponents, "a whole number from 1 to 1000"));
    gen->add_option("--partition", a->partition,
                    "ngubiri: how a large job's component count is chosen: random (default) | "
                    "phased (by its size)")
        ->check(CLI::IsMember({"random", "phased"}));
    gen->add_option("--mean-runtime", g.mean_runtime,
                    "ngubiri: mean execution time, model time units (default 10)");
    gen->add_option("--mean-interarrival", g.mean_interarrival,
                    "ngubiri: mean inter-arrival time, model time units (default 0.64)");
    gen->add_option("--time-unit", g.time_unit,
                    "ngubiri: seconds per model time unit in the SWF file (default 1000)");
    gen->add_option("--clusters", a->clusters,
                    "ngubiri: the machine, recorded in the header: 5x20 (default) or 20,20,16");
    gen->add_option("--jobs", g.jobs, "number of jobs")
        ->check(int_in(1, kMaxJobs, "a whole number from 1 to 100000000"))
        ->default_str("10000");
    gen->add_option("--procs", g.procs,
                    "machine size (default: 1024; lublin, feitelson-k, feitelson96, weissman: "
                    "128; weissman-apps: 64; zhang: 320)")
        ->check(int_in(1, kMaxMachineProcs,
                       "a number of processors from 1 to " + std::to_string(kMaxMachineProcs) +
                           " (the engine's largest machine)"));
    gen->add_option("--load", g.load,
                    "offered load (standard, lublin, feitelson-k, feitelson96 and weissman; "
                    "default 0.9, lublin and feitelson96 0.5, weissman the fitted log's own "
                    "rates)")
        ->check(offered_load());
    gen->add_option("--phi", g.phi,
                    "Φ: fraction of jobs whose estimate is their runtime ([Zhang00] §2.1; "
                    "default 0.2; feitelson-k, feitelson96, weissman and weissman-apps: 1)")
        ->check(real_in(0, 1, false, false, "a number in [0, 1]"));
    gen->add_option("--seed", g.seed, "random seed")->check(int_at_least(0))->default_str("1");
    gen->add_option("-o,--output", a->out_path, "output file (default, or -: the standard output)");
    return a;
}

namespace {

// ngubiri's settings: the model's own ([Ngubiri07] §3), with the flags
// given; the flags of a machine size, a load or estimates are refused.
GenerateOptions ngubiri_settings(const GenerateArgs& a) {
    const GenerateOptions& g = a.g;
    const CLI::App* gen = a.command;
    const std::string& gen_sizes = a.sizes;
    const std::string& gen_partition = a.partition;
    const std::string& gen_clusters = a.clusters;
    for (const char* f : {"--load", "--phi", "--procs"})
        if (gen->count(f) > 0)
            throw ConfigError(std::string(f) +
                              " does not apply to --model ngubiri (the load follows "
                              "from --mean-runtime and --mean-interarrival, the "
                              "machine from --clusters; runtimes are unknown)");
    GenerateOptions n = ngubiri_options();
    n.jobs = g.jobs;
    n.seed = g.seed;
    n.q = g.q;
    n.thres = g.thres;
    n.max_components = g.max_components;
    n.mean_runtime = g.mean_runtime;
    n.mean_interarrival = g.mean_interarrival;
    n.time_unit = g.time_unit;
    try {
        if (!gen_partition.empty()) n.partition = parse_partition(gen_partition);
        if (!gen_clusters.empty()) {
            n.clusters.clear();
            for (const auto& c : parse_clusters(gen_clusters)) n.clusters.push_back(c.nodes);
        }
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    if (!gen_sizes.empty()) {
        const auto dash = gen_sizes.find('-');
        try {
            if (dash == std::string::npos) throw std::invalid_argument("");
            std::size_t a = 0, b = 0;
            const std::string lo = gen_sizes.substr(0, dash), hi = gen_sizes.substr(dash + 1);
            n.size_min = std::stoi(lo, &a);
            n.size_max = std::stoi(hi, &b);
            if (a != lo.size() || b != hi.size()) throw std::invalid_argument("");
        } catch (const std::exception&) {
            throw ConfigError("--sizes: expected n1-n2 such as 1-38, not '" + gen_sizes + "'");
        }
    }
    n.procs = 0;
    for (auto c : n.clusters) n.procs += c;
    return n;
}

// The model named and the flags that apply to it, each model's defaults
// where a flag was not given; a flag of another model is refused.
void settle_model(GenerateArgs& a) {
    GenerateOptions& g = a.g;
    CLI::App* gen = a.command;
    const std::string& out_path = a.out_path;
    const std::string& gen_model = a.model;
    const double gen_queue = a.queue;
    // -o replaces the file it names: the fitted trace would be lost.
    if (!out_path.empty() && !g.fit_trace.empty()) try {
            check_output_paths({{"fitted trace", g.fit_trace}}, {{"output", out_path}});
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
        }
    g.model = parse_model(gen_model);
    const bool fk = g.model == WorkloadModel::feitelson_k;
    const bool ng = g.model == WorkloadModel::ngubiri;
    for (const char* f : {"--q", "--sizes", "--thres", "--max-components", "--partition",
                          "--mean-runtime", "--mean-interarrival", "--time-unit", "--clusters"})
        if (!ng && gen->count(f) > 0)
            throw ConfigError(std::string(f) + " applies only to --model ngubiri");
    if (ng) g = ngubiri_settings(a);
    if (g.model == WorkloadModel::lublin) {
        const GenerateOptions l = lublin_options(g.seed);
        if (gen->count("--procs") == 0) g.procs = l.procs;
        if (gen->count("--load") == 0) g.load = l.load;
    }
    const bool ws = g.model == WorkloadModel::weissman;
    const bool wa = g.model == WorkloadModel::weissman_apps;
    if (!ws && gen->count("--fit-trace") > 0)
        throw ConfigError("--fit-trace applies only to --model weissman");
    for (const char* f : {"--apps", "--beta"})
        if (!wa && gen->count(f) > 0)
            throw ConfigError(std::string(f) + " applies only to --model weissman-apps");
    if (wa && gen->count("--load") > 0)
        throw ConfigError(
            "--load does not apply to --model weissman-apps: --beta sets the arrivals");
    if (ws || wa) {
        const GenerateOptions d = ws ? weissman_options(g.seed) : weissman_apps_options(g.seed);
        if (gen->count("--procs") == 0) g.procs = d.procs;
        if (gen->count("--load") == 0) g.load = d.load;
        if (gen->count("--phi") == 0) g.phi = d.phi;  // exact estimates
        if (ws && !g.fit_trace.empty()) {
            // Fitted here first, so that every fault of the log is the
            // log's: an input, exit 1, as a trace's faults are.
            try {
                const auto fit = fit_weissman_trace(g.fit_trace);
                if (gen->count("--procs") == 0) g.procs = fit.procs;
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("--fit-trace: ") + e.what());
            }
        }
    }
    const bool f96 = g.model == WorkloadModel::feitelson96;
    if (f96) {
        const GenerateOptions f = feitelson96_options(g.seed);
        if (gen->count("--procs") == 0) g.procs = f.procs;
        if (gen->count("--load") == 0) g.load = f.load;
        if (gen->count("--phi") == 0) g.phi = f.phi;  // exact estimates
    }
    if (g.model == WorkloadModel::zhang) {
        if (gen->count("--load") > 0)
            throw ConfigError("--load does not apply to --model zhang: use --factor");
        if (gen->count("--procs") == 0) g.procs = kZhangProcs;
    } else if (gen->count("--factor") > 0) {
        throw ConfigError("--factor applies only to --model zhang");
    }
    for (const char* f : {"--k", "--variance", "--queue-length", "--tolerance", "--pool-capacity"})
        if (!fk && gen->count(f) > 0)
            throw ConfigError(std::string(f) + " applies only to --model feitelson-k");
    if (fk) {
        if (gen->count("--procs") == 0) g.procs = kFeitelsonProcs;
        if (gen->count("--phi") == 0) g.phi = 1.0;  // exact estimates
        if (gen_queue > 0 && gen->count("--load") > 0)
            throw ConfigError("--load and --queue-length both set the arrival rate");
        g.queue_length = gen_queue;
    }
}

}  // namespace

int run_generate_command(GenerateArgs& a) {
    settle_model(a);
    const GenerateOptions& g = a.g;
    const std::string& out_path = a.out_path;
    const double gen_queue = a.queue, gen_tolerance = a.tolerance;
    const bool fk = g.model == WorkloadModel::feitelson_k;
    const bool f96 = g.model == WorkloadModel::feitelson96;
    GeneratedWorkload w;
    try {
        w = generate_workload(g);
    } catch (const SwfError& e) {
        throw std::runtime_error(std::string("--fit-trace: ") + e.what());
    } catch (const GenerateError& e) {
        throw ConfigError(generate_flag_error(e));
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
    std::vector<std::string> notes = w.notes;
    if (fk && gen_queue > 0) {
        CalibrationOptions co;
        co.target = gen_queue;
        co.tolerance = gen_tolerance;
        co.progress = print_calibration_step;
        CalibrationResult r;
        try {
            r = calibrate_arrivals(w.jobs, w.pools, g.procs, w.unit_arrivals, co);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(e.what());
        }
        const std::string line = fmt::format(
            "Calibration: FCFS/FF-EASY (preset {}) keeps {:.3f} jobs waiting on average "
            "for a target of {} (tolerance {}), {} simulations{}",
            co.policy, r.mean_queue, co.target, co.tolerance, r.runs,
            r.converged ? "" : ", NOT within the tolerance");
        notes.push_back(
            fmt::format("Arrivals: Poisson at {:.9g} jobs/s (offered processor load {:.4f})",
                        r.rate, r.offered_load));
        notes.push_back(line);
        std::cerr << "rota: " << line << "; rate " << fmt::format("{:.6g}", r.rate) << " jobs/s\n";
    } else if (fk) {
        notes.push_back(fmt::format("Arrivals: Poisson at offered processor load {}", g.load));
    } else if (f96) {
        notes.push_back(
            fmt::format("Arrivals: new jobs Poisson at offered processor load {} (every run's work "
                        "over the span of the new jobs' arrivals); {} of the {} jobs are repeated "
                        "runs, submitted when the run before ends",
                        g.load, w.deps.count(), w.jobs.size()));
    }
    auto write = [&](std::ostream& os) {
        write_swf(os, w.jobs, g, &w.pools, notes, &w.components, &w.deps, &w.apps);
    };
    if (out_path.empty() || out_path == "-") {  // as --trace - reads it
        write(std::cout);
    } else {
        OutputFile out(out_path, "output");
        write(out.out());
        out.commit();
    }
    return 0;
}

}  // namespace rota::sim
