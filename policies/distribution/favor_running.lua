-- distribution/favor_running.lua: favor_running (Weissman et al.,
-- "Integrated Scheduling", §2.2): the processors a termination freed go
-- to running applications "using the inverse of the harvest policy", up
-- to their ideal; what is left goes to queued jobs, FCFS, each on
-- min(free, ideal) while the next one's min fits (Figure 3(a), step 3a).
-- The engine has already admitted queued jobs up to the degree of
-- multiprogramming M (all distribution first satisfies admission).
--
-- Params: harvest (default "even"): the harvest policy to invert.
--   even        one processor at a time to each growable job in turn
--   low_impact  each processor to the job holding the smallest share of its
--               ideal (the most favourably impacted)
--   fair        the most harvested jobs first, then in turn

-- rota.waterfill does the arithmetic (docs/lua-api.md, "Harvest and
-- distribution amounts"); the order, running jobs first, is this policy's.

local invertible = { even = true, low_impact = true, fair = true }

local function distribution(b, ctx, params)
  if not invertible[params.harvest] then
    error("unknown harvest policy to invert: " .. tostring(params.harvest))
  end
  local w = rota.waterfill(b, ctx)
  w:give(params.harvest)
  w:admit()
  return w
end

return { defaults = { harvest = "even" }, distribution = distribution }
