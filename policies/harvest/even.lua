-- harvest/even.lua: even_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2): "harvest resources evenly from all running
-- applications at each harvest request, irrespective of prior harvesting
-- events. Processors are then taken from each application (one-at-a-time)
-- in a round-robin fashion until the harvested allocation is satisfied."
--
-- The victims come in start order; none is taken below its min (the
-- engine lists only jobs above their min that the control policy allows).

local function harvest(v, ctx, params)
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  local moved = true
  while need > 0 and moved do
    moved = false
    for i = 1, v.n do
      if need > 0 and v.procs[i] - take[i] > v.min[i] then
        take[i], need, moved = take[i] + 1, need - 1, true
      end
    end
  end
  if need > 0 then return nil end
  return take
end

return { harvest = harvest }
