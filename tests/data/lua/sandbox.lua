-- Test fixture: each mode (ctx.now) reaches for something the sandbox must
-- refuse; mode 0 returns {1} so that the next call can be checked.

local attempts = {
  [1] = function() return io.write("x") end,
  [2] = function() return os.exit(1) end,
  [3] = function() return debug.getinfo(1) end,
  [4] = function() return require("os") end,
  [5] = function(params)
    local f, err = load(params.bytecode, "bytecode", "b")
    if not f then error(err) end
    return f()
  end,
  [6] = function() return string.dump(print) end,
  [7] = function() return ("x").dump(print) end,
  [8] = function() return dofile("/etc/hostname") end,
  [9] = function() return loadfile("/etc/hostname") end,
  [10] = function() return collectgarbage("count") end,
  [11] = function() return setmetatable({}, { __gc = function() end }) end,
  [12] = function() leaked_global = 1 end,
  [13] = function() rota.version = "hacked" end,
  [14] = function() return getmetatable("").__index end,
  [15] = function() return package.loaded end,
  [16] = function() return load(function() return nil end) end,
}

local function backfill_select(c, ctx, params)
  local attempt = attempts[ctx.now]
  if attempt then
    attempt(params)
    return nil
  end
  -- Mode 0 also checks what the sandbox does provide.
  assert(type(rota.version) == "string" and rota.second == 1000000)
  local s = rota.sequence(3)
  assert(#s == 3 and s[1] == 1 and s[3] == 3 and next(rota.sequence(0)) == nil)
  assert(not pcall(rota.sequence, -1))
  -- kselect takes only this call's own batch and context.
  assert(type(rota.kselect) == "function" and not pcall(rota.kselect, {}, ctx))
  assert(not pcall(rota.kselect, c, {}) and not pcall(rota.kselect, ctx, c))
  -- waterfill takes only a harvest's or a distribution's batch and context.
  assert(type(rota.waterfill) == "function" and not pcall(rota.waterfill, c, ctx))
  assert(not pcall(rota.waterfill, {}, {}))
  assert(string.dump == nil and ("x"):rep(2) == "xx")
  local f = assert(load("return 1 + ...", "inline", "t"))
  assert(f(1) == 2)
  print("sandbox ok", c.n)
  if c.n > 0 then return { 1 } end
end

return { backfill_select = backfill_select, defaults = { bytecode = "" } }
