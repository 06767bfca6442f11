-- backfill/fpfs.lua: Fit Processor First Served, FPFS(maxJumps).
--
-- Implements the scheduler of Ngubiri & van Vliet, "Group-wise Performance
-- Evaluation of Processor Co-allocation in Multi-cluster Systems", §3: the
-- scheduler searches from the head of the queue for jobs that fit; a job
-- that fits jumps the jobs ahead of it. To avoid starving the head, it may
-- be jumped at most maxJumps times; after that nothing jumps it until it
-- starts. FPFS(0) is FCFS (§5.1); the paper's default is FPFS(10) (§5.2
-- shows little gain beyond maxJumps = 10).
--
-- The engine counts the jumps the head has suffered into ctx.head_jumps
-- (each backfilled job jumps it once), so the script only answers at most
-- max_jumps - ctx.head_jumps candidates, in queue order. It streams: the
-- engine hands the candidates over a chunk at a time (enough to fill the
-- free processors) with ctx.head_jumps up to date, so when a pick no
-- longer fits, the search goes on deeper into the queue, as §3 describes
-- ("searches deeper into the queue for the first job that fits"); an
-- empty answer ends the search for this pass.
--
-- Params:
--   max_jumps (integer >= 0, default 10): maxJumps of the paper.

local function backfill_select(c, ctx, params)
  local max_jumps = params.max_jumps
  if math.type(max_jumps) ~= "integer" or max_jumps < 0 then
    error("max_jumps must be a non-negative integer, not " .. tostring(max_jumps))
  end
  local left = math.min(max_jumps - ctx.head_jumps, c.n)
  if left <= 0 then
    return nil
  end
  return rota.sequence(left) -- the first `left` candidates, in queue order
end

return {
  defaults = { max_jumps = 10 },
  backfill_select = backfill_select,
  streams = { backfill_select = true },
}
