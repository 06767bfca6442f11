-- Test fixture: a syntax error on line 4.

local function backfill_select(c, ctx, params)
  return { 1, 2 +
end

return { backfill_select = backfill_select }
