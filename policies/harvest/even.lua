-- harvest/even.lua: even_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2): "harvest resources evenly from all running
-- applications at each harvest request, irrespective of prior harvesting
-- events. Processors are then taken from each application (one-at-a-time)
-- in a round-robin fashion until the harvested allocation is satisfied."
--
-- The victims come in start order; none is taken below its min (the
-- engine lists only jobs above their min that the control policy allows).

-- rota.waterfill does the round robin without a step per processor
-- (docs/lua-api.md, "Harvest and distribution amounts").

local function harvest(v, ctx, params)
  local w = rota.waterfill(v, ctx)
  if w:take("even") > 0 then return nil end
  return w
end

return { harvest = harvest }
