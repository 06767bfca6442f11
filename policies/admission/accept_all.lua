-- admission/accept_all.lua: admit every job.
--
-- Variable partitioning as described by Feitelson & Jette, "Improved
-- Utilization and Responsiveness with Gang Scheduling", §2: the user gives
-- the number of processors and the job is queued until they are available.
-- It is also what the engine does when no admission hook is configured.
-- (Jobs wider than the machine are rejected by the engine itself.)
--
-- Params: none.

local function admission(jobs, ctx, params)
  return {} -- nil for every job: accept
end

return { admission = admission }
