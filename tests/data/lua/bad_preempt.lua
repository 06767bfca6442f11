-- A preempt policy that answers right only every fourth call: otherwise a
-- set out of range, two sets, or an error. The engine must refuse each bad
-- answer (the lowest-cost set applies) and keep §4.3's rules.
local calls = 0

local function preempt(sets, ctx, params)
  if sets.n == 0 then return nil end  -- the dry run at load
  calls = calls + 1
  local k = calls % 4
  if k == 1 then return sets.n end
  if k == 2 then return sets.n + 1 end
  if k == 3 then return { 1, 1 } end
  error("no preemption today")
end

return { preempt = preempt }
