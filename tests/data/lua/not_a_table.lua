-- Test fixture: returns something other than a table of hooks.
return 42
