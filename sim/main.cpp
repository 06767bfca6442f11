// The `rota` command-line tool: simulate traces and generated workloads
// under the engine's policies, and generate synthetic workloads.
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "escape.h"
#include "generate_command.h"
#include "output_file.h"
#include "run_config.h"
#include "simulate_args.h"
#include "simulate_run.h"
#include "sweep.h"
#include "top_command.h"

using namespace rota::sim;

namespace {

// Exit codes: 0 success, 1 a run-time error, 2 a usage error (bad options,
// configuration or input values). Messages start with "rota: error:".
constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

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
