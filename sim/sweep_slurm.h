// `rota sweep --slurm DIR`: the plan as a Slurm job array (docs/sweeps.md,
// "On a cluster"). Array task t runs the runs t, t + T, t + 2T, ... (T the
// array's size, at most [sweep.slurm].max_array_size, default 1000), each
// exactly as the local pool runs it; `rota sweep --collect DIR` merges them.
#pragma once

#include <string>

#include "sweep_plan.h"

namespace rota::sim {

// The sbatch script's text for a plan written into `dir` (absolute), run
// with the binary `rota` (absolute).
std::string slurm_script(const SweepPlan&, const std::string& dir, const std::string& rota);

// The number of array tasks the script declares.
std::size_t slurm_tasks(const SweepPlan&);

// Writes dir/sweep.sbatch (executable) and returns its path.
std::string write_slurm(const SweepPlan&, const std::string& dir, const std::string& rota);

}  // namespace rota::sim
