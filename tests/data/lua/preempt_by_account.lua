-- A preempt policy that reserves the first set one of whose victims is
-- charged to `account`, and no set if none is. It prints the names it sees
-- (the job's, then each victim's) so that a test can check them.
local function preempt(sets, ctx, params)
  if sets.n == 0 then return nil end  -- the dry run at load
  for _, f in ipairs({ "job_account", "job_partition", "job_qos" }) do
    assert(type(ctx[f]) == "string", f .. " is a string")
  end
  print(string.format("job %d user=%d account=%s partition=%s qos=%s", ctx.job_id,
    ctx.job_user, ctx.job_account, ctx.job_partition, ctx.job_qos))
  assert(#ctx.victim_account == #ctx.victim_id and #ctx.victim_qos == #ctx.victim_id)
  for k = 1, #ctx.victim_id do
    print(string.format("victim %d user=%d account=%s partition=%s qos=%s", ctx.victim_id[k],
      ctx.victim_user[k], ctx.victim_account[k], ctx.victim_partition[k], ctx.victim_qos[k]))
  end
  local account = ctx.victim_account
  for i = 1, sets.n do
    for k = sets.first[i], sets.first[i] + sets.victims[i] - 1 do
      if account[k] == params.account then return i end
    end
  end
  return nil
end

return { defaults = { account = "" }, preempt = preempt }
