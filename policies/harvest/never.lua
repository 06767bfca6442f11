-- harvest/never.lua: never_harvest (Weissman et al., "Integrated
-- Scheduling", §2.2): an arriving job that does not fit waits; processors
-- may still be redistributed to running jobs when others end. The same as
-- configuring no harvest script.

local function harvest(victims, ctx, params)
  return nil
end

return { harvest = harvest }
