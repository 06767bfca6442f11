-- backfill/first_fit.lua: First-Fit backfill selection (FCFS/FF).
--
-- Implements the FCFS/FF scheme of Leinberger, Karypis & Kumar, "Job
-- Scheduling in the presence of Multiple Resource Requirements" (SC'99),
-- §2.1-2.2: when the job at the head of the queue cannot start, skip it and
-- start the next jobs in queue order that fit ("a greedy method to backfill
-- a machine by selecting the next job which fits"). With the engine's
-- reservation for the head this is the backfilling of Zhang, Franke, Moreira
-- & Sivasubramaniam, §3: a lower-priority job runs first only if it does not
-- delay the higher-priority one.
--
-- The engine hands only candidates that fit now without delaying a
-- reservation, in queue order, and starts each pick that still fits, so
-- answering every candidate in order is exactly "the next job that fits",
-- repeated until none does. Returning the batch itself says "all of them,
-- in this order" without building a list of indices at every pass.
--
-- The choice never looks past the candidate at hand, so the policy
-- streams: the engine may hand the candidates over a chunk at a time and
-- stop looking as soon as nothing more can start.
--
-- Params: none.

local function backfill_select(c, ctx, params)
  return c
end

return { backfill_select = backfill_select, streams = { backfill_select = true } }
