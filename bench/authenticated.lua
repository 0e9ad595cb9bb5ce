-- GET /collect/redemptions?limit=1 with the benchmark's valid key: a request that authenticates, for comparison (its
-- limits are in memory whatever the jar). Every answer must be 200.
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")

setup = c.setup
done = c.done
-- Paced when BENCH_RATE is set (requests/s over all connections).
delay = c.delay

function request()
  return wrk.format("GET", "/collect/redemptions?limit=1", c.headers(nil))
end

function response(status, headers, body)
  c.check(status == 200, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
