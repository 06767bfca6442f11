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

local rank = {
  even = function(b, give, i, j) return give[i] < give[j] end,
  low_impact = function(b, give, i, j)
    return (b.procs[i] + give[i]) / b.ideal[i] < (b.procs[j] + give[j]) / b.ideal[j]
  end,
  fair = function(b, give, i, j)
    if b.harvests[i] ~= b.harvests[j] then return b.harvests[i] > b.harvests[j] end
    return give[i] < give[j]
  end,
}

local function grow(b, give, avail, better)
  while avail > 0 do
    local best
    for i = 1, b.n do
      if b.queued[i] == 0 and b.procs[i] + give[i] < b.ideal[i] then
        if best == nil or better(b, give, i, best) then best = i end
      end
    end
    if best == nil then break end
    give[best], avail = give[best] + 1, avail - 1
  end
  return avail
end

local function admit(b, give, avail)
  for i = 1, b.n do
    if b.queued[i] == 1 then
      if b.min[i] > avail then break end
      give[i] = math.min(avail, b.ideal[i])
      avail = avail - give[i]
    end
  end
  return avail
end

local function distribution(b, ctx, params)
  local better = rank[params.harvest]
  if better == nil then error("unknown harvest policy to invert: " .. tostring(params.harvest)) end
  local give = {}
  for i = 1, b.n do give[i] = 0 end
  admit(b, give, grow(b, give, ctx.needed, better))
  return give
end

return { defaults = { harvest = "even" }, distribution = distribution }
