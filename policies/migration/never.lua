-- migration/never.lua: never migrate in CollapseMatrix-2.
--
-- With this policy MGS and MBGS behave as GS and BGS in the collapse phase
-- (Zhang et al. §5.4, the case Q = 0 of Figure 14 for that phase);
-- FillMatrix-2, which always uses option 1, is limited by Q only.
--
-- Params: none.

local function migration_option(m, ctx, params)
  return {}
end

return { migration_option = migration_option }
