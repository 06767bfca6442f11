-- First fit that streams, and fails when handed more than eight candidates
-- at once: past eight, a chunk must hold no more than could start
-- (tests/capi/test_scenarios.cpp, "a streaming chunk ...").
local function backfill_select(c, ctx, params)
  if c.n > 8 then
    error("a chunk of " .. c.n .. " candidates")
  end
  return c
end
return { backfill_select = backfill_select, streams = { backfill_select = true } }
