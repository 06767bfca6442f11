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

local function distribution(b, ctx, params)
  local give, avail = {}, ctx.needed
  for i = 1, b.n do give[i] = 0 end
  for i = 1, b.n do
    if b.queued[i] == 1 then
      if b.min[i] > avail then break end
      give[i] = math.min(avail, b.ideal[i])
      avail = avail - give[i]
    end
  end
  if not params.grow_running then return give end
  local low_impact = params.harvest == "low_impact"
  if not low_impact and params.harvest ~= "even" then
    error("harvest must be \"even\" or \"low_impact\", not " .. tostring(params.harvest))
  end
  while avail > 0 do
    local best
    for i = 1, b.n do
      if b.queued[i] == 0 and b.procs[i] + give[i] < b.ideal[i] then
        local better
        if best == nil then
          better = true
        elseif low_impact then
          better = (b.procs[i] + give[i]) / b.ideal[i] < (b.procs[best] + give[best]) / b.ideal[best]
        else
          better = give[i] < give[best]
        end
        if better then best = i end
      end
    end
    if best == nil then break end
    give[best], avail = give[best] + 1, avail - 1
  end
  return give
end

return { defaults = { harvest = "even", grow_running = true }, distribution = distribution }
