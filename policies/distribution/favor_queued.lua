-- distribution/favor_queued.lua: favor_queued (Weissman et al.,
-- "Integrated Scheduling", §2.2): the processors a termination freed go to
-- queued applications first, "to admit them into the system", FCFS, each
-- on min(free, ideal) while the next one's min fits; what is left grows
-- running jobs (Figure 3(a), step 3b), one processor at a time to each in
-- turn (the inverse of even_harvest) or, with harvest = "low_impact", each
-- to the job holding the smallest share of its ideal.
--
-- Params:
--   harvest (default "even"): the harvest policy whose inverse grows
--     running jobs with the leftovers
--   grow_running (default true): false keeps running jobs at the size they
--     started with (MOLDABLE, §2.2: "no adaptation on running applications")

-- Each in turn (the inverse of even_harvest) without a step per
-- processor: round r gives one to every job that can still grow, in batch
-- order, so after L whole rounds job i holds min(room_i, L) more and the
-- last, partial round goes to the first ones with room left.
local function grow_even(b, give, avail)
  local jobs, rooms = {}, {}
  for i = 1, b.n do
    if b.queued[i] == 0 then
      local room = b.ideal[i] - b.procs[i] - give[i]
      if room > 0 then
        jobs[#jobs + 1] = i
        rooms[#rooms + 1] = room
      end
    end
  end
  local sorted = table.move(rooms, 1, #rooms, 1, {})
  table.sort(sorted)
  local level, k, m = 0, 1, #sorted
  while k <= m do
    local step, count = sorted[k] - level, m - k + 1
    if step * count > avail then
      local rounds = avail // count
      level, avail = level + rounds, avail - rounds * count
      break
    end
    level, avail = sorted[k], avail - step * count
    while k <= m and sorted[k] == level do k = k + 1 end
  end
  for t = 1, #jobs do
    local i, room = jobs[t], rooms[t]
    local g = math.min(room, level)
    if room > level and avail > 0 then g, avail = g + 1, avail - 1 end
    give[i] = give[i] + g
  end
  return avail
end

-- By share (the inverse of low_impact_harvest): each processor to the job
-- holding the smallest share of its ideal, ties to the first in the batch.
-- A binary heap on (share, position) finds it in O(log n) rather than a
-- pass over every job; only the top's share changes, and it grows, so the
-- top sinks.
local function grow_share(b, give, avail)
  local procs, ideal, queued = b.procs, b.ideal, b.queued
  local heap, key, n = {}, {}, 0
  local function sink(k)
    local i = heap[k]
    local ki = key[i]
    while true do
      local l = 2 * k
      if l > n then break end
      local c = heap[l]
      local kc = key[c]
      if l < n then
        local r = heap[l + 1]
        local kr = key[r]
        if kr < kc or (kr == kc and r < c) then c, kc, l = r, kr, l + 1 end
      end
      if ki < kc or (ki == kc and i < c) then break end
      heap[k], k = c, l
    end
    heap[k] = i
  end
  for i = 1, b.n do
    if queued[i] == 0 and procs[i] + give[i] < ideal[i] then
      n = n + 1
      heap[n], key[i] = i, (procs[i] + give[i]) / ideal[i]
    end
  end
  for k = n // 2, 1, -1 do sink(k) end
  while avail > 0 and n > 0 do
    local i = heap[1]
    give[i], avail = give[i] + 1, avail - 1
    if procs[i] + give[i] >= ideal[i] then
      heap[1] = heap[n]
      heap[n] = nil
      n = n - 1
    else
      key[i] = (procs[i] + give[i]) / ideal[i]
    end
    if n > 0 then sink(1) end
  end
  return avail
end

local function distribution(b, ctx, params)
  local give, avail = {}, ctx.needed
  for i = 1, b.n do give[i] = 0 end
  for i = 1, b.n do
    if b.queued[i] == 1 then
      if b.min[i] > avail then break end
      give[i] = math.min(avail, b.ideal[i])
      avail = avail - give[i]
    end
  end
  if not params.grow_running then return give end
  local low_impact = params.harvest == "low_impact"
  if not low_impact and params.harvest ~= "even" then
    error("harvest must be \"even\" or \"low_impact\", not " .. tostring(params.harvest))
  end
  if low_impact then
    grow_share(b, give, avail)
  else
    grow_even(b, give, avail)
  end
  return give
end

return { defaults = { harvest = "even", grow_running = true }, distribution = distribution }
