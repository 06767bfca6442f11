// `rota generate`: writes a synthetic workload as SWF (docs/workloads.md).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "generate.h"

namespace rota::sim {

// The command's flags, bound by add_generate_command; read once parsed.
struct GenerateArgs {
    CLI::App* command = nullptr;
    GenerateOptions g;
    std::string out_path, model = "standard";
    double queue = 0, tolerance = 0.05;      // feitelson-k's calibration
    std::string sizes, partition, clusters;  // ngubiri's, as given
};

// Adds the `generate` subcommand to app.
std::shared_ptr<GenerateArgs> add_generate_command(CLI::App& app);
// Runs it once parsed: writes the workload; returns the exit status. A
// usage fault throws ConfigError, a fault of an input file
// std::runtime_error, as `rota simulate`'s do.
int run_generate_command(GenerateArgs& a);

}  // namespace rota::sim
