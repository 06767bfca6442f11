-- distribution/favor_running.lua: favor_running (Weissman et al.,
-- "Integrated Scheduling", §2.2): the processors a termination freed go
-- to running applications "using the inverse of the harvest policy", up
-- to their ideal; what is left goes to queued jobs, FCFS, each on
-- min(free, ideal) while the next one's min fits (Figure 3(a), step 3a).
-- The engine has already admitted queued jobs up to the degree of
-- multiprogramming M (all distribution first satisfies admission).
--
-- Params: harvest (default "even"): the harvest policy to invert.
--   even        one processor at a time to each growable job in turn
--   low_impact  each processor to the job holding the smallest share of its
--               ideal (the most favourably impacted)
--   fair        the most harvested jobs first, then in turn

local rank = {
  even = function(b, give, i, j) return give[i] < give[j] end,
  low_impact = function(b, give, i, j)
    return (b.procs[i] + give[i]) / b.ideal[i] < (b.procs[j] + give[j]) / b.ideal[j]
  end,
  fair = function(b, give, i, j)
    if b.harvests[i] ~= b.harvests[j] then return b.harvests[i] > b.harvests[j] end
    return give[i] < give[j]
  end,
}

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

-- The running jobs that can still grow, in a binary heap ordered so that
-- its top is the job a scan of the whole batch would pick for the next
-- processor (the first of the best, `better` being a strict order): a
-- processor costs O(log n) instead of a pass over every job, queued ones
-- included. Only the top's key changes, and only for the worse, so it
-- sinks.
local function grow(b, give, avail, better)
  local heap, n = {}, 0
  local function before(i, j)
    if better(b, give, i, j) then return true end
    if better(b, give, j, i) then return false end
    return i < j
  end
  local function sink(k)
    while true do
      local l = 2 * k
      if l > n then return end
      local c = l
      if l < n and before(heap[l + 1], heap[l]) then c = l + 1 end
      if not before(heap[c], heap[k]) then return end
      heap[k], heap[c] = heap[c], heap[k]
      k = c
    end
  end
  for i = 1, b.n do
    if b.queued[i] == 0 and b.procs[i] + give[i] < b.ideal[i] then
      n = n + 1
      heap[n] = i
      local k = n
      while k > 1 do
        local p = k // 2
        if not before(heap[k], heap[p]) then break end
        heap[k], heap[p] = heap[p], heap[k]
        k = p
      end
    end
  end
  while avail > 0 and n > 0 do
    local i = heap[1]
    give[i], avail = give[i] + 1, avail - 1
    if b.procs[i] + give[i] >= b.ideal[i] then
      heap[1] = heap[n]
      heap[n] = nil
      n = n - 1
    end
    sink(1)
  end
  return avail
end

local function admit(b, give, avail)
  for i = 1, b.n do
    if b.queued[i] == 1 then
      if b.min[i] > avail then break end
      give[i] = math.min(avail, b.ideal[i])
      avail = avail - give[i]
    end
  end
  return avail
end

local function distribution(b, ctx, params)
  local better = rank[params.harvest]
  if better == nil then error("unknown harvest policy to invert: " .. tostring(params.harvest)) end
  local give = {}
  for i = 1, b.n do give[i] = 0 end
  if params.harvest == "even" then
    admit(b, give, grow_even(b, give, ctx.needed))
  elseif params.harvest == "low_impact" then
    admit(b, give, grow_share(b, give, ctx.needed))
  else
    admit(b, give, grow(b, give, ctx.needed, better))
  end
  return give
end

return { defaults = { harvest = "even" }, distribution = distribution }
