-- preempt/lowest_cost.lua: the paper's rule, what the engine applies when
-- no preempt policy is configured.
--
-- Jette, "Performance Characteristics of Gang Scheduling in
-- Multiprogrammed Environments" ([Feitelson97]), §4.3: "For each possible
-- processor assignment, a cost is computed. The cost considers the number
-- of nodes occupied by the potentially preempted jobs, their relative
-- priority, and how much time remains in their do-not-disturb time. ...
-- the lowest cost set of processors will be reserved for the exclusive
-- use of this waiting job". The engine computes that cost (sets.cost);
-- ties go to the set listed first.
--
-- Params: none.

local function preempt(sets, ctx, params)
  local best = nil
  for i = 1, sets.n do
    if best == nil or sets.cost[i] < sets.cost[best] then best = i end
  end
  return best
end

return { preempt = preempt }
