-- A preempt policy whose answer a test sets with `answer`: "costliest"
-- (the opposite of the paper's rule), "none" (nil), "out_of_range",
-- "string", "table" (an array of one set) or "error". It prints what it sees so that a test can check the
-- vocabulary.
local function preempt(sets, ctx, params)
  if sets.n == 0 then return nil end  -- the dry run at load
  if params.answer == "none" then return nil end
  if params.answer == "out_of_range" then return sets.n + 1 end
  if params.answer == "string" then return "the second" end
  if params.answer == "table" then return {1} end
  if params.answer == "error" then error("no preemption today") end
  local best = nil
  for i = 1, sets.n do
    print(string.format("set %d procs=%d idle=%d victims=%d first=%d cost=%g dnd_left=%d",
      i, sets.procs[i], sets.idle[i], sets.victims[i], sets.first[i], sets.cost[i],
      sets.dnd_left[i]))
    if best == nil or sets.cost[i] > sets.cost[best] then best = i end
  end
  do
    print(string.format("job %d procs=%d class=%d priority=%d waited=%d", ctx.job_id,
      ctx.job_procs, ctx.job_class, ctx.job_priority, ctx.waited))
    for k = 1, #ctx.victim_id do
      print(string.format("victim %d procs=%d class=%d priority=%d user=%d dnd_left=%d " ..
        "elapsed=%d preemptions=%d", ctx.victim_id[k], ctx.victim_procs[k], ctx.victim_class[k],
        ctx.victim_priority[k], ctx.victim_user[k], ctx.victim_dnd_left[k],
        ctx.victim_elapsed[k], ctx.victim_preemptions[k]))
    end
  end
  return best
end

return { defaults = { answer = "costliest" }, preempt = preempt }
