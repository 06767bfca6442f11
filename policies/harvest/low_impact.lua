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
  local procs, min, ideal = v.procs, v.min, v.ideal
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  -- The jobs that can still give one, in a binary heap on (share kept,
  -- position): its top is the one a scan of every victim would pick, found
  -- in O(log n). Only the top's share changes, and it falls, so it sinks.
  local heap, key, n = {}, {}, 0
  local function sink(k)
    local i = heap[k]
    local ki = key[i]
    while true do
      local l = 2 * k
      if l > n then break end
      local c = heap[l]
      local kc = key[c]
      if l < n then
        local r = heap[l + 1]
        local kr = key[r]
        if kr > kc or (kr == kc and r < c) then c, kc, l = r, kr, l + 1 end
      end
      if ki > kc or (ki == kc and i < c) then break end
      heap[k], k = c, l
    end
    heap[k] = i
  end
  for i = 1, v.n do
    if procs[i] - 1 >= min[i] then
      n = n + 1
      heap[n], key[i] = i, (procs[i] - 1) / ideal[i]
    end
  end
  for k = n // 2, 1, -1 do sink(k) end
  while need > 0 do
    if n == 0 then return nil end
    local best = heap[1]
    take[best], need = take[best] + 1, need - 1
    local left = procs[best] - take[best] - 1
    if left < min[best] then
      heap[1] = heap[n]
      heap[n] = nil
      n = n - 1
    else
      key[best] = left / ideal[best]
    end
    if n > 0 then sink(1) end
  end
  return take
end

return { harvest = harvest }
