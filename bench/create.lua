-- POST /collect/redemptions with a fresh sandbox voucher and a fresh Idempotency-Key per request.
-- Every answer must be 201 with status "confirmed" (a full redeem on the hold-less sandbox provider).
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local nonce = os.getenv("BENCH_NONCE")
local n = 0

setup = c.setup
delay = c.delay
done = c.done

function request()
  c.started()
  n = n + 1
  local key, body = c.voucher(nonce, n)
  return wrk.format("POST", "/collect/redemptions", c.headers(key), body)
end

function response(status, headers, body)
  c.check(status == 201 and string.find(body, '"status":"confirmed"', 1, true) ~= nil, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
