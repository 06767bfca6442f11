-- admission/max_procs.lua: reject jobs wider than a processor limit.
--
-- The "job processor limit" of Feitelson & Jette, "Improved Utilization and
-- Responsiveness with Gang Scheduling", §4.2: "the maximum number of
-- processors which can be allocated to any single job" (256 on the LLNL
-- Cray T3D). A job that can never be given that many processors is
-- rejected at once, with a reason, instead of waiting forever (§2: "the job
-- is either rejected or queued").
--
-- Params:
--   max_procs (integer >= 0, default 0): the limit; 0 means the machine's
--   size (ctx.machine_procs).

local function admission(jobs, ctx, params)
  local limit = params.max_procs
  if math.type(limit) ~= "integer" or limit < 0 then
    error("max_procs must be a non-negative integer, not " .. tostring(limit))
  end
  if limit == 0 then
    limit = ctx.machine_procs
  end
  local d, procs = {}, jobs.procs
  for i = 1, jobs.n do
    local p = procs[i]
    if p > limit then
      d[i] = { reject = "requests " .. p .. " processors; the limit is " .. limit }
    end
  end
  return d
end

return {
  defaults = { max_procs = 0 },
  admission = admission,
}
