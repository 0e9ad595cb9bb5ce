#!/usr/bin/env bash
# What the limits held in PostgreSQL cost (issue 26 item 6, decisions §12): failed authentications and balance
# lookups, each counted in a bucket every instance shares (a transaction on rate_limit_buckets), against the same
# requests on a jar whose buckets are in memory (the commit before: BENCH_BASELINE_JAR), in one run on this machine's
# PostgreSQL. See docs/PERFORMANCE.md, "Limits across instances: what a failed authentication costs".
#
#   bench/limits.sh [label]          # about 3 minutes (5 on a busy machine: each start takes a while)
#
# For each jar (BENCH_JAR: the service as built, buckets in PostgreSQL; then BENCH_BASELINE_JAR: buckets in memory):
# a fresh database, the packaged service with its failed-authentication, balance-lookup and per-key limits raised to
# 1 000 000/s (so every request is counted and none refused: the cost of counting), a warm-up (BENCH_LIMITS_WARMUP,
# 12 s: a third each of the three requests below, as fast as they go), then each request at BENCH_LIMITS_RATE (100/s,
# paced: the same work for both jars, so CPU per request compares) for BENCH_LIMITS_DURATION (10 s) over
# BENCH_LIMITS_CONNECTIONS (16), and last the failed authentications as fast as they go (the most one address gets):
#   failed-auth    GET /collect/redemptions with a well-formed key that does not exist: 401 (bench/failed-auth.lua)
#   lookup         POST /stored_value/lookup of a sandbox token with a balance, a fresh Idempotency-Key each: 200
#   authenticated  GET /collect/redemptions?limit=1 with the valid key: 200, the control (no limit in PostgreSQL)
# All from 127.0.0.1, with one key: one bucket each, the case of one attacker (every count waits for the row's lock).
# summary.md gives each run's rate, latency and CPU per request (service, PostgreSQL) for both jars, and the ratios
# shared ÷ memory.
#
# BENCH_BASELINE_JAR is required; build it from the commit before issue 26 item 6, e.g.
#   git archive a0773d9 | tar -x -C /tmp/base && (cd /tmp/base && ./mvnw -q -DskipTests package)
# Other settings: BENCH_JAR (target/tender.jar), BENCH_DB_POOL (8), BENCH_PORT (8099, management one above),
# BENCH_DB (tender_limits), BENCH_JAVA, BENCH_JAVA_OPTS, BENCH_RESULTS (bench/results).
# Results: bench/results/<time>-limits[-label]/. A PostgreSQL cluster this script started is stopped at the end.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$BENCH_DIR")"
LABEL="${1:-}"
DURATION="${BENCH_LIMITS_DURATION:-10}"
WARMUP="${BENCH_LIMITS_WARMUP:-12}"
RATE="${BENCH_LIMITS_RATE:-100}"
CONNECTIONS="${BENCH_LIMITS_CONNECTIONS:-16}"
DB_POOL="${BENCH_DB_POOL:-8}"
PORT="${BENCH_PORT:-8099}"
DB="${BENCH_DB:-tender_limits}"
BASELINE_JAR="${BENCH_BASELINE_JAR:?set BENCH_BASELINE_JAR to a jar whose limits are in memory (see the header)}"
API_KEY=sk_test_bench0000000000000000000000000000
BAD_KEY=sk_test_wrong0000000000000000000000000000
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${BENCH_RESULTS:-$BENCH_DIR/results}/$STAMP-limits${LABEL:+-$LABEL}"
RAW="$OUT/raw"
mkdir -p "$RAW"
cut -d' ' -f1-3 /proc/loadavg >"$RAW/loadavg-start.txt"
# shellcheck source=bench/common.sh
. "$BENCH_DIR/common.sh"

bench_tools curl wrk
bench_cluster
bench_java
bench_jar

trap bench_cleanup EXIT
# Every limit raised to 1 000 000/s: every request is counted and none refused (the cost of counting).
RAISED_LIMITS=(TENDER_RATE_LIMITS_FAILED_AUTHENTICATIONS_PER_SECOND=1000000
  TENDER_RATE_LIMITS_FAILED_AUTHENTICATIONS_BURST=1000000 TENDER_RATE_LIMITS_BALANCE_LOOKUPS_PER_SECOND=1000000
  TENDER_RATE_LIMITS_BALANCE_LOOKUPS_BURST=1000000 TENDER_RATE_LIMITS_PER_KEY_PER_SECOND=1000000
  TENDER_RATE_LIMITS_PER_KEY_BURST=1000000)

RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
# run_wrk JAR_NAME NAME SCRIPT SECONDS RATE [record]: one wrk run (RATE 0: as fast as it goes); with "record", its JSON
# line goes to results.jsonl.
run_wrk() {
  local jar=$1 name=$2 script=$3 seconds=$4 rate=$5 record=${6:-} raw="$RAW/$1-$2-$4s-r$5.txt" line
  local wal0 wal requests
  wal0="$(psql_bench -d "$DB" -c "select pg_current_wal_lsn()")"
  cpu_start
  BENCH_DIR="$BENCH_DIR" BENCH_API_KEY="$API_KEY" BENCH_BAD_KEY="$BAD_KEY" BENCH_NONCE="$RANDOM$RANDOM" BENCH_RATE="$rate" \
    wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s -s "$BENCH_DIR/$script" "http://127.0.0.1:$PORT" >"$raw" 2>&1
  line="$(grep '^{' "$raw" | tail -1)"
  requests="$(jq -r .requests <<<"$line")"
  # WAL written per request: exact whatever else the machine does (the cluster serves this benchmark alone).
  wal="$(psql_bench -d "$DB" -c "select round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal0') / greatest($requests, 1))")"
  line="${line%\}},\"jar\":\"$jar\",\"name\":\"$name\",\"level\":$CONNECTIONS,\"wal_bytes\":$wal,$(cpu_end "$requests")}"
  [[ -z "$record" ]] || echo "$line" >>"$RESULTS"
  log "$jar $name: $(jq -r '"\(.rps) req/s, p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, service \(.svc_cpu_ms) ms CPU, PostgreSQL \(.pg_cpu_ms) ms CPU, WAL \(.wal_bytes) B, errors \(.errors)"' <<<"$line")"
}

for jar in shared memory; do
  if [[ "$jar" == shared ]]; then path="$JAR"; else path="$BASELINE_JAR"; fi
  log "$jar: $path"
  start_service "$jar" "$path" "${RAISED_LIMITS[@]}"
  if [[ "$jar" == shared ]]; then
    psql_bench -d "$DB" -c "select count(*) from rate_limit_buckets" >/dev/null \
      || { echo "$path has no rate_limit_buckets table: not the jar with the shared limits" >&2; exit 1; }
  fi
  for request in authenticated failed-auth lookup; do
    run_wrk "$jar" "warmup-$request" "$request.lua" "$(( (WARMUP + 2) / 3 ))" 0
  done
  for request in failed-auth lookup authenticated; do
    run_wrk "$jar" "$request" "$request.lua" "$DURATION" "$RATE" record
  done
  run_wrk "$jar" failed-auth-max failed-auth.lua "$DURATION" 0 record
  if [[ "$jar" == shared ]]; then
    psql_bench -d "$DB" -c "select id, length(state) as state_bytes from rate_limit_buckets order by id" >"$RAW/rate-limit-buckets.txt"
  fi
  stop_service
done

{
  machine_lines "$DB"
  echo "jar (shared): $JAR"
  echo "jar (memory): $BASELINE_JAR"
  echo "connections: $CONNECTIONS, warm-up ${WARMUP} s, runs ${DURATION} s at $RATE/s (failed-auth-max: unpaced), pool $DB_POOL"
  echo "load average at start: $(cat "$RAW/loadavg-start.txt")"
} >"$OUT/machine.txt"

jq -rs '
  def row(j; n): map(select(.jar == j and .name == n))[0];
  def f(x): (x * 100 | round) / 100;
  "| Request | Buckets | Requests/s | p50 ms | p99 ms | Service CPU ms/request | PostgreSQL CPU ms/request | WAL bytes/request | Other load % |",
  "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  (["failed-auth", "lookup", "authenticated", "failed-auth-max"][] as $n | ["shared", "memory"][] as $j | row($j; $n) |
    "| \(.name) | \(if .jar == "shared" then "PostgreSQL" else "memory" end) | \(f(.rps)) | \(.p50_ms) | \(.p99_ms) | \(.svc_cpu_ms) | \(.pg_cpu_ms) | \(.wal_bytes) | \(.other_load_pct) |"),
  "",
  "| Request | Requests/s shared ÷ memory | p50 shared ÷ memory | CPU per request (service + PostgreSQL) shared ÷ memory | Extra CPU ms per request |",
  "|---|---:|---:|---:|---:|",
  (["failed-auth", "lookup", "authenticated", "failed-auth-max"][] as $n | row("shared"; $n) as $s | row("memory"; $n) as $m |
    "| \($n) | \(f($s.rps / $m.rps)) | \(f($s.p50_ms / $m.p50_ms)) | \(f(($s.svc_cpu_ms + $s.pg_cpu_ms) / ($m.svc_cpu_ms + $m.pg_cpu_ms))) | \(f($s.svc_cpu_ms + $s.pg_cpu_ms - $m.svc_cpu_ms - $m.pg_cpu_ms)) |")
' "$RESULTS" >"$OUT/summary.md"
errors="$(jq -s 'map(.errors) | add' "$RESULTS")"
echo "" >>"$OUT/summary.md"
echo "Errors (wrong answers and socket errors) over all recorded runs: $errors" >>"$OUT/summary.md"
cat "$OUT/summary.md"
