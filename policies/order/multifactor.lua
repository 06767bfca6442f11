-- order/multifactor.lua: a weighted sum of priority factors, re-computed as
-- jobs wait (Slurm's priority/multifactor plugin is the model).
--
-- From Feitelson & Jette, "Improved Utilization and Responsiveness with
-- Gang Scheduling" ([Feitelson97]): §4.3 sorts the executable jobs "by job
-- class priority and within each priority value by the time waiting for
-- loading", and first takes the jobs that "have waited for loading longer
-- than their job class' maximum wait time" (§4.2's "Wait time"), sorted
-- the same way. Here the class priority is the batch's `class_priority`
-- under [classes] (the priority of the job's class in the parameter set in
-- force: [Feitelson97] §4.2's Table 1 gives 4 to interactive and debug, 3
-- production, 2 benchmark, 1 standby), and the job's own `priority` (what
-- the embedder gives at submission) counts besides, or alone without
-- classes; `max_wait` is one maximum wait for every job.
-- With the default weights a priority level outweighs everything else and,
-- within a level, jobs that waited longer come first, as in §4.3.
--
-- rota's own, after Slurm's multifactor plugin rather than the paper: the
-- age factor capped at `max_age`, the fair-share factor and the job size
-- factor, all in [0, 1] and weighted, summed with the priorities:
--
--   score = weight_priority * priority + weight_class * class_priority
--         + weight_age * min(waited, max_age) / max_age
--         + weight_fairshare * 2^(-U / S)
--         + weight_size * size factor
--         + weight_overdue (if waited > max_wait >= 0)
--   key = -score (lower keys run first; equal keys keep arrival order)
--
-- U is the user's share of all the usage the engine recorded
-- (ctx.user_usage[user] / ctx.total_usage: processor-seconds, running jobs
-- to now, decayed with scheduler.usage_half_life) and S = 1 / ctx.users,
-- equal shares for every user that has run a job: Slurm's classic
-- fair-share formula, 1 for a user that has used nothing, 1/2 for one that
-- used exactly its share. The size factor is procs / machine_procs, or
-- 1 - (procs - 1) / machine_procs with favor_small.
--
-- The keys age: the script says so (`ages = true`), so the engine re-keys
-- the whole queue every scheduler.rekey_interval (300 s by default) and
-- after every reload (docs/design.md, "Order keys that change").
--
-- Params:
--   weight_priority (1000000): per unit of the job's priority.
--   weight_class (1000000): per unit of class priority (0 without [classes]).
--   weight_age (1000), max_age (604800 s, Slurm's PriorityMaxAge).
--   weight_fairshare (1000).
--   weight_size (0), favor_small (false).
--   max_wait (-1 s: never), weight_overdue (1e12): [Feitelson97]'s first pass.

local numbers = {
  "weight_priority", "weight_class", "weight_age", "max_age",
  "weight_fairshare", "weight_size", "max_wait", "weight_overdue",
}

-- Before the empty-batch return, so that the load's dry run (an empty
-- batch) refuses a bad value instead of every later call failing. The
-- engine has checked each param's type against its default.
local function check(params)
  for _, k in ipairs(numbers) do
    local v = params[k]
    if v ~= v or v == math.huge or v == -math.huge then
      error(k .. " must be a finite number, not " .. tostring(v))
    end
  end
  if not (params.max_age > 0) then
    error("max_age must be a positive number of seconds, not " .. tostring(params.max_age))
  end
end

local function order(jobs, ctx, params)
  check(params)
  local keys, n = {}, jobs.n
  if n == 0 then
    return keys
  end
  local max_age = params.max_age * rota.second
  local now = ctx.now
  local w_age = params.weight_age / max_age -- per microsecond waited
  local w_prio = params.weight_priority
  local max_wait = params.max_wait >= 0 and params.max_wait * rota.second or math.huge
  local w_over = params.weight_overdue
  -- weight_size * size factor = size0 + size1 * procs
  local m = ctx.machine_procs
  local size0, size1 = 0, params.weight_size / m
  if params.favor_small then
    size0, size1 = params.weight_size * (m + 1) / m, -size1
  end
  -- Fair share, once per user in a call.
  local w_fs, total, usage = params.weight_fairshare, ctx.total_usage, ctx.user_usage
  local users = ctx.users > 0 and ctx.users or 1
  local fair = {}
  local w_class = params.weight_class
  local submit, procs, user, priority = jobs.submit, jobs.procs, jobs.user, jobs.priority
  local class_priority = jobs.class_priority
  for i = 1, n do
    local waited = now - submit[i]
    local s = w_prio * priority[i] + w_class * class_priority[i] + size0 + size1 * procs[i]
    if waited < max_age then
      s = s + w_age * waited
    else
      s = s + w_age * max_age
    end
    if waited > max_wait then
      s = s + w_over
    end
    local u = user[i]
    local f = fair[u]
    if f == nil then
      f = total > 0 and w_fs * 2 ^ (-usage[u] / total * users) or w_fs
      fair[u] = f
    end
    s = s + f
    keys[i] = -s
  end
  return keys
end

return {
  defaults = {
    weight_priority = 1000000,
    weight_class = 1000000,
    weight_age = 1000,
    max_age = 604800,
    weight_fairshare = 1000,
    weight_size = 0,
    favor_small = false,
    max_wait = -1,
    weight_overdue = 1e12,
  },
  ages = true,
  order = order,
}
