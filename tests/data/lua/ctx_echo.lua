-- Test fixture: reports what it sees in the batch and ctx through print.

local function backfill_select(c, ctx, params)
  local parts = { "n=" .. c.n, "len=" .. #c.id }
  for i = 1, c.n do
    parts[#parts + 1] = string.format("%d/%d/%d/%d/%d/%d", c.id[i], c.procs[i], c.estimate[i],
      c.submit[i], c.user[i], c.priority[i])
  end
  for _, k in ipairs({ "now", "machine_procs", "free_procs", "queue_length", "head_id",
    "head_procs", "head_jumps", "shadow_time", "extra_procs" }) do
    parts[#parts + 1] = k .. "=" .. tostring(ctx[k])
  end
  print(table.concat(parts, " "))
  return nil
end

return { backfill_select = backfill_select }
