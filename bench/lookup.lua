-- POST /stored_value/lookup of a vouchers.provider_c token (a sandbox voucher with a balance), a fresh Idempotency-Key
-- each: a balance lookup, counted against the key. Every answer must be 200 (bench/limits.sh raises the limit).
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local nonce = os.getenv("BENCH_NONCE") or "100000"
local n = 0

setup = c.setup
done = c.done
-- Paced when BENCH_RATE is set (requests/s over all connections).
delay = c.delay

function request()
  n = n + 1
  local digits = string.format("%011d", n)
  local body = '{"type":"vouchers.provider_c","source":{"token":"T' .. digits .. '4417"}}'
  return wrk.format("POST", "/stored_value/lookup", c.headers("lookup-" .. nonce .. "-" .. digits), body)
end

function response(status, headers, body)
  c.check(status == 200, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
