-- Test fixture: never finishes loading.
while true do end
return {}
