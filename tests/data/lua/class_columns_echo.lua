-- Admits every job and prints the class columns it sees, one line a job.
local function admission(jobs, ctx, params)
  for i = 1, jobs.n do
    print(string.format("job %d class %d priority %d", jobs.id[i], jobs.job_class[i],
      jobs.class_priority[i]))
  end
  return nil
end

return { admission = admission }
