-- harvest/low_impact.lua: low_impact_harvest (Weissman et al.,
-- "Integrated Scheduling", §2.2): "harvest from the applications that are
-- predicted to be least impacted. Impact is determined by the % of
-- resources that an application will have relative to its desired ideal
-- amount" (2 of an ideal 4 losing one keeps 1/4; 8 of 9 keeps 7/9, the
-- lesser impact).
--
-- One processor at a time, each from the job that keeps the largest share
-- of its ideal after giving it up; ties to the earlier started job.

local function harvest(v, ctx, params)
  local w = rota.waterfill(v, ctx)
  if w:take("low_impact") > 0 then return nil end
  return w
end

return { harvest = harvest }
