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
-- Params: none.

local EPS = 1e-9

local function backfill_select(c, ctx, params)
  local n = c.n
  if n == 0 then
    return nil
  end
  local K = ctx.resources
  local R, est = c.R, c.estimate
  local S = {}
  for i = 1, K do
    S[i] = ctx.usage[i]
  end
  local shadow, now = ctx.shadow_time, ctx.now
  local E -- what the head's reservation leaves at the shadow time
  if shadow ~= nil and ctx.extra ~= nil then
    E = {}
    for i = 1, K do
      E[i] = ctx.extra[i]
    end
  end

  local taken, picks = {}, {}
  while true do
    local best, best_score = nil, math.huge
    for j = 1, n do
      if not taken[j] then
        local past = E ~= nil and now + est[j] > shadow
        local mx, sum = 0.0, 0.0
        local fits = true
        for i = 1, K do
          local r = R[i][j]
          local u = S[i] + r
          if u > 1 + EPS or (past and r > E[i] + EPS) then
            fits = false
            break
          end
          if u > mx then
            mx = u
          end
          sum = sum + u
        end
        if fits then
          local avg = sum / K
          local score = (mx / avg) * (1 - avg)
          if score < best_score then
            best, best_score = j, score
          end
        end
      end
    end
    if best == nil then
      break
    end
    taken[best] = true
    picks[#picks + 1] = best
    local past = E ~= nil and now + est[best] > shadow
    for i = 1, K do
      local r = R[i][best]
      S[i] = S[i] + r
      if past then
        E[i] = E[i] - r
      end
    end
  end
  return picks
end

return { backfill_select = backfill_select }
