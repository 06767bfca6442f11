-- harvest/long.lua: long_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2): "orders applications by their current run length
-- (longest first). Processors are then taken from each application
-- (one-at-a-time) in a round-robin fashion ... Only those applications
-- with an age > T time units are candidate victims. T can be defined as
-- the average age of all running applications."
--
-- Params: T (seconds, default -1): the age threshold; -1 means the
-- average age of the victims offered.

local function harvest(v, ctx, params)
  local w = rota.waterfill(v, ctx)
  if w:take("long", params.T * 1e6) > 0 then return nil end
  return w
end

return { defaults = { T = -1 }, harvest = harvest }
