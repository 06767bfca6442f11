-- order/sjf.lua: Shortest Job First queue order.
--
-- A priority policy other than FCFS for the Schedule phase of Zhang, Franke,
-- Moreira & Sivasubramaniam, §4.2 ("we traverse the queue of waiting jobs as
-- dictated by the given priority policy"). The length of a job is its
-- estimate (requested time), the only length known before it runs; §3 of
-- the same paper explains why overestimated requests still order usefully.
--
-- Key = estimate (microseconds); lower runs first, ties in arrival order.
--
-- Params: none.

local function order(jobs, ctx, params)
  local keys, estimate = {}, jobs.estimate
  for i = 1, jobs.n do
    keys[i] = estimate[i]
  end
  return keys
end

return { order = order }
