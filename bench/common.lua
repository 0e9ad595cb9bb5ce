-- Shared by the wrk scripts: the request headers, a millisecond clock, and the JSON line every script prints.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clk_id, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")

local M = {}

function M.now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

-- BENCH_TENDER_VERSION (set and not empty): every request names that API version (bench/versions.sh).
local tender_version = os.getenv("BENCH_TENDER_VERSION")

function M.headers(idempotency_key)
  local h = {
    ["Authorization"] = "Bearer " .. os.getenv("BENCH_API_KEY"),
    ["Content-Type"] = "application/json",
  }
  if idempotency_key then h["Idempotency-Key"] = idempotency_key end
  if tender_version and tender_version ~= "" then h["Tender-Version"] = tender_version end
  return h
end

-- The voucher of request n: a 16-digit one_voucher PIN ending in 7 (a valid sandbox voucher), unique per run nonce
-- (6 digits) and counter (9 digits); its Idempotency-Key carries the same numbers so a replay can rebuild the body.
function M.voucher(nonce, n)
  local digits = string.format("%09d", n)
  local body = '{"type":"vouchers.one_voucher","source":{"pin":"' .. nonce .. digits .. '7"}}'
  return "bench-" .. nonce .. "-" .. digits, body
end

-- Optional pacing (BENCH_RATE requests/s over all connections): each request takes the next free slot.
local rate = tonumber(os.getenv("BENCH_RATE") or "0")
local interval = rate > 0 and 1000 / rate or 0
local next_slot = 0
function M.delay()
  if interval == 0 then return 0 end
  local now = M.now_ms()
  if next_slot < now then next_slot = now end
  local wait = next_slot - now
  next_slot = next_slot + interval
  return wait
end

M.bad = 0     -- answers with the wrong status or body
M.sample = nil -- the first wrong answer, to show in the report

-- Optional per-window counts (BENCH_WINDOW_MS): the right answers completed in each window of that length since the
-- thread's first request (a global, which done() reads through thread:get). The cold start's windows are one run.
local window_ms = tonumber(os.getenv("BENCH_WINDOW_MS") or "0")
local first_ms = nil
windows = {}
function M.started()
  if first_ms == nil then first_ms = M.now_ms() end
end

function M.check(ok, status, body)
  if ok and window_ms > 0 and first_ms ~= nil then
    local k = math.floor((M.now_ms() - first_ms) / window_ms) + 1
    windows[k] = (windows[k] or 0) + 1
  end
  if not ok then
    M.bad = M.bad + 1
    if M.sample == nil then M.sample = tostring(status) .. " " .. string.sub(body or "", 1, 300) end
  end
end

local threads = {}
function M.setup(thread)
  table.insert(threads, thread)
end

function M.done(summary, latency, requests)
  local bad, sample, counts = 0, "", {}
  for _, t in ipairs(threads) do
    local w = t:get("windows") or {}
    for k, v in pairs(w) do counts[k] = (counts[k] or 0) + v end
    bad = bad + (t:get("bad_answers") or 0)
    local s = t:get("bad_sample")
    if s and sample == "" then sample = s end
  end
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout + bad
  -- wrk counts non-2xx/3xx in e.status; bad already counts every unexpected status, so status is not added again.
  local secs = summary.duration / 1e6
  local list, last = {}, 0
  for k in pairs(counts) do if k > last then last = k end end
  for k = 1, last do list[k] = counts[k] or 0 end
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.2f,"p95_ms":%.2f,"p99_ms":%.2f,"max_ms":%.2f,' ..
    '"mean_ms":%.2f,"errors":%d,"socket_errors":%d,"bad_answers":%d,"bad_sample":"%s"%s}\n',
    summary.requests, secs, summary.requests / secs,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, latency.mean / 1000, errors, e.connect + e.read + e.write + e.timeout, bad,
    (sample:gsub('[%c"\\]', ' ')), window_ms > 0 and (',"windows":[' .. table.concat(list, ",") .. ']') or ""))
end

return M
