-- Naive doubly-recursive Fibonacci: Lua-to-Lua calls, returns, comparisons and additions.
local N = tonumber(arg and arg[1]) or 30
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print(string.format("fib(%d) = %d", N, fib(N)))
