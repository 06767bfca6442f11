// `rota sweep --slurm DIR`: the plan as a Slurm job array (docs/sweeps.md,
// "On a cluster"). Array task t runs the runs t, t + T, t + 2T, ... (T the
// array's size, at most [sweep.slurm].max_array_size, default 1000), each
// exactly as the local pool runs it; `rota sweep --collect DIR` merges them.
#pragma once

#include <string>

#include "sweep_plan.h"

namespace rota::sim {

// Refuses a [sweep.slurm] value that the batch script could not carry as
// a value (SweepUsageError naming the key): partition, time, mem and
// account hold only letters, digits and . _ : , + -; max_parallel and
// max_array_size are whole numbers >= 1; each of options is one #SBATCH
// line's options, starting with '-', without control bytes. Nothing of
// them ever reaches the shell: the #SBATCH lines are comments to it.
void check_slurm_options(const nlohmann::json& slurm);

// The sbatch script's text for a plan written into `dir` (absolute), run
// with the binary `rota` (absolute). Every value is checked again
// (check_slurm_options; a path holding a control byte is refused) and
// quoted: for the shell in single quotes, on #SBATCH lines for sbatch.
std::string slurm_script(const SweepPlan&, const std::string& dir, const std::string& rota);

// The number of array tasks the script declares.
std::size_t slurm_tasks(const SweepPlan&);

// Writes dir/sweep.sbatch (executable) and returns its path.
std::string write_slurm(const SweepPlan&, const std::string& dir, const std::string& rota);

}  // namespace rota::sim
