-- Strings and tables: building words with string.format / .. / string.rep, string.sub / byte / char,
-- gsub with a pattern and a function, a word-count table with string keys, table.insert / concat / sort.
local N = tonumber(arg and arg[1]) or 40000
local words = {}
for i = 1, N do
  local w = string.format("w%x", (i * 7919) % 4099) .. string.rep("ab", i % 3)
  words[#words + 1] = w
end
local counts = {}
for i = 1, #words do
  local w = words[i]
  counts[w] = (counts[w] or 0) + 1
end
local keys = {}
for key in pairs(counts) do table.insert(keys, key) end
table.sort(keys)
local text = table.concat(words, " ", 1, 2000)
local vowels = 0
local replaced = string.gsub(text, "[aeiou]", function(c) vowels = vowels + 1; return string.upper(c) end)
local sum = 0
for i = 1, #replaced do sum = (sum + string.byte(replaced, i) * i) % 1000003 end
local rev = {}
for i = 1, #keys do
  local key = keys[i]
  local r = {}
  for j = #key, 1, -1 do r[#r + 1] = string.sub(key, j, j) end
  rev[i] = table.concat(r)
end
local n = 0
for _, w in ipairs(rev) do
  for hex in string.gmatch(w, "%x+") do n = n + #hex end
end
print(string.format("%d distinct of %d words; first %s last %s", #keys, #words, keys[1], keys[#keys]))
print(string.format("vowels %d, checksum %d, hex digits %d, reversed[7] %s", vowels, sum, n, rev[7]))
