// The [simulator.workload] table: the generated workload's model and its
// settings (docs/config.md, docs/workloads.md).
#pragma once

#include <toml++/toml.h>

#include "generate.h"

namespace rota::sim {

// Reads the table into `g`, which holds the defaults: the lublin model's,
// or with model = "..." that model's own, under the keys given. Throws
// ConfigError naming the key (simulator.workload.<key>).
void read_workload_table(const toml::table& wt, GenerateOptions& g);

}  // namespace rota::sim
