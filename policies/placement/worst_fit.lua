-- placement/worst_fit.lua: Worst Fit (WFit), the placement policy of
-- Ngubiri & van Vliet, "Group-wise Performance Evaluation of Processor
-- Co-allocation in Multi-cluster Systems", §3: "the widest component is
-- placed in the freest cluster (and the smallest component in the busiest
-- cluster)". It spreads the free nodes evenly over the clusters.
--
-- ctx.room gives, job after job, what each cluster can hold for the job's
-- whole window without touching a reservation; jobs of one batch start
-- together in the order given, so each takes its nodes before the next
-- is placed. The engine applies this same rule when no placement policy is
-- configured.

local function by_width(w)
  local order = {}
  for i = 1, #w do order[i] = i end
  table.sort(order, function(a, b)
    if w[a] ~= w[b] then return w[a] > w[b] end
    return a < b
  end)
  return order
end

local function placement(c, ctx, params)
  local answer, taken = {}, {}
  for k = 1, ctx.clusters do taken[k] = 0 end
  for j = 1, c.n do
    local w = c.components[j]
    local free, clusters = {}, {}
    for k = 1, ctx.clusters do
      free[k] = ctx.room[(j - 1) * ctx.clusters + k] - taken[k]
      clusters[k] = k
    end
    table.sort(clusters, function(a, b)
      if free[a] ~= free[b] then return free[a] > free[b] end
      return a < b
    end)
    local placed = {}
    for rank, i in ipairs(by_width(w)) do
      local k = clusters[rank]
      placed[i] = k
      taken[k] = taken[k] + w[i]
    end
    answer[j] = placed
  end
  return answer
end

return { placement = placement }
