#!/usr/bin/env bash
# What rendering a redemption create through the API version layer costs (issue 35, decisions §15): redemptions have
# no version change, so in every version the layer must do no transformation (nothing parsed or written again) and
# cost nothing beyond the noise. See docs/PERFORMANCE.md, "API versions: what the version layer costs a redemption".
#
#   bench/versions.sh [label]          # about 6 minutes with a baseline jar (9 on a busy machine); 4 without
#
# One service (BENCH_JAR: the jar with versions), after a warm-up (BENCH_VERSIONS_WARMUP, 60 s of creates), runs
# POST /collect/redemptions at BENCH_VERSIONS_CONNECTIONS (16) for BENCH_VERSIONS_DURATION (15 s) in three variants,
# interleaved round by round (BENCH_VERSIONS_ROUNDS, 3), so that the machine's drift falls on all three alike:
#   pinned   no Tender-Version: the merchant's pinned version, the newest (the layer's newest-version fast path)
#   oldest   Tender-Version: 2026-03-13: the layer chooses the oldest version, asks whether any change touches
#            /collect/redemptions (none does) and passes the body and the answer on untouched
#   newest   Tender-Version: 2026-06-01: the header read and checked, nothing else
# With BENCH_BASELINE_JAR (the commit before versions, e.g. `git archive 89dca6f | tar -x -C /tmp/base && (cd /tmp/base
# && ./mvnw -q -DskipTests package)`), a second service runs the same creates without the layer (baseline), as many
# rounds. summary.md gives each variant's median creates/s, p50/p99 latency and service CPU per create, and the ratios
# oldest ÷ pinned and newest ÷ pinned (one process, interleaved: the layer's cost per request) and pinned ÷ baseline
# (two processes one after the other: the layer's presence, within the noise of separate starts).
# Other settings: BENCH_DB_POOL (8), BENCH_PORT (8099, management one above), BENCH_DB (tender_versions), BENCH_JAVA,
# BENCH_JAVA_OPTS, BENCH_RESULTS (bench/results). Results: bench/results/<time>-versions[-label]/.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$BENCH_DIR")"
LABEL="${1:-}"
DURATION="${BENCH_VERSIONS_DURATION:-15}"
WARMUP="${BENCH_VERSIONS_WARMUP:-60}"
ROUNDS="${BENCH_VERSIONS_ROUNDS:-3}"
CONNECTIONS="${BENCH_VERSIONS_CONNECTIONS:-16}"
DB_POOL="${BENCH_DB_POOL:-8}"
PORT="${BENCH_PORT:-8099}"
DB="${BENCH_DB:-tender_versions}"
BASELINE_JAR="${BENCH_BASELINE_JAR:-}"
API_KEY=sk_test_bench0000000000000000000000000000
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${BENCH_RESULTS:-$BENCH_DIR/results}/$STAMP-versions${LABEL:+-$LABEL}"
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
# The per-key limit raised: the benchmark measures creates, not that limit.
RAISED_LIMITS=(TENDER_RATE_LIMITS_PER_KEY_PER_SECOND=1000000 TENDER_RATE_LIMITS_PER_KEY_BURST=1000000)

RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
# run_creates VARIANT ROUND SECONDS NONCE [record]: creates as fast as they go, in VARIANT's version header; with
# "record", the JSON line goes to results.jsonl. Each run's vouchers are its own (a 6-digit nonce): vouchers are single use.
run_creates() {
  local variant=$1 round=$2 seconds=$3 nonce=$4 record=${5:-} version="" raw line requests
  case "$variant" in
    oldest) version=2026-03-13 ;;
    newest) version=2026-06-01 ;;
  esac
  raw="$RAW/$variant-$round-${seconds}s.txt"
  cpu_start
  BENCH_DIR="$BENCH_DIR" BENCH_API_KEY="$API_KEY" BENCH_NONCE="$nonce" BENCH_TENDER_VERSION="$version" \
    wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s -s "$BENCH_DIR/create.lua" "http://127.0.0.1:$PORT" \
    >"$raw" 2>&1
  line="$(grep '^{' "$raw" | tail -1)"
  requests="$(jq -r .requests <<<"$line")"
  line="${line%\}},\"variant\":\"$variant\",\"round\":$round,\"level\":$CONNECTIONS,$(cpu_end "$requests")}"
  [[ -z "$record" ]] || echo "$line" >>"$RESULTS"
  log "$variant round $round: $(jq -r '"\(.rps) creates/s, p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, service \(.svc_cpu_ms) ms CPU, errors \(.errors)"' <<<"$line")"
}

