-- harvest/fair.lua: fair_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2), even_harvest extended across harvest events: "it
-- tries to keep the number of harvest events experienced by all running
-- applications the same ... by first computing the average number of
-- harvest events suffered by the running applications. Only those
-- applications below this average are candidates", then one processor at
-- a time from each, round robin.
--
-- When every job has suffered the same number (none is below the
-- average), all are candidates; if the candidates cannot give enough the
-- harvest fails and the arriving job waits.

local function harvest(v, ctx, params)
  local sum = 0
  for i = 1, v.n do sum = sum + v.harvests[i] end
  local avg = v.n > 0 and sum / v.n or 0
  local below = {}
  for i = 1, v.n do below[i] = v.harvests[i] < avg end
  local any = false
  for i = 1, v.n do any = any or below[i] end
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  local moved = true
  while need > 0 and moved do
    moved = false
    for i = 1, v.n do
      if need > 0 and (below[i] or not any) and v.procs[i] - take[i] > v.min[i] then
        take[i], need, moved = take[i] + 1, need - 1, true
      end
    end
  end
  if need > 0 then return nil end
  return take
end

return { harvest = harvest }
