-- A harvest policy that answers right only every third call: otherwise it
-- takes too much, names no one, or raises. The engine must refuse each bad
-- answer (the arriving job waits) and keep every job between min and ideal.
local calls = 0

local function harvest(v, ctx, params)
  calls = calls + 1
  local take, need = {}, ctx.needed
  for i = 1, v.n do take[i] = 0 end
  if calls % 3 == 1 then
    for i = 1, v.n do
      local k = math.min(need, v.procs[i] - v.min[i])
      take[i], need = k, need - k
    end
    return take
  elseif calls % 3 == 2 then
    for i = 1, v.n do take[i] = v.procs[i] end  -- below every min
    return take
  end
  error("no harvest today")
end

return { harvest = harvest }
