// The `rota sweep` subcommand (docs/sweeps.md): traces x policies x
// parameters x seeds, run by a local process pool or as a Slurm job array,
// merged into one table with confidence intervals over seeds, and plotted.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace rota::sim {

struct SweepArgs {
    CLI::App* command = nullptr;
    std::string file;         // the sweep file
    std::string output;       // -o: the sweep folder
    int jobs = 1;             // -j
    std::string slurm;        // --slurm DIR
    std::string collect;      // --collect DIR
    std::string rota;         // --rota: the binary the runs use
    std::string plot_script;  // --plot-script
    bool no_plots = false;
};

// Registers `sweep` on the tool's command line.
std::shared_ptr<SweepArgs> add_sweep_command(CLI::App& app);
// Runs it when it was given; returns the exit status.
int run_sweep_command(const SweepArgs&);

}  // namespace rota::sim
