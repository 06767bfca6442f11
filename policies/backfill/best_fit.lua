-- backfill/best_fit.lua: Best-Fit backfill selection (most processors used).
--
-- Replaces the First-Fit choice of FCFS/FF by a choice that looks at how
-- well a job fills the machine, as Leinberger, Karypis & Kumar (SC'99) §3
-- do for K resources ("rather than select the next job which fits"); with
-- processors as the only resource that is the job which best uses the
-- processor hole, the selection of Shmueli & Feitelson summarised in
-- Ngubiri & van Vliet, "Group-wise Performance Evaluation of Processor
-- Co-allocation in Multi-cluster Systems", §8.
--
-- Greedy: repeatedly take the widest candidate that still fits in the free
-- processors (ties: queue order). A candidate still running at the head's
-- shadow time must also fit in the extra processors (EASY, as in Zhang et
-- al. §3), so that the pick is not one the engine would refuse, leaving a
-- narrower valid job unstarted. The engine re-validates every pick anyway.
--
-- Taking candidates in order of decreasing width, each if it still fits,
-- is the same greedy choice made in one pass: candidates are grouped by
-- width (queue order inside a group) and only the distinct widths are
-- sorted, which keeps a call linear in the number of candidates.
--
-- Params: none.

local function backfill_select(c, ctx, params)
  local n = c.n
  if n == 0 then
    return nil
  end
  local procs, estimate = c.procs, c.estimate
  local groups, widths = {}, {}
  for i = 1, n do
    local p = procs[i]
    local g = groups[p]
    if g then
      g[#g + 1] = i
    else
      groups[p] = { i }
      widths[#widths + 1] = p
    end
  end
  table.sort(widths)

  local free, extra = ctx.free_procs, ctx.extra_procs
  local shadow, now = ctx.shadow_time, ctx.now
  local picks = {}
  for w = #widths, 1, -1 do
    local p = widths[w]
    if p <= free then
      local g = groups[p]
      for k = 1, #g do
        if p > free then
          break
        end
        local i = g[k]
        if shadow == nil or now + estimate[i] <= shadow then
          picks[#picks + 1] = i
          free = free - p
        elseif p <= extra then -- still running at the shadow time
          picks[#picks + 1] = i
          free = free - p
          extra = extra - p
        end
      end
    end
  end
  return picks
end

return { backfill_select = backfill_select }
