-- migration/option1_only.lua: always migrate with option 1.
--
-- Zhang et al. §5.4, option 1: "We migrate the jobs which occupy the nodes
-- of job A at row p, and then we simply replicate job A, in its same set of
-- nodes, in row p" (overhead eq. (4)). This is the only option the paper
-- allows in FillMatrix-2; this policy uses it in CollapseMatrix-2 too.
--
-- Params: none.

local function migration_option(m, ctx, params)
  local out = {}
  for i = 1, m.n do out[i] = 1 end
  return out
end

return { migration_option = migration_option }
