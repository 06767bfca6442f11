-- Test fixture: reports [Leinberger99]'s resource view of the batch and ctx.

local function list(t)
  if t == nil then
    return "nil"
  end
  local parts = {}
  for i = 1, #t do
    parts[i] = string.format("%g", t[i])
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

local function backfill_select(c, ctx, params)
  local parts = { "K=" .. ctx.resources, "cap=" .. list(ctx.capacity), "S=" .. list(ctx.usage),
    "head=" .. list(ctx.head_demand), "extra=" .. list(ctx.extra), "nR=" .. #c.R }
  for i = 1, #c.R do
    parts[#parts + 1] = "R" .. i .. "=" .. list(c.R[i])
  end
  print(table.concat(parts, " "))
  return nil
end

return { backfill_select = backfill_select }
