-- `streams` asks a hook that cannot take its batch in chunks to stream,
-- though this file is configured for backfill_select only.
return {
    streams = { order = true },
    backfill_select = function(batch, ctx) return batch end,
}
