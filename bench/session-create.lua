-- POST /collect/payment_sessions: the smallest valid session (amount and currency) with a fresh Idempotency-Key per
-- request (BENCH_NONCE and a counter). Every answer must be 201 with a new session, "status":"active".
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local nonce = os.getenv("BENCH_NONCE")
local n = 0

setup = c.setup
delay = c.delay
done = c.done

function request()
  n = n + 1
  local key = string.format("bench-ps-%s-%09d", nonce, n)
  return wrk.format("POST", "/collect/payment_sessions", c.headers(key), '{"amount":15000,"currency":"ZAR"}')
end

function response(status, headers, body)
  c.check(status == 201 and string.find(body, '"status":"active"', 1, true) ~= nil, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
