-- admission/partition_limits.lua: a per-partition processor limit per job.
--
-- What a batch system's partition says with MaxNodes (Slurm) or a queue's
-- max cores per job: a job wider than its partition allows is rejected
-- at once, with a reason naming the partition and its limit, instead of
-- waiting for processors it will never be given.
--
-- Params:
--   limits (string, default ""): "name=procs" pairs separated by commas or
--   spaces, e.g. "debug=16, gpu=64"; each a limit >= 1 on the processors
--   of one job of that partition. A malformed pair fails the load.
--   default (integer >= 0, default 0): the limit of any other partition,
--   and of jobs without one; 0 means none.
--   hold (boolean, default false): hold such jobs instead of rejecting
--   them (an operator may still move them, or raise the limit by a
--   reload).

local parsed = {}  -- limits string -> its table, parsed once per string

local function limits_of(text)
  local t = parsed[text]
  if t then return t end
  if type(text) ~= "string" then
    error("limits must be a string of name=procs pairs, not " .. tostring(text))
  end
  t = {}
  for item in text:gmatch("[^,%s]+") do
    local name, n = item:match("^([^=]+)=(%d+)$")
    n = tonumber(n)
    if not name or not n or n < 1 or math.type(n) ~= "integer" then
      error("limits: '" .. item .. "' is not name=procs with procs >= 1")
    end
    t[name] = n
  end
  parsed[text] = t
  return t
end

local function admission(jobs, ctx, params)
  local limits, default = limits_of(params.limits), params.default
  if math.type(default) ~= "integer" or default < 0 then
    error("default must be a non-negative integer, not " .. tostring(default))
  end
  local d, procs, partition = {}, jobs.procs, jobs.partition
  for i = 1, jobs.n do
    local name = partition[i]
    local limit = limits[name] or default
    if limit > 0 and procs[i] > limit then
      if params.hold then
        d[i] = "hold"
      else
        local whose = name == "" and "without a partition" or "of partition " .. name
        d[i] = { reject = "requests " .. procs[i] .. " processors; the limit " .. whose ..
                 " is " .. limit }
      end
    end
  end
  return d
end

return {
  defaults = { limits = "", default = 0, hold = false },
  admission = admission,
}
