-- harvest/short.lua: short_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2): "orders applications by the amount of run time left
-- (largest first). Processors are then taken from each application
-- (one-at-a-time) in a round-robin fashion ... Only those applications
-- with an amount of time left > T time units are candidate victims. T can
-- be defined as the average time left of all running applications."
--
-- Time left is the engine's estimate at the job's current size (from its
-- walltime and the execution model, or from reported progress).
--
-- Params: T (seconds, default -1): the threshold; -1 means the average
-- time left of the victims offered.

local function harvest(v, ctx, params)
  local w = rota.waterfill(v, ctx)
  if w:take("short", params.T * 1e6) > 0 then return nil end
  return w
end

return { defaults = { T = -1 }, harvest = harvest }
