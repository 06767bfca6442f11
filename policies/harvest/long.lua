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
  local T = params.T * 1e6
  if T < 0 then
    local sum = 0
    for i = 1, v.n do sum = sum + v.age[i] end
    T = v.n > 0 and sum / v.n or 0
  end
  local order = {}
  for i = 1, v.n do
    if v.age[i] > T or (v.age[i] == T and params.T < 0) then order[#order + 1] = i end
  end
  table.sort(order, function(a, b)
    if v.age[a] ~= v.age[b] then return v.age[a] > v.age[b] end
    return a < b
  end)
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  local moved = true
  while need > 0 and moved do
    moved = false
    for _, i in ipairs(order) do
      if need > 0 and v.procs[i] - take[i] > v.min[i] then
        take[i], need, moved = take[i] + 1, need - 1, true
      end
    end
  end
  if need > 0 then return nil end
  return take
end

return { defaults = { T = -1 }, harvest = harvest }
