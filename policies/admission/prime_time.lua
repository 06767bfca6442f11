-- admission/prime_time.lua: prime and non-prime time.
--
-- The "Prime" scheme of Feitelson & Jette, "Improved Utilization and
-- Responsiveness with Gang Scheduling", §3.1, a simplified version of the
-- policy of the NASA Ames SP2: "during prime time, large jobs (more than
-- 32 nodes) are restricted to 10 minutes, while small jobs are allowed up
-- to 4 hours provided at least 32 nodes are available. Thus, if only a few
-- nodes are available, all jobs are restricted to 10 minutes [...] During
-- non-prime time these restrictions are removed." The shifts alternate
-- every 12 hours (§3.2, footnote 1), prime time first.
--
-- A job's runtime is its estimate (the paper assumes the scheduler knows
-- the runtimes: run with exact estimates). In prime time each job of the
-- batch, held ones first, is accepted when
--   * its estimate is at most prime_limit, whatever its size; or
--   * it has at most `threshold` processors, its estimate is at most
--     small_limit, and at least `min_free` processors are available:
--     ctx.free_procs less the processors of the jobs this call has
--     already accepted (they are about to take them);
-- and held otherwise, until the end of prime time ({hold = time}): the
-- engine asks again at every pass and wakes up at that time, so the job
-- enters the queue as non-prime time begins, or earlier in prime time if
-- processors free up. In non-prime time every job is accepted.
--
-- Admission decides when a job enters the queue, not when it starts: a
-- job accepted in non-prime time that has not started when prime time
-- begins keeps its place, and jobs that run across a shift change are not
-- stopped.
--
-- Params:
--   threshold (integer, default 32): the largest small job, processors.
--   prime_limit (integer, default 600): seconds any job may run in prime time.
--   small_limit (integer, default 14400): seconds a small job may run in
--     prime time when at least min_free processors are available.
--   min_free (integer, default 32): processors that must be available.
--   shift (integer, default 43200): length of each shift, seconds.
--   start (integer, default 0): engine time (seconds) at which a prime
--     shift begins; shifts alternate from there, both ways.

local function check(params)
  for _, k in ipairs({ "threshold", "prime_limit", "small_limit", "min_free", "start" }) do
    local v = params[k]
    if math.type(v) ~= "integer" or (k ~= "start" and v < 0) then
      error(k .. " must be " .. (k == "start" and "an integer" or "a non-negative integer")
        .. ", not " .. tostring(v))
    end
  end
  if math.type(params.shift) ~= "integer" or params.shift <= 0 then
    error("shift must be a positive integer, not " .. tostring(params.shift))
  end
end

-- True in prime time: the even shifts counted from `start`.
-- Whether `now` is prime time, and when its shift ends.
local function shift_at(now, params)
  local s = rota.second
  local origin, length = params.start * s, params.shift * s
  local k = (now - origin) // length
  return k % 2 == 0, origin + (k + 1) * length
end

local function admission(jobs, ctx, params)
  check(params)
  local prime, shift_end = shift_at(ctx.now, params)
  if not prime then
    return {}
  end
  local held = { hold = shift_end }
  local s = rota.second
  local short, long = params.prime_limit * s, params.small_limit * s
  local threshold, min_free = params.threshold, params.min_free
  local avail = ctx.free_procs
  local d, procs, estimate = {}, jobs.procs, jobs.estimate
  for i = 1, jobs.n do
    local p, e = procs[i], estimate[i]
    if e <= short or (p <= threshold and e <= long and avail >= min_free) then
      avail = avail - p
    else
      d[i] = held
    end
  end
  return d
end

return {
  defaults = {
    threshold = 32,
    prime_limit = 600,
    small_limit = 14400,
    min_free = 32,
    shift = 43200,
    start = 0,
  },
  admission = admission,
}
