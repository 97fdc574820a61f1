-- Coroutines: a producer / filter / consumer pipeline of generators (resume and yield across Lua frames) and
-- coroutine.wrap over a recursive tree walk.
local N = tonumber(arg and arg[1]) or 100000
local function producer(n)
  return coroutine.create(function()
    for i = 1, n do coroutine.yield(i) end
    return nil
  end)
end
local function filter(src)
  return coroutine.create(function()
    while true do
      local ok, v = coroutine.resume(src)
      if v == nil then return nil end
      if v % 3 ~= 0 then coroutine.yield(v * 2) end
    end
  end)
end
local sum, count = 0.0, 0 -- a float: fengari (Lua 5.3) has 32-bit integers
local f = filter(producer(N))
while true do
  local ok, v = coroutine.resume(f)
  if v == nil then break end
  sum = sum + v
  count = count + 1
end
local function tree(d)
  if d == 0 then return nil end
  return { left = tree(d - 1), value = d, right = tree(d - 1) }
end
local function walk(t)
  if t then
    walk(t.left)
    coroutine.yield(t.value)
    walk(t.right)
  end
end
local t = tree(14)
local total, visits = 0, 0
for _ = 1, 2 do
  for v in coroutine.wrap(function() walk(t) end) do
    total = total + v
    visits = visits + 1
  end
end
print(string.format("pipeline: %d values, sum %.0f; tree walk: %d visits, sum %d", count, sum, visits, total)) -- %.0f: fengari cannot %d a float above 2^31
