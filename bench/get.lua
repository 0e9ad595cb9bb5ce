-- GET /collect/redemptions/{id} (or BENCH_GET_PATH/{id}: /collect/payment_sessions) over the ids listed in
-- BENCH_IDS_FILE (one per line). Every answer must be 200.
package.path = os.getenv("BENCH_DIR") .. "/?.lua;" .. package.path
local c = require("common")
local ids = {}
for line in io.lines(os.getenv("BENCH_IDS_FILE")) do
  if #line > 0 then table.insert(ids, line) end
end
local path = (os.getenv("BENCH_GET_PATH") or "/collect/redemptions") .. "/"
local n = 0

setup = c.setup
done = c.done

function request()
  n = n % #ids + 1
  return wrk.format("GET", path .. ids[n], c.headers(nil))
end

function response(status, headers, body)
  c.check(status == 200, status, body)
  bad_answers = c.bad
  bad_sample = c.sample
end
