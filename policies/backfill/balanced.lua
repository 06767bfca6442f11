-- backfill/balanced.lua: Backfill-Balanced (BB) selection for K resources.
--
-- Implements the BB heuristic of Leinberger, Karypis & Kumar, "Job
-- Scheduling in the presence of Multiple Resource Requirements" (SC'99),
-- §3. Among the backfill candidates, pick the job whose start leaves the
-- machine's K resources best balanced, relaxed as the machine fills:
--
--   balance(j)  = max_i (S_i + R_ij) / ( sum_i (S_i + R_ij) / K )
--   fullness(j) = 1 - sum_i (S_i + R_ij) / K
--   score(j)    = balance(j) * fullness(j)        (lower is better)
--
-- where S_i is the share of resource i in use (ctx.usage) and R_ij the
-- job's share of it (c.R[i][j]); resource 1 is processors, 2..K the pools.
-- The fullness modifier lets a larger, less balanced job win over a smaller,
-- better balanced one when it nearly fills the machine (§3).
--
-- One call decides the whole phase: the script repeats the choice on its
-- own copy of S (take the best-scoring candidate that still fits, add its
-- R_j to S, score again) until no candidate fits, and answers the picks in
-- that order. Ties go to the earlier candidate in queue order. A candidate
-- still running at the head's shadow time must also fit in what the head's
-- reservation leaves then (ctx.extra), as EASY requires; the engine checks
-- every pick again against the machine and every reservation, so a pick
-- that a deeper (conservative) reservation forbids is passed over there.
--
-- The score's K-loop over every candidate runs in rota.kselect's native
-- `best` (docs/lua-api.md, "K-resource selection"): the same formula with
-- the same fit test, a tenth of the cost of the loop over c.R in Lua.
--
-- Params: none.

local function backfill_select(c, ctx, params)
  if c.n == 0 then
    return nil
  end
  local sel = rota.kselect(c, ctx)
  local picks = {}
  while true do
    local j = sel:best("balanced")
    if j == nil then
      break
    end
    sel:take(j)
    picks[#picks + 1] = j
  end
  return picks
end

return { backfill_select = backfill_select }
