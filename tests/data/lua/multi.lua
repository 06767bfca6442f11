-- Test fixture: one file providing all three hooks, with defaults.

local M = {}

M.defaults = { limit = 4, label = "multi", weight = 1.5, strict = false }

function M.admission(jobs, ctx, params)
  local d = {}
  for i = 1, jobs.n do
    if jobs.procs[i] > params.limit then
      d[i] = { reject = params.label .. ": too wide" }
    elseif jobs.user[i] == 0 then
      d[i] = "hold"
    else
      d[i] = true
    end
  end
  return d
end

function M.order(jobs, ctx, params)
  local k = {}
  for i = 1, jobs.n do k[i] = -jobs.priority[i] * params.weight end
  return k
end

function M.backfill_select(c, ctx, params)
  if params.strict then return nil end
  if c.n > 0 then return c.n end -- a single index: the last candidate
end

return M