# One answer of each variant, checked: a 201 whose Tender-Version is the version the variant asks for (or the pin).
check_variant() {
  local variant=$1 version=$2 expected=$3 pin headers
  pin="$(printf '79%013d7' "$RANDOM")"
  headers="$(curl -s -D - -o /dev/null -X POST "http://127.0.0.1:$PORT/collect/redemptions" \
    -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' -H "Idempotency-Key: check-$variant-$pin" \
    ${version:+-H "Tender-Version: $version"} -d "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"$pin\"}}")"
  grep -q '^HTTP/1.1 201' <<<"$headers" || { echo "$variant: the create was not a 201" >&2; echo "$headers" >&2; exit 1; }
  grep -qi "^tender-version: $expected" <<<"$headers" \
    || { echo "$variant: the answer is not in $expected" >&2; echo "$headers" >&2; exit 1; }
}

log "versions: $JAR"
start_service versions "$JAR" "${RAISED_LIMITS[@]}"
check_variant pinned "" 2026-06-01
check_variant oldest 2026-03-13 2026-03-13
check_variant newest 2026-06-01 2026-06-01
run_creates pinned 0 "$WARMUP" 900000
for round in $(seq "$ROUNDS"); do
  run_creates pinned "$round" "$DURATION" "$(printf '%06d' $((200000 + 10 * round + 1)))" record
  run_creates oldest "$round" "$DURATION" "$(printf '%06d' $((200000 + 10 * round + 2)))" record
  run_creates newest "$round" "$DURATION" "$(printf '%06d' $((200000 + 10 * round + 3)))" record
done
stop_service

if [[ -n "$BASELINE_JAR" ]]; then
  log "baseline: $BASELINE_JAR"
  start_service baseline "$BASELINE_JAR" "${RAISED_LIMITS[@]}"
  run_creates baseline 0 "$WARMUP" 900000
  for round in $(seq "$ROUNDS"); do
    run_creates baseline "$round" "$DURATION" "$(printf '%06d' $((300000 + 10 * round)))" record
  done
  stop_service
fi

{
  machine_lines "$DB"
  echo "jar (versions): $JAR"
  echo "jar (baseline): ${BASELINE_JAR:-none}"
  echo "connections: $CONNECTIONS, warm-up ${WARMUP} s, $ROUNDS rounds of ${DURATION} s per variant, pool $DB_POOL"
  echo "load average at start: $(cat "$RAW/loadavg-start.txt"), at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/machine.txt"

jq -rs '
  def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def f(x): if x == null then "–" else (x * 100 | round) / 100 end;
  def of(v; k): map(select(.variant == v) | .[k]) | median;
  . as $all |
  "| Variant | Rounds | Creates/s (median) | p50 ms | p99 ms | Service CPU ms/create | Other load % |",
  "|---|---:|---:|---:|---:|---:|---:|",
  (["pinned", "oldest", "newest", "baseline"][] as $v | ($all | map(select(.variant == $v)) | length) as $n |
    select($n > 0) |
    "| \($v) | \($n) | \(f($all | of($v; "rps"))) | \(f($all | of($v; "p50_ms"))) | \(f($all | of($v; "p99_ms"))) | \(f($all | of($v; "svc_cpu_ms"))) | \(f($all | of($v; "other_load_pct"))) |"),
  "",
  "| Ratio | Creates/s | Service CPU per create |",
  "|---|---:|---:|",
  (["oldest", "newest", "baseline"][] as $v | select(($all | map(select(.variant == $v)) | length) > 0) |
    (if $v == "baseline" then ["pinned", "baseline"] else [$v, "pinned"] end) as $pair |
    "| \($pair[0]) ÷ \($pair[1]) | \(f(($all | of($pair[0]; "rps")) / ($all | of($pair[1]; "rps")))) | \(f(($all | of($pair[0]; "svc_cpu_ms")) / ($all | of($pair[1]; "svc_cpu_ms")))) |"),
  "",
  "Per round (creates/s): " + ([$all[] | "\(.variant) \(.round): \(.rps)"] | join(", "))
' "$RESULTS" >"$OUT/summary.md"
errors="$(jq -s 'map(.errors) | add' "$RESULTS")"
echo "" >>"$OUT/summary.md"
echo "Errors (wrong answers and socket errors) over all recorded runs: $errors" >>"$OUT/summary.md"
cat "$OUT/summary.md"
