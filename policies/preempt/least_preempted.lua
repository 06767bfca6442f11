-- preempt/least_preempted.lua: spread preemptions over jobs.
--
-- [Feitelson97] §4.8 reports that "only 7.5% of jobs that completed normally
-- were ever preempted", yet "one job was preempted 77 times before
-- completing": the lowest-cost rule keeps choosing the same cheap victims.
-- This policy prefers the set whose victims were preempted the fewest
-- times so far (the most preempted victim decides), then the lowest cost,
-- and never takes a set with a victim already preempted `max_preemptions`
-- times or more. When every set has such a victim the job gets no
-- reservation this pass (nil): it waits for processors to free, and the
-- next job past its wait may get a reservation instead.
--
-- Params: max_preemptions (a non-negative integer, the cap; 0, the
-- default, is none).

local function preempt(sets, ctx, params)
  -- Checked before the loop, so that the load's dry run (an empty batch)
  -- refuses a bad value rather than every call reading it as no cap.
  local cap = params.max_preemptions
  if math.type(cap) ~= "integer" or cap < 0 then
    error("max_preemptions must be a non-negative integer (0: no cap), not " .. tostring(cap))
  end
  local best, best_most = nil, nil
  for i = 1, sets.n do
    local most = 0
    for k = sets.first[i], sets.first[i] + sets.victims[i] - 1 do
      local p = ctx.victim_preemptions[k]
      if p > most then most = p end
    end
    if cap == 0 or most < cap then
      if best == nil or most < best_most or
          (most == best_most and sets.cost[i] < sets.cost[best]) then
        best, best_most = i, most
      end
    end
  end
  return best
end

return {
  defaults = { max_preemptions = 0 },
  preempt = preempt,
}
