// [Feitelson97]'s job classes in the simulator (docs/user-guide.md, "Job
// classes"): the `classes` policy and each job's class.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <vector>

#include "rota.h"
#include "swf.h"

namespace rota::sim {

// Writes the engine tables of policy `classes` into `t`: the file's own
// [classes], or [Feitelson97]'s Table 1 (classes.preset = "llnl-t3d") if none.
void classes_engine(toml::table& t);

// The class of every job of a workload for an engine with [classes]: a job
// of at most `procs` processors and `seconds` requested (the T3D's
// interactive limits, §4.6: 64 and 2 hours) is "interactive", if the
// engine has that class; every other job gets the default class (0). Empty
// if the engine has no classes.
std::vector<std::int32_t> job_classes(rota_engine* e, const std::vector<TraceJob>& jobs,
                                      std::int64_t procs, std::int64_t seconds);

}  // namespace rota::sim
