-- migration/min_cost.lua: the paper's migration rule.
--
-- Zhang, Franke, Moreira & Sivasubramaniam, "An Analysis of Space- and
-- Time-Sharing Techniques for Parallel Job Scheduling", §5.4: "If migration
-- is required to move a job to a new target row, we consider the two
-- options described above (option 1 and option 2) and choose the one with
-- the least estimated cost", eq. (4) for option 1 and eq. (5) for option 2.
-- Ties go to option 1. A choice that would exceed the budget Q is
-- skipped by the engine, so when the cheaper option does not fit in
-- ctx.migration_budget the other is tried.
--
-- Params: none.

local function migration_option(m, ctx, params)
  local out = {}
  local budget = ctx.migration_budget
  for i = 1, m.n do
    local first, second = 1, 2
    if m.cost2[i] < m.cost1[i] then first, second = 2, 1 end
    local tasks = { m.tasks1[i], m.tasks2[i] }
    if budget < 0 or tasks[first] <= budget then
      out[i] = first
    elseif tasks[second] <= budget then
      out[i] = second
    else
      out[i] = 0
    end
  end
  return out
end

return { migration_option = migration_option }
