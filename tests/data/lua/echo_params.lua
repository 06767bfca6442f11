-- Test fixture: no defaults, so any param is accepted; answers with the
-- params it was given (as admission reasons) so the test can see them.

local function admission(jobs, ctx, params)
  local names = {}
  for k, v in pairs(params) do names[#names + 1] = k .. "=" .. tostring(v) .. ":" .. tostring(math.type(v)) end
  table.sort(names)
  local d = {}
  for i = 1, jobs.n do d[i] = { reject = table.concat(names, ",") } end
  return d
end

return { admission = admission }
