-- placement/first_fit.lua: First Fit placement of co-allocated
-- components, for comparison with [Ngubiri07] §3's Worst Fit: each
-- component, widest first, goes to the lowest-numbered cluster that still
-- holds it, packing the first clusters and leaving the last ones free.
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
    local used, placed = {}, {}
    for _, i in ipairs(order) do
      local first
      for k = 1, ctx.clusters do
        if not used[k] and ctx.room[(j - 1) * ctx.clusters + k] - taken[k] >= w[i] then
          first = k
          break
        end
      end
      if first == nil then error("no cluster holds a component of " .. w[i] .. " nodes") end
      used[first] = true
      placed[i] = first
      taken[first] = taken[first] + w[i]
    end
    answer[j] = placed
  end
  return answer
end

return { placement = placement }
