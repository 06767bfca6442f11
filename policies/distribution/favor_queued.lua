-- distribution/favor_queued.lua: favor_queued (Weissman et al.,
-- "Integrated Scheduling", §2.2): the processors a termination freed go to
-- queued applications first, "to admit them into the system", FCFS, each
-- on min(free, ideal) while the next one's min fits; what is left grows
-- running jobs (Figure 3(a), step 3b), one processor at a time to each in
-- turn (the inverse of even_harvest) or, with harvest = "low_impact", each
-- to the job holding the smallest share of its ideal.
--
-- Params:
--   harvest (default "even"): the harvest policy whose inverse grows
--     running jobs with the leftovers
--   grow_running (default true): false keeps running jobs at the size they
--     started with (MOLDABLE, §2.2: "no adaptation on running applications")

-- rota.waterfill does the arithmetic (docs/lua-api.md, "Harvest and
-- distribution amounts"); the order, queued jobs first, is this policy's.

local function distribution(b, ctx, params)
  local w = rota.waterfill(b, ctx)
  w:admit()
  if not params.grow_running then return w end
  if params.harvest ~= "low_impact" and params.harvest ~= "even" then
    error("harvest must be \"even\" or \"low_impact\", not " .. tostring(params.harvest))
  end
  w:give(params.harvest)
  return w
end

return { defaults = { harvest = "even", grow_running = true }, distribution = distribution }
