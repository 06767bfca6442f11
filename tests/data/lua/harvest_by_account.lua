-- A harvest policy that refuses to harvest for a job charged to `refuse`
-- (it waits) and otherwise takes what it needs from the victims in order,
-- as much from each as its min allows. It prints what it sees of the
-- arriving job so that a test can check it.
local function harvest(v, ctx, params)
  if v.n == 0 then return nil end  -- the dry run at load
  print(string.format("job %d user=%d account=%s partition=%s qos=%s", ctx.job_id,
    ctx.job_user, ctx.job_account, ctx.job_partition, ctx.job_qos))
  if ctx.job_account == params.refuse then return nil end
  local take, left = {}, ctx.needed
  for i = 1, v.n do
    local t = math.min(v.procs[i] - v.min[i], left)
    take[i] = t
    left = left - t
  end
  return take
end

return { defaults = { refuse = "" }, harvest = harvest }
