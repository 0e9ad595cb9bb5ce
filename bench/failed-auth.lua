-- GET /collect/redemptions with a well-formed test key that does not exist (BENCH_BAD_KEY): a failed authentication,
-- which the service looks up and counts against the client address. Every answer must be 401 (bench/limits.sh raises
-- the limit so that none is refused).
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local headers = { ["Authorization"] = "Bearer " .. os.getenv("BENCH_BAD_KEY") }

setup = c.setup
done = c.done
-- Paced when BENCH_RATE is set (requests/s over all connections).
delay = c.delay

function request()
  return wrk.format("GET", "/collect/redemptions", headers)
end

function response(status, headers, body)
  c.check(status == 401, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
