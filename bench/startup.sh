#!/usr/bin/env bash
# Time to start: the packaged service started RUNS times (3) in each way, alternating, on one prepared data directory
# (its own embedded PostgreSQL, created by an uncounted first start), each run until its first HTTP 200 on the API,
# then stopped. See docs/PERFORMANCE.md.
#
#   bench/startup.sh [runs] [ways]      ways: "jar extracted cache" (default)
#
#   jar        java -jar target/tender.jar                (the fat jar, as before the AOT cache)
#   extracted  java -jar target/tender/tender.jar         (the extracted jar, no cache: what extraction alone gives)
#   cache      target/tender/bin/tender                   (the launcher: the extracted jar with the training's cache)
#
# Needs `./mvnw -DskipTests package` first (on JDK 24+ for the cache). Prints one line per run: way, ms from launch
# to the first 200 of GET /collect/redemptions, Spring's "Started … in X s" and "process running for Y s", and for the
# first run of each way the share of classes loaded from the cache (-Xlog:class+load, in a run not timed).
# Output and logs in bench/results/<time>-startup/.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-3}"
WAYS="${2:-jar extracted cache}"
JAVA="$(sed -n 's/^java="\(.*\)"$/\1/p' "$ROOT/target/tender/bin/tender")"
PORT="${STARTUP_PORT:-8097}"
MANAGEMENT_PORT=$((PORT + 1))
KEY=sk_test_startup0000000000000000000000000
OUT="$ROOT/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-startup"
DATA="$OUT/data"
mkdir -p "$OUT"
export TENDER_DATA_DIR="$DATA" TENDER_BOOTSTRAP_KEYS="startup:$KEY" SERVER_PORT="$PORT" \
  MANAGEMENT_SERVER_PORT="$MANAGEMENT_PORT"
unset SPRING_DATASOURCE_URL TENDER_MASTER_KEY JAVA_OPTS

# Starts one way (with extra JVM options), waits for the first 200, stops it; prints the milliseconds to that 200.
start_once() {
  local way="$1" log="$2" extra="${3:-}"
  local begin now pid
  begin="$(date +%s%N)"
  case "$way" in
    jar) $JAVA $extra -jar "$ROOT/target/tender.jar" >"$log" 2>&1 & ;;
    extracted) $JAVA $extra -jar "$ROOT/target/tender/tender.jar" >"$log" 2>&1 & ;;
    cache) JAVA_OPTS="$extra" "$ROOT/target/tender/bin/tender" >"$log" 2>&1 & ;;
  esac
  pid=$!
  until curl -fs -o /dev/null -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/collect/redemptions?limit=1"; do
    kill -0 "$pid" 2>/dev/null || { echo "$way exited; see $log" >&2; exit 1; }
    sleep 0.05
  done
  now="$(date +%s%N)"
  kill "$pid"
  wait "$pid" || true
  echo $(((now - begin) / 1000000))
}

# Uncounted: creates the database, runs the migrations.
start_once jar "$OUT/prepare.log" >/dev/null
# Not timed: where each way loads its classes from (the JVM's own log), and the cache's own log lines.
for way in $WAYS; do
  start_once "$way" "$OUT/log-$way-classes.log" \
    "-Xlog:class+load=info:file=$OUT/classes-$way.txt -Xlog:aot*=info,cds=info:file=$OUT/aot-$way.txt" >/dev/null
  total="$(grep -c 'source:' "$OUT/classes-$way.txt" || true)"
  shared="$(grep -c 'source: shared objects file' "$OUT/classes-$way.txt" || true)"
  echo "$way: $shared of $total classes loaded from the CDS/AOT cache" | tee -a "$OUT/summary.txt"
done
for ((run = 1; run <= RUNS; run++)); do
  for way in $WAYS; do
    log="$OUT/log-$way-$run.log"
    ms="$(start_once "$way" "$log")"
    started="$(sed -n 's/.*Started TenderApplication in \([0-9.]*\) seconds (process running for \([0-9.]*\)).*/\1 \2/p' "$log")"
    echo "$way run $run: first 200 after $ms ms; started in / process running for (s): $started" \
      | tee -a "$OUT/summary.txt"
  done
done
rm -rf "$DATA"
echo "results: $OUT"
