-- Test fixture: provides order only.
return { order = function(jobs) return {} end }
