// The `rota top` subcommand (docs/user-guide.md, "Watching it live: rota
// top"): a simulation shown as it runs, [Feitelson97] §4.5's gangster display
// (rota_top()) redrawn as simulated time passes.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>

namespace rota::sim {

struct TopArgs {
    CLI::App* command = nullptr;
    std::string config;  // a TOML configuration (positional or --config)
    std::string config_flag;
    std::string trace;
    std::string policy;      // default: the file's first policy, else "classes"
    std::int64_t procs = 0;  // wider than a machine, so that too large a value is named
    std::int64_t jobs = 0;
    double load = 0;
    std::int64_t seed = -1;
    double step = 300;        // simulated seconds between frames
    double delay = 0.5;       // real seconds between frames
    double start = 0;         // simulated time of the first frame
    std::int64_t frames = 0;  // 0: until the simulation ends
    bool hold = false;
    double once = -1;        // print one frame at this time, plain text
    std::int64_t width = 0;  // 0: the terminal's, else 80 (wide, so a huge value is named)
};

// Registers `top` on the tool's command line.
std::shared_ptr<TopArgs> add_top_command(CLI::App& app);
// Runs it when it was given; returns the exit status (0, 1 run-time
// error, 2 usage error).
int run_top_command(const TopArgs&);

}  // namespace rota::sim
