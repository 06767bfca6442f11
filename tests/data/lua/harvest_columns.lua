-- A harvest policy that prints every column of its victims, so that a
-- test can check what the engine fills (the columns are filled when first
-- read), then takes what it needs from the victims in order.
local function harvest(v, ctx, params)
  if v.n == 0 then return nil end  -- the dry run at load
  local take, left = {}, ctx.needed
  for i = 1, v.n do
    print(string.format(
      "victim %d procs=%d min=%d ideal=%d queued=%d age=%d time_left=%d harvests=%d " ..
      "cost=%.3f progress=%.3f user=%d account=%s partition=%s qos=%s",
      v.id[i], v.procs[i], v.min[i], v.ideal[i], v.queued[i], v.age[i], v.time_left[i],
      v.harvests[i], v.cost[i], v.progress[i], v.user[i], v.account[i], v.partition[i],
      v.qos[i]))
    local t = math.min(v.procs[i] - v.min[i], left)
    take[i] = t
    left = left - t
  end
  return take
end

return { harvest = harvest }
