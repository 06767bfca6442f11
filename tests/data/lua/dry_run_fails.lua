-- Test fixture: loads, but fails when called, even on an empty batch.
return { backfill_select = function(c) error("not ready: n is " .. c.n) end }
