-- `streams` values are booleans.
return {
    streams = { backfill_select = "yes" },
    backfill_select = function(batch, ctx) return batch end,
}
