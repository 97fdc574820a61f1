-- Binary trees (after the benchmarks game): allocation of many small tables, recursion, the collector.
local N = tonumber(arg and arg[1]) or 14
local function bottomUp(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottomUp(depth), bottomUp(depth) }
end
local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end
local mindepth = 4
local maxdepth = mindepth + 2
if maxdepth < N then maxdepth = N end
do
  local stretch = maxdepth + 1
  print(string.format("stretch tree of depth %d\t check: %d", stretch, check(bottomUp(stretch))))
end
local longlived = bottomUp(maxdepth)
for depth = mindepth, maxdepth, 2 do
  local iters = 2 ^ (maxdepth - depth + mindepth)
  local c = 0
  for _ = 1, iters do c = c + check(bottomUp(depth)) end
  print(string.format("%d\t trees of depth %d\t check: %d", iters, depth, c))
end
print(string.format("long lived tree of depth %d\t check: %d", maxdepth, check(longlived)))
