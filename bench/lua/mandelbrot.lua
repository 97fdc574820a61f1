-- Mandelbrot (after the benchmarks game, a checksum of the bitmap instead of the PBM bytes): float arithmetic in
-- a tight inner loop, bit packing with arithmetic.
local N = tonumber(arg and arg[1]) or 400
local iter = 50
local limit2 = 4.0
local sum, bits, nbits = 0.0, 0.0, 0 -- floats: fengari (Lua 5.3) has 32-bit integers
for y = 0, N - 1 do
  local ci = 2.0 * y / N - 1.0
  for x = 0, N - 1 do
    local cr = 2.0 * x / N - 1.5
    local zr, zi, zr2, zi2 = 0.0, 0.0, 0.0, 0.0
    local inside = 1
    for _ = 1, iter do
      zi = 2.0 * zr * zi + ci
      zr = zr2 - zi2 + cr
      zr2 = zr * zr
      zi2 = zi * zi
      if zr2 + zi2 > limit2 then inside = 0; break end
    end
    bits = bits * 2 + inside
    nbits = nbits + 1
    if nbits == 8 then
      sum = (sum * 31 + bits) % 1000000007
      bits, nbits = 0.0, 0
    end
  end
end
print(string.format("mandelbrot %d: checksum %d", N, sum))
