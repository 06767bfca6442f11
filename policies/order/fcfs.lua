-- order/fcfs.lua: First-Come-First-Served queue order.
--
-- The prioritisation policy of every scheduler in Zhang, Franke, Moreira &
-- Sivasubramaniam, §3 and §5 ("They all use FCFS as the prioritization
-- policy"), and of FCFS in Leinberger, Karypis & Kumar (SC'99) §2.1: "a FCFS
-- scheduling algorithm allocates resources to jobs in the order that they
-- arrive".
--
-- Key = submit time (microseconds); lower runs first. Jobs submitted at the
-- same time keep their arrival order (the engine breaks ties by arrival).
--
-- Params: none.

local function order(jobs, ctx, params)
  local keys, submit = {}, jobs.submit
  for i = 1, jobs.n do
    keys[i] = submit[i]
  end
  return keys
end

return { order = order }
