// `rota simulate`'s run: the workload under each policy, the results side
// by side, the output files (docs/user-guide.md). Its flags are simulate_args.cpp's.
#pragma once

#include <string>
#include <vector>

#include "run_config.h"

namespace rota::sim {

// The provenance of a run: what made these numbers (summary JSON).
struct Provenance {
    std::vector<std::string> argv;
};

// Simulates the workload of `rc` under each of its policies, prints the
// results and writes the output files; returns the exit status, 1 when a
// policy's simulation failed (the others are reported all the same). A
// usage fault throws ConfigError, a fault of an input file
// std::runtime_error.
int run_simulate(RunConfig rc, const Provenance& prov);

}  // namespace rota::sim
