-- Replays finished creates: the same Idempotency-Key and body as the first request (keys of an earlier create run,
-- BENCH_REPLAY_NONCE, counters 2..BENCH_REPLAY_COUNT: wrk spends counter 1 on checking the script, never sending it).
-- Every answer must be the stored 201, marked replayed.
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local nonce = os.getenv("BENCH_REPLAY_NONCE")
local count = tonumber(os.getenv("BENCH_REPLAY_COUNT"))
local n = 0

setup = c.setup
done = c.done

function request()
  n = n % (count - 1) + 2
  local key, body = c.voucher(nonce, n)
  return wrk.format("POST", "/collect/redemptions", c.headers(key), body)
end

function response(status, headers, body)
  c.check(status == 201 and headers["Idempotent-Replayed"] == "true", status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
