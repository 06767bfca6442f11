// [Weissman03]'s policies in the simulator (docs/user-guide.md, "Malleable
// jobs"): the three baselines and the four iScheduler policies of §2.2 as
// names for --policy, what each means for the engine's configuration,
// and the malleable side of a workload (each job's min).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "swf.h"

namespace rota::sim {

struct RunConfig;

// ideal-only, ideal-backfill, moldable, even-h-fq, even-h-fr, low-imp-fq,
// low-imp-fr.
const std::vector<std::string>& malleable_policy_names();
bool is_malleable_policy(const std::string& name);
// Whether the policy runs the iScheduler (jobs at min..ideal); the
// ideal-only and ideal-backfill baselines run every job on its ideal.
bool uses_min(const std::string& name);

// An engine configuration's execution model if it has a [malleable] table
// ("linear" when the table leaves it out), else "": with policy "custom"
// the simulator gives jobs their mins and runs them at the engine's model
// as it does for the named policies.
std::string malleable_model(const std::string& engine_toml);

// Writes the engine tables of a [Weissman03] policy into `t`: [malleable] and
// the harvest and distribution scripts, or the FCFS/EASY preset.
void malleable_engine(toml::table& t, const RunConfig& rc, const std::string& policy);

// §4.2: min = ceil(min_pct / 100 x ideal), at least 1.
std::vector<std::int32_t> min_procs(const std::vector<TraceJob>& jobs, double min_pct);

}  // namespace rota::sim
