-- placement/best_fit.lua: Best Fit placement of co-allocated components,
-- for comparison with [Ngubiri07] §3's Worst Fit: each component, widest
-- first, goes to the cluster with the least room that still holds it,
-- keeping large blocks of free nodes whole for wide components to come.
--
-- Widest first, any cluster that holds the component leaves a placement
-- for the rest whenever one exists, so a job that can start gets one.
-- ctx.room: see placement/worst_fit.lua.

local function placement(c, ctx, params)
  local answer, taken = {}, {}
  for k = 1, ctx.clusters do taken[k] = 0 end
  for j = 1, c.n do
    local w = c.components[j]
    local order = {}
    for i = 1, #w do order[i] = i end
    table.sort(order, function(a, b)
      if w[a] ~= w[b] then return w[a] > w[b] end
      return a < b
    end)
    local free, used, placed = {}, {}, {}
    for k = 1, ctx.clusters do free[k] = ctx.room[(j - 1) * ctx.clusters + k] - taken[k] end
    for _, i in ipairs(order) do
      local best
      for k = 1, ctx.clusters do
        if not used[k] and free[k] >= w[i] and (best == nil or free[k] < free[best]) then
          best = k
        end
      end
      if best == nil then error("no cluster holds a component of " .. w[i] .. " nodes") end
      used[best] = true
      placed[i] = best
      taken[best] = taken[best] + w[i]
    end
    answer[j] = placed
  end
  return answer
end

return { placement = placement }
