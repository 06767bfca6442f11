-- Test fixture: fails while its chunk runs (line 3).
local x = 1
error("cannot start: x is " .. x)
