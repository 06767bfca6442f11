-- job_submit.lua: every job arrives held, so that rota-slurm decides when
-- and where it runs, whether or not its user wrote `sbatch --hold`.
-- Without it a job submitted without --hold is started by Slurm's own
-- scheduler and rota only adopts it once it runs.
--
-- Install beside slurm.conf, with `JobSubmitPlugins=lua` in slurm.conf
-- (Slurm's job_submit/lua plugin, Debian's slurm-wlm-basic-plugins).
-- A hold is priority 0 (JobHeldAdmin); rota-slurm releases the job, pinned
-- to the engine's nodes, when the engine starts it.

function slurm_job_submit(job_desc, part_list, submit_uid)
  job_desc.priority = 0
  return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

slurm.log_info("job_submit.lua: every job arrives held for rota-slurm")
