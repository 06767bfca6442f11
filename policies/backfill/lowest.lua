-- backfill/lowest.lua: Backfill-Lowest (BL) selection for K resources, and
-- the windowed lowest-resource heuristic it is the w = 1 case of.
--
-- Implements Leinberger, Karypis & Kumar, "Job Scheduling in the presence
-- of Multiple Resource Requirements" (SC'99), §3. Let S_i be the share of
-- resource i in use (ctx.usage; resource 1 is processors, 2..K the pools)
-- and R_ij job j's share of it (c.R[i][j]). The w least used resources
-- are the window; a job "matches" when its w largest requirements are on
-- exactly those resources: starting it lessens the imbalance there. With
-- w = 1 (BL, the paper's choice for queues of fewer than ~100 jobs) a job
-- matches when its largest requirement is on the least used resource.
--
-- The paper applies its fullness modifier, 1 - sum_i (S_i + R_ij) / K, to
-- both BL and BB so that a job that nearly fills the machine can win over
-- a better matching one, but gives BL no balance measure to multiply it
-- with. rota scores a match 1 and a mismatch `mismatch` (default 2):
--
--   score(j) = (match ? 1 : mismatch) * (1 - sum_i (S_i + R_ij) / K)
--
-- lower is better, ties to queue order. So among matching jobs the one that
-- fills the machine most wins, and a job that does not match wins only if
-- it leaves less than 1/mismatch of the free share a matching one leaves.
-- mismatch = 1 ignores the window (a K-resource best fit).
--
-- As in balanced.lua, one call decides the phase: choose, add R_j to a
-- copy of S (the window moves with it), choose again until nothing fits,
-- checking a job still running at the shadow time against ctx.extra (EASY);
-- the engine re-checks every pick. The window, the match test and the
-- score run in rota.kselect's native `best` with the "lowest" score
-- (docs/lua-api.md, "K-resource selection"), ties in the window's and the
-- requirements' order going to the lower resource.
--
-- Params:
--   window   (integer >= 0, default 1): w; w >= K makes every job match.
--   mismatch (finite number >= 1, default 2): the factor of a job that does not match.

local function backfill_select(c, ctx, params)
  -- Checked before the empty-batch return: the load's dry run refuses a bad value.
  local window, mismatch = params.window, params.mismatch
  if math.type(window) ~= "integer" or window < 0 then
    error("window must be a non-negative integer, not " .. tostring(window))
  end
  if type(mismatch) ~= "number" or not (mismatch >= 1) or mismatch == math.huge then
    error("mismatch must be a finite number >= 1, not " .. tostring(mismatch))
  end
  if c.n == 0 then
    return nil
  end
  local sel = rota.kselect(c, ctx)
  local picks = {}
  while true do
    local j = sel:best("lowest", window, mismatch)
    if j == nil then
      break
    end
    sel:take(j)
    picks[#picks + 1] = j
  end
  return picks
end

return {
  defaults = { window = 1, mismatch = 2 },
  backfill_select = backfill_select,
}
