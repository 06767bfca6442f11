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
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  while need > 0 do
    local best, share = nil, -1
    for i = 1, v.n do
      local left = v.procs[i] - take[i] - 1
      if left >= v.min[i] and left / v.ideal[i] > share then best, share = i, left / v.ideal[i] end
    end
    if best == nil then return nil end
    take[best], need = take[best] + 1, need - 1
  end
  return take
end

return { harvest = harvest }
