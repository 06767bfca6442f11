-- `streams` names a hook that does not exist.
return {
    streams = { backfil_select = true },
    backfill_select = function(batch, ctx) return batch end,
}
