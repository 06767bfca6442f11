-- Test fixture: every way a hook can break, chosen by ctx.now (the "mode").
-- Mode 0 behaves: first fit, accept all, FCFS keys.

local function bomb()
  local t = {}
  for i = 1, math.maxinteger do
    t[i] = string.rep("x", 64) .. i
  end
  return t
end

local backfill_faults = {
  [1] = function() error("boom") end,
  [2] = function() while true do end end,
  [3] = function() bomb() end,
  [4] = function() return "first" end,
  [5] = function(c) return { c.n + 1 } end,
  [6] = function() return { 1, 1 } end,
  [7] = function() return { 1.5 } end,
  [8] = function() return 0 end,
  [9] = function() local x = nil; return x.field end,
  [10] = function() error({ code = 7 }) end,
  [11] = function() error("no position", 0) end,
  -- A script that swallows the budget error must still be stopped.
  [12] = function() while true do pcall(function() while true do end end) end end,
  -- ...and one that swallows the memory error keeps running into the budget.
  [13] = function() while true do pcall(bomb) end end,
  -- Damages the tables it was handed, then fails.
  [14] = function(c, ctx)
    local _ = c.id
    c.id = nil
    c.procs[100] = 1
    rawset(ctx, "now", "x")
    rawset(c, "user", {})
    error("vandal")
  end,
  [15] = function() return { 1, "2" } end,
  [16] = function(c, ctx) ctx.free_procs = 1000 end,
  [17] = function() local function f(x) return f(x + 1) + 1 end return f(1) end,
  [19] = function(c) c.user = { 1, 2, 3 } end,
  -- The smallest integer has no 0-based index (found by fuzz_answers).
  [20] = function() return { 1, math.mininteger } end,
  [18] = function() local t = setmetatable({}, { __index = function(t, k) return t[k] end }); return t.x end,
  -- xpcall's handler runs inside the hook that raised the budget's error,
  -- where no hook fires: a handler that loops must not run there.
  [21] = function() xpcall(function() while true do end end, function() while true do end end) end,
  -- An ordinary error's handler runs under the budget and is stopped.
  [22] = function() xpcall(function() error("x") end, function() while true do end end) end,
  -- A handler that runs within the budget still does its work.
  [23] = function() local ok, m = xpcall(function() error("x", 0) end, function(m) return m .. "y" end); error(m, 0) end,
}

local function backfill_select(c, ctx, params)
  local fault = backfill_faults[ctx.now]
  if fault then return fault(c, ctx) end
  -- Whatever an earlier call did to them, the tables are whole again.
  assert(math.type(ctx.now) == "integer", "ctx.now damaged")
  assert(#c.user == c.n and #c.procs == c.n, "batch damaged")
  local picks = {}
  for i = 1, #c.id do picks[i] = i end
  return picks
end

local admission_faults = {
  [1] = function() return { { reject = "" } } end,
  [2] = function() return { { reject = 42 } } end,
  [3] = function() return { {} } end,
  [4] = function() return { "maybe" } end,
  [5] = function() return { false } end,
  [6] = function() return nil end,
  [7] = function() return { 17 } end,
  [8] = function() return { { hold = "later" } } end,
  [9] = function() return { { hold = 1.5 } } end,
  [10] = function() return { { hold = 7 }, "hold", { reject = "no" } } end,
  [11] = function() return { "accept", { hold = 7, reject = "no" } } end,
  [12] = function() return { { reject = "no", reason = "typo" } } end,
  [13] = function() return { "accept", "accept", "accept", "accept" } end,
  [14] = function() return { "accept", hold = true } end,
  -- The answer is read outside the script's call: a key's __tostring must
  -- not run there.
  [15] = function()
    return { "accept", [setmetatable({}, { __tostring = function() error("ran") end })] = 1 }
  end,
  -- A wake-up no clock can reach; math.maxinteger itself means no time.
  [16] = function() return { { hold = math.maxinteger - 1 } } end,
  [17] = function() return { { hold = math.maxinteger }, { hold = 2305843009213693951 }, "accept" } end,
}

local function admission(jobs, ctx, params)
  local fault = admission_faults[ctx.now]
  if fault then return fault() end
  local d = {}
  for i = 1, jobs.n do d[i] = "accept" end
  return d
end

local order_faults = {
  [1] = function(jobs) return {} end,
  [2] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = 0 / 0 end; return k end,
  [3] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = "1" end; return k end,
  [4] = function(jobs) return 5 end,
  [5] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = math.huge end; return k end,
  -- Right keys, and a named field or a key past n beside them.
  [6] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = i end; k.foo = 1; return k end,
  [7] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = i end; k[jobs.n + 1000] = 1; return k end,
  [8] = function(jobs) local k = {}; for i = 1, jobs.n do k[i] = i end; k[0] = 1; return k end,
}

local function order(jobs, ctx, params)
  local fault = order_faults[ctx.now]
  if fault then return fault(jobs) end
  local k = {}
  for i = 1, jobs.n do k[i] = jobs.submit[i] end
  return k
end

return { backfill_select = backfill_select, admission = admission, order = order }
