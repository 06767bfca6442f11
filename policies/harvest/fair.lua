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
  local w = rota.waterfill(v, ctx)
  if w:take("fair") > 0 then return nil end
  return w
end

return { harvest = harvest }
