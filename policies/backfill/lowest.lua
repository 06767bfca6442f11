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
-- the engine re-checks every pick.
--
-- Params:
--   window   (integer >= 0, default 1): w; w >= K makes every job match.
--   mismatch (number >= 1, default 2): the factor of a job that does not match.

local EPS = 1e-9

-- Whether the w largest entries of job j's requirements (ties to the lower
-- resource) are the w resources flagged in `low`.
local function matches(R, K, j, w, low)
  if w == 1 then
    local top, topv = 1, R[1][j]
    for i = 2, K do
      local v = R[i][j]
      if v > topv then
        top, topv = i, v
      end
    end
    return low[top] == true
  end
  local idx = {}
  for i = 1, K do
    idx[i] = i
  end
  table.sort(idx, function(a, b)
    local x, y = R[a][j], R[b][j]
    if x ~= y then
      return x > y
    end
    return a < b
  end)
  for k = 1, w do
    if not low[idx[k]] then
      return false
    end
  end
  return true
end

local function backfill_select(c, ctx, params)
  local n = c.n
  if n == 0 then
    return nil
  end
  local window, mismatch = params.window, params.mismatch
  if math.type(window) ~= "integer" or window < 0 then
    error("window must be a non-negative integer, not " .. tostring(window))
  end
  if type(mismatch) ~= "number" or mismatch < 1 then
    error("mismatch must be a number >= 1, not " .. tostring(mismatch))
  end
  local K = ctx.resources
  local w = math.min(window, K)
  local R, est = c.R, c.estimate
  local S = {}
  for i = 1, K do
    S[i] = ctx.usage[i]
  end
  local shadow, now = ctx.shadow_time, ctx.now
  local E
  if shadow ~= nil and ctx.extra ~= nil then
    E = {}
    for i = 1, K do
      E[i] = ctx.extra[i]
    end
  end

  local order = {}
  for i = 1, K do
    order[i] = i
  end
  local by_usage = function(a, b)
    if S[a] ~= S[b] then
      return S[a] < S[b]
    end
    return a < b
  end

  local taken, picks = {}, {}
  while true do
    table.sort(order, by_usage)
    local low = {}
    for k = 1, w do
      low[order[k]] = true
    end
    local best, best_score = nil, math.huge
    for j = 1, n do
      if not taken[j] then
        local past = E ~= nil and now + est[j] > shadow
        local sum = 0.0
        local fits = true
        for i = 1, K do
          local r = R[i][j]
          local u = S[i] + r
          if u > 1 + EPS or (past and r > E[i] + EPS) then
            fits = false
            break
          end
          sum = sum + u
        end
        if fits then
          local score = 1 - sum / K
          if w > 0 and w < K and not matches(R, K, j, w, low) then
            score = score * mismatch
          end
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

return {
  defaults = { window = 1, mismatch = 2 },
  backfill_select = backfill_select,
}
