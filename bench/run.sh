#!/usr/bin/env bash
# Redemption throughput benchmark: the packaged service against this machine's PostgreSQL, driven by wrk, next to
# the ceiling (pgbench running the same statements and commits per redemption) and the minimal ceiling (the least a
# redemption must write, frozen); then replay, retrieve, Collect's payment sessions (each next to its own ceiling) and
# latency at half load. See docs/PERFORMANCE.md.
#
#   bench/run.sh [label]
#
# Settings (environment): BENCH_LEVELS ("1 4 16 64"), BENCH_DURATION (20 s per run), BENCH_REPEATS (3 rounds of
# service and ceiling per level), BENCH_WARMUP (120 s: on 2 busy
# cores the JIT needs that long before the service's CPU per request settles), BENCH_HALF_DURATION (60 s: the run at half the maximum throughput, whose
# p99 needs many samples), BENCH_DB_POOL (8: the service's TENDER_DB_POOL_SIZE, see docs/PERFORMANCE.md),
# BENCH_CREATES_ONLY (set: only the create runs, e.g. while profiling), BENCH_CAPTURE_SQL (set: log every statement
# of one create, one payment session create and one retrieve, and stop: how the ceilings are derived), BENCH_JAR (target/tender.jar), BENCH_RESULTS (bench/results),
# BENCH_PORT (8099; its management port, for health, is BENCH_PORT + 1), BENCH_DB and BENCH_CEILING_DB (tender_bench,
# tender_ceiling: other names let two runs share the cluster, e.g. a smoke test), BENCH_JAVA_OPTS (extra JVM options, e.g. a JFR recording), BENCH_JAVA (java binary; default: the
# newest JDK under /usr/lib/jvm), BENCH_CEILING_SQL (bench/ceiling.sql), BENCH_HALF_RATE (the paced run's rate instead
# of half the best creates/s; with BENCH_LEVELS="" it studies that run alone), BENCH_SERVICE_CMD (a command that starts
# the service instead of `java -jar BENCH_JAR`, e.g. target/tender-launch/bin/tender: it gets the same environment,
# BENCH_JAVA_OPTS as JAVA_TOOL_OPTIONS and JAVA_HOME of BENCH_JAVA), BENCH_COLD (set: the cold start, see below),
# BENCH_COUNT_ROUNDTRIPS (set: count the database round trips per create first, see below), BENCH_COLLECT_DURATION
# (10 s: each of Collect's four runs, a payment session's create and retrieve and their ceilings).
#
# BENCH_COLD=1: from the service's start, the time to its first successful create, then creates at 16 connections for
# 60 s counted in six 10 s windows (BENCH_COLD_WINDOWS, BENCH_COLD_WINDOW), then the warm-up continued until BENCH_WARMUP
# seconds of load in all, then the steady rate (BENCH_LEVELS, default 16, creates only); the summary gives each
# window's creates/s and its ratio to the steady rate. About 4 minutes.
# BENCH_COUNT_ROUNDTRIPS=1: tcpdump records the service's PostgreSQL traffic from its start; BENCH_ROUNDTRIP_CREATES
# (50) sequential creates after as many unmeasured ones (prepared statements, type lookups) are counted by
# bench/roundtrips.py (request path and the outbox relay's work per create; BENCH_RELAY_SQL and BENCH_PERIODIC_SQL
# override its regular expressions), then the run goes on as usual.
# Results: bench/results/<time>[-label]/.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$BENCH_DIR")"
LABEL="${1:-}"
COLD="${BENCH_COLD:-}"
COUNT_ROUNDTRIPS="${BENCH_COUNT_ROUNDTRIPS:-}"
if [[ -n "$COLD" && -n "$COUNT_ROUNDTRIPS" ]]; then
  echo "BENCH_COLD and BENCH_COUNT_ROUNDTRIPS do not mix: the count's creates would warm the cold start" >&2
  exit 2
fi
if [[ -n "$COLD" ]]; then LEVELS="${BENCH_LEVELS-16}"; else LEVELS="${BENCH_LEVELS-1 4 16 64}"; fi
# The cold start measures creates only: its steady rate is the create run's.
CREATES_ONLY="${BENCH_CREATES_ONLY:-$COLD}"
if [[ -z "$LEVELS" && -z "${BENCH_HALF_RATE:-}" ]]; then
  echo "BENCH_LEVELS=\"\" needs BENCH_HALF_RATE: with no levels there is no maximum to take half of" >&2
  exit 2
fi
DURATION="${BENCH_DURATION:-20}"
WARMUP="${BENCH_WARMUP:-120}"
HALF_DURATION="${BENCH_HALF_DURATION:-60}"
COLLECT_DURATION="${BENCH_COLLECT_DURATION:-10}"
DB_POOL="${BENCH_DB_POOL:-8}"
REPEATS="${BENCH_REPEATS:-3}"
PORT="${BENCH_PORT:-8099}"
MANAGEMENT_PORT=$((PORT + 1))
CEILING_SQL="${BENCH_CEILING_SQL:-$BENCH_DIR/ceiling.sql}"
MINIMAL_SQL="$BENCH_DIR/ceiling-minimal.sql"
DB="${BENCH_DB:-tender_bench}"
CEILING_DB="${BENCH_CEILING_DB:-tender_ceiling}"
API_KEY=sk_test_bench0000000000000000000000000000
# The service refuses an external database without a master key. The database is new each run, so a new key is too.
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${BENCH_RESULTS:-$BENCH_DIR/results}/$STAMP${LABEL:+-$LABEL}"
RAW="$OUT/raw"
mkdir -p "$RAW"
export BENCH_DIR BENCH_API_KEY="$API_KEY"
# shellcheck source=bench/common.sh
. "$BENCH_DIR/common.sh"

# --- Tools: PostgreSQL, wrk, jq (Debian packages), a JDK that runs the jar, the jar itself. ---------------------
bench_tools wrk $([[ -z "$COUNT_ROUNDTRIPS" ]] || echo tcpdump)
bench_cluster
bench_java
bench_jar

PG_SETTINGS="${BENCH_PG_SETTINGS:-}"
# Some settings (shared_buffers) take effect only when the server restarts, so it restarts for any of them.
apply_pg_settings() {
  log "restarting PostgreSQL for BENCH_PG_SETTINGS"
  pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" restart
}
reset_pg_settings() {
  local setting
  for setting in $PG_SETTINGS; do psql_admin -c "\"alter system reset ${setting%%=*}\""; done
  [[ -z "$PG_SETTINGS" ]] || apply_pg_settings
}
if [[ -n "$PG_SETTINGS" ]]; then
  trap reset_pg_settings EXIT
  for setting in $PG_SETTINGS; do psql_admin -c "\"alter system set ${setting%%=*} = '${setting#*=}'\""; done
  apply_pg_settings
fi
# Commits that waited for the disk: during the runs at half load PostgreSQL logs every statement over 20 ms, and each
# of those runs records how many of its database's COMMITs that was, and the slowest (a stall of the disk shows here).
slow_log() {
  if [[ "$1" == on ]]; then psql_admin -c "\"alter system set log_min_duration_statement = '20ms'\"";
  else psql_admin -c "\"alter system reset log_min_duration_statement\""; fi
  psql_admin -c "\"select pg_reload_conf()\"" >/dev/null
}
pg_log_lines() { wc -l <"$PG_LOG"; }
# slow_commits DATABASE FROM_LINE: JSON members for the COMMITs of DATABASE over 20 ms logged after line FROM_LINE.
slow_commits() {
  tail -n +"$(($2 + 1))" "$PG_LOG" | grep -E "@$1 LOG:  duration: [0-9.]+ ms  (execute [^:]*|statement): COMMIT" \
    | sed -E 's/.*duration: ([0-9.]+) ms.*/\1/' | sort -n \
    | awk '{n++; m = $1} END {printf "\"slow_commits\":%d,\"slowest_commit_ms\":%.1f", n, m + 0}'
}

# --- Fresh databases: the service's, and the ceiling's (same schema, empty). -------------------------------------
log "recreating databases $DB and $CEILING_DB"
recreate_databases "$DB" "$CEILING_DB"
if [[ -n "${BENCH_CAPTURE_SQL:-}" ]]; then
  psql_admin -c "\"alter database $DB set log_statement = 'all'\""
fi

peak_rss_mib() { awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$SERVICE_PID/status"; }

# --- The disk alone (PostgreSQL idle): how long a small synchronous write takes, and how often it stalls. ------------
log "disk: 20 s of 8 kB writes with fdatasync in $CLUSTER_DATA"
python3 "$BENCH_DIR/disk-stalls.py" 20 "$CLUSTER_DATA" >"$RAW/disk-stalls.txt"

# --- The service. ------------------------------------------------------------------------------------------------
SERVICE_LOG="$RAW/service.log"
# The one key sends replays (~3 500/s) and retrieves (~6 000/s) faster than the per-key rate limit's default of
# 1 000/s allows (creates, at most ~700/s, stay under it): the benchmark measures the service, not that limit.
SERVICE_ENV=(SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$CLUSTER_PORT/$DB" SPRING_DATASOURCE_USERNAME="$DB_USER"
  SPRING_DATASOURCE_PASSWORD="$DB_PASSWORD" TENDER_BOOTSTRAP_KEYS="bench:$API_KEY"
  TENDER_MASTER_KEY="$MASTER_KEY" MANAGEMENT_SERVER_PORT="$MANAGEMENT_PORT"
  TENDER_RATE_LIMITS_PER_KEY_PER_SECOND=1000000 TENDER_RATE_LIMITS_PER_KEY_BURST=1000000
  TENDER_DATA_DIR="$OUT/service-data" SERVER_PORT="$PORT" TENDER_DB_POOL_SIZE="$DB_POOL")
if [[ -n "$COUNT_ROUNDTRIPS" ]]; then
  # From before the service connects: a Bind names its statement, and only the connection's Parse says which SQL it is.
  tcpdump -i lo -n -s 0 -B 16384 -U -w "$RAW/roundtrips.pcap" "tcp port $CLUSTER_PORT" 2>"$RAW/tcpdump.txt" &
  TCPDUMP_PID=$!
  sleep 1
fi
START_NS="$(date +%s%N)"
if [[ -n "$SERVICE_CMD" ]]; then
  log "starting $SERVICE_CMD (JAVA_HOME $(dirname "$(dirname "$JAVA")"), JAVA_TOOL_OPTIONS ${BENCH_JAVA_OPTS:-none})"
  # exec: the command's process is the one whose CPU is counted (a launcher that execs java keeps it).
  env "${SERVICE_ENV[@]}" JAVA_HOME="$(dirname "$(dirname "$JAVA")")" ${BENCH_JAVA_OPTS:+JAVA_TOOL_OPTIONS="$BENCH_JAVA_OPTS"} \
    bash -c "exec $SERVICE_CMD" >"$SERVICE_LOG" 2>&1 &
else
  log "starting $JAR with $JAVA ${BENCH_JAVA_OPTS:-}"
  # shellcheck disable=SC2086
  env "${SERVICE_ENV[@]}" "$JAVA" ${BENCH_JAVA_OPTS:-} -jar "$JAR" >"$SERVICE_LOG" 2>&1 &
fi
SERVICE_PID=$!
stop_service() {
  if kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID"; wait "$SERVICE_PID" 2>/dev/null || true
  fi
  rm -rf "$OUT/service-data"
}
trap 'stop_service; slow_log off; reset_pg_settings' EXIT
# one_create KEY PIN: one create; succeeds when the answer is 201.
one_create() {
  [[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/collect/redemptions" \
    -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' -H "Idempotency-Key: $1" \
    -d "{\"type\":\"vouchers.one_voucher\",\"source\":{\"pin\":\"$2\"}}")" == 201 ]]
}
if [[ -n "$COLD" ]]; then
  # The cold start: a create every 50 ms until one succeeds; the time from the service's start to that answer. Each
  # try has its own key and voucher (a try that reached a half-started service must not block the next). Vouchers:
  # 16 digits = the 6-digit nonce of create.lua's runs, 9 of counter, 7; these (73…, 71…, 72…) are nonces no run uses.
  first=""
  for i in $(seq 4800); do
    if one_create "cold-first-$i" "$(printf '73%013d7' "$i")"; then first=$i; break; fi
    kill -0 "$SERVICE_PID" 2>/dev/null || { tail -30 "$SERVICE_LOG" >&2; exit 1; }
    sleep 0.05
  done
  [[ -n "$first" ]] || { echo "no successful create in 4800 tries (over 4 minutes)" >&2; exit 1; }
  FIRST_CREATE_MS=$(( ($(date +%s%N) - START_NS) / 1000000 ))
  log "first successful create ${FIRST_CREATE_MS} ms after the start"
else
  for _ in $(seq 120); do
    curl -fs "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health" >/dev/null 2>&1 && break
    kill -0 "$SERVICE_PID" 2>/dev/null || { tail -30 "$SERVICE_LOG" >&2; exit 1; }
    sleep 1
  done
  curl -fs "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health" >/dev/null
fi
# A launcher that runs java as a child instead of exec-ing it: count the java process's CPU.
if [[ "$(cat "/proc/$SERVICE_PID/comm" 2>/dev/null)" != java ]]; then
  java_pid="$(pgrep -n -P "$SERVICE_PID" java || true)"
  [[ -z "$java_pid" ]] || SERVICE_PID="$java_pid"
fi

if [[ -n "$COUNT_ROUNDTRIPS" ]]; then
  rt_creates="${BENCH_ROUNDTRIP_CREATES:-50}"
  log "round trips: $rt_creates creates to prime, $rt_creates counted"
  for i in $(seq "$rt_creates"); do one_create "rt-prime-$i" "$(printf '71%013d7' "$i")" || log "prime create $i failed"; done
  sleep 2
  rt_from="$(date +%s.%N)"
  for i in $(seq "$rt_creates"); do one_create "rt-count-$i" "$(printf '72%013d7' "$i")" || log "counted create $i failed"; done
  sleep 2   # the relay's work for the last creates
  rt_to="$(date +%s.%N)"
  sleep 1
  kill "$TCPDUMP_PID"; wait "$TCPDUMP_PID" 2>/dev/null || true
  python3 "$BENCH_DIR/roundtrips.py" "$RAW/roundtrips.pcap" "$CLUSTER_PORT" "$DB" "$rt_from" "$rt_to" "$rt_creates" \
    "${BENCH_RELAY_SQL:-}" "${BENCH_PERIODIC_SQL:-}" >"$RAW/roundtrips.txt"
  rm -f "$RAW/roundtrips.pcap"
  head -1 "$RAW/roundtrips.txt" >&2
fi

if [[ -n "${BENCH_CAPTURE_SQL:-}" ]]; then
  # Derive the ceilings: one request at a time with every statement logged; prints what each of the service's
  # connections ran (raw/<name>.txt: first lines; raw/<name>-full.txt: whole statements with their parameters).
  sleep 2
  capture() {
    local name=$1 from; shift
    from=$(($(wc -l <"$PG_LOG") + 1))
    curl -fsS "$@" -H "Authorization: Bearer $API_KEY" >"$RAW/$name-answer.json"
    sleep 2
    tail -n +"$from" "$PG_LOG" | awk -v tag="$DB_USER@$DB " 'index($0, tag) {keep = 1; print; next} /^[0-9]{4}-[0-9]{2}-[0-9]{2} / {keep = 0} keep' >"$RAW/$name-full.txt"
    echo "== $name" >&2
    grep -E "$DB_USER@$DB (LOG|DETAIL)" "$RAW/$name-full.txt" \
      | sed -E 's/^.* \[([0-9]+)\] [^ ]+ LOG:  (statement|execute [^:]*): /[\1] /' | grep -v 'DETAIL' \
      | tee "$RAW/$name.txt"
  }
  capture statements -X POST "http://127.0.0.1:$PORT/collect/redemptions" -H 'Content-Type: application/json' \
    -H 'Idempotency-Key: capture-1' -d '{"type":"vouchers.one_voucher","source":{"pin":"1000000000000007"}}'
  # The payment session's create (the body of bench/session-create.lua) and retrieve.
  capture session-create-statements -X POST "http://127.0.0.1:$PORT/collect/payment_sessions" \
    -H 'Content-Type: application/json' -H 'Idempotency-Key: capture-2' -d '{"amount":15000,"currency":"ZAR"}'
  capture session-get-statements "http://127.0.0.1:$PORT/collect/payment_sessions/$(jq -r .id "$RAW/session-create-statements-answer.json")"
  psql_admin -c "\"alter database $DB reset log_statement\""
  exit 0
fi

# The ceiling's database gets the service's schema (Flyway has run by now), no rows.
su postgres -c "pg_dump -p $CLUSTER_PORT --schema-only $DB" | su postgres -c "psql -X -q -p $CLUSTER_PORT -d $CEILING_DB" >/dev/null

RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
[[ -z "$COUNT_ROUNDTRIPS" ]] || tail -1 "$RAW/roundtrips.txt" >>"$RESULTS"
# run NAME LEVEL SCRIPT [env...]: one wrk run; appends its JSON line (with CPU and RSS) to results.jsonl.
run_wrk() {
  local name=$1 level=$2 script=$3; shift 3
  local raw="$RAW/$name-c$level.txt" line
  cpu_start
  env "$@" wrk -t1 -c"$level" -d"${RUN_DURATION:-$DURATION}s" --timeout 10s -s "$BENCH_DIR/$script" "http://127.0.0.1:$PORT" >"$raw" 2>&1
  line="$(grep '^{' "$raw" | tail -1)"
  line="${line%\}},\"name\":\"$name\",\"level\":$level,\"round\":${ROUND:-0},$(cpu_end "$(jq -r .requests <<<"$line")"),\"peak_rss_mib\":$(peak_rss_mib)}"
  echo "$line" >>"$RESULTS"
  log "$name c=$level${ROUND:+ (round $ROUND)}: $(jq -r '"\(.rps) req/s, p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, errors \(.errors)"' <<<"$line")"
}
# run_ceiling LEVEL [NAME [SCRIPT]]: one pgbench run of SCRIPT (default: the ceiling of the service's own SQL).
run_ceiling() {
  local level=$1 name=${2:-ceiling} script=${3:-$CEILING_SQL} raw="$RAW/${2:-ceiling}-c$1.txt" tps lat
  cpu_start
  # shellcheck disable=SC2086
  "$PGBENCH" -h 127.0.0.1 -p "$CLUSTER_PORT" -U "$DB_USER" -n -M prepared -c "$level" -j 1 -T "${RUN_DURATION:-$DURATION}" \
    ${PGBENCH_EXTRA:-} -f "$script" "$CEILING_DB" >"$raw" 2>&1
  tps="$(awk '/^tps = / {print $3}' "$raw")"
  lat="$(awk '/^latency average/ {print $4}' "$raw")"
  local failed; failed="$(awk -F'[ (]+' '/^number of failed transactions/ {print $5}' "$raw")"
  local n; n="$(awk -F'[ /]+' '/^number of transactions actually processed/ {print $6}' "$raw")"
  echo "{\"name\":\"$name\",\"level\":$level,\"round\":${ROUND:-0},\"rps\":$tps,\"mean_ms\":$lat,\"requests\":$n,\"errors\":${failed:-0},$(cpu_end "$n")}" >>"$RESULTS"
  log "$name c=$level${ROUND:+ (round $ROUND)}: $tps transactions/s (one per request)"
}

# --- Warm-up (JIT), then each level: the service, then the ceiling, back to back so both see the same noise. ------
warmup=$WARMUP
if [[ -n "$COLD" ]]; then
  # One wrk run of six windows: create.lua counts the right answers completed in each 10 s window since its first
  # request (BENCH_WINDOW_MS), so the windows are contiguous and each rate is exact. Meanwhile a sampler reads the
  # service's CPU ticks at each window's boundary (aligned with wrk's start, within its few milliseconds of start-up).
  load_start_ns="$(date +%s%N)"
  echo "{\"name\":\"cold-start\",\"first_create_ms\":$FIRST_CREATE_MS,\"started_log_s\":$(grep -oE 'Started [A-Za-z]+ in [0-9.]+ seconds' "$SERVICE_LOG" | grep -oE '[0-9.]+' | head -1 || echo null)}" >>"$RESULTS"
  windows="${BENCH_COLD_WINDOWS:-6}" window_s="${BENCH_COLD_WINDOW:-10}"
  (
    for ((w = 0; w <= windows; w++)); do
      sleep "$(awk -v t="$load_start_ns" -v w="$w" -v l="$window_s" -v n="$(date +%s%N)" 'BEGIN {d = (t + w * l * 1e9 - n) / 1e9; printf "%.3f", (d > 0 ? d : 0)}')"
      echo "$(proc_ticks "$SERVICE_PID")"
    done
  ) >"$RAW/cold-ticks.txt" &
  sampler=$!
  BENCH_NONCE=700000 BENCH_WINDOW_MS=$((window_s * 1000)) wrk -t1 -c16 -d"$((windows * window_s))s" --timeout 10s \
    -s "$BENCH_DIR/create.lua" "http://127.0.0.1:$PORT" >"$RAW/cold-windows.txt" 2>&1
  wait "$sampler" || true
  line="$(grep '^{' "$RAW/cold-windows.txt" | tail -1)"
  echo "${line%\}},\"name\":\"cold-run\",\"level\":16}" >>"$RESULTS"
  mapfile -t ticks <"$RAW/cold-ticks.txt"
  for ((w = 1; w <= windows; w++)); do
    n="$(jq -r ".windows[$((w - 1))] // 0" <<<"$line")"
    echo "{\"name\":\"cold-window\",\"level\":16,\"round\":$w,\"requests\":$n,$(awk -v n="$n" -v l="$window_s" \
      -v t="$load_start_ns" -v st="$START_NS" -v w="$w" -v s0="${ticks[w - 1]}" -v s1="${ticks[w]}" -v tick="$TICK" 'BEGIN {
      printf "\"rps\":%.1f,\"since_start_s\":%.1f,\"svc_cpu_ms\":%.3f", n / l, (t - st) / 1e9 + (w - 1) * l,
        (s1 - s0) * 1000 / tick / (n > 0 ? n : 1) }')}" >>"$RESULTS"
    log "cold window $w: $(tail -1 "$RESULTS" | jq -r '"\(.rps) creates/s from \(.since_start_s) s after the start, service CPU \(.svc_cpu_ms) ms per create"')"
  done
  ROUND=0
  # The warm-up goes on until BENCH_WARMUP seconds of load in all, so the steady rate is the usual warm rate.
  warmup=$(( WARMUP - ($(date +%s%N) - load_start_ns) / 1000000000 ))
fi
if ((warmup > 0)); then
  log "warm-up ${warmup}s at 16 connections"
  BENCH_NONCE=900000 wrk -t1 -c16 -d"${warmup}s" --timeout 10s -s "$BENCH_DIR/create.lua" "http://127.0.0.1:$PORT" >"$RAW/warmup.txt" 2>&1
fi
for level in $LEVELS; do
  # REPEATS rounds of the pair: one 20 s window can catch a disk stall that the next one does not; the summary
  # reports the median of the rounds' ratios.
  for ((ROUND = 0; ROUND < REPEATS; ROUND++)); do
    run_wrk create "$level" create.lua BENCH_NONCE="$(printf '%06d' $((100000 + 100 * ROUND + level)))"
    if [[ -z "$CREATES_ONLY" ]]; then
      run_ceiling "$level"
      # The minimal ceiling (frozen: the least a redemption must write), right after, with as many clients.
      run_ceiling "$level" ceiling-minimal "$MINIMAL_SQL"
    fi
  done
  ROUND=0
  if [[ -z "$CREATES_ONLY" && "$level" -eq 16 && "$DB_POOL" -lt 16 ]]; then
    # For comparison only: PostgreSQL with as many clients as the service has connections.
    run_ceiling "$DB_POOL" ceiling-at-pool-size
  fi
done

# --- The other paths: idempotent replay (keys of the 16-connection create run), retrieve, and latency at half load.
if [[ -z "$CREATES_ONLY" ]]; then
replay_level=16
replay_count="$(jq -s "map(select(.name == \"create\" and .level == $replay_level)) | (.[0].requests // 0) - $replay_level" "$RESULTS")"
if ((replay_count > 0)); then
  run_wrk replay 16 replay.lua BENCH_REPLAY_NONCE="$(printf '%06d' $((100000 + replay_level)))" BENCH_REPLAY_COUNT="$replay_count"
fi
psql_bench -d "$DB" -c "select id from redemptions order by random() limit 20000" >"$RAW/ids.txt"
run_wrk get 16 get.lua BENCH_IDS_FILE="$RAW/ids.txt"
rm -f "$RAW/ids.txt"
# Collect: a payment session's create and its retrieve at 16 connections, each followed by its own ceiling.
export RUN_DURATION="$COLLECT_DURATION"
run_wrk session-create 16 session-create.lua BENCH_NONCE=600016
run_ceiling 16 ceiling-session-create "$BENCH_DIR/ceiling-session-create.sql"
psql_bench -d "$DB" -c "select id from payment_sessions order by random() limit 20000" >"$RAW/ids.txt"
run_wrk session-get 16 get.lua BENCH_IDS_FILE="$RAW/ids.txt" BENCH_GET_PATH=/collect/payment_sessions
rm -f "$RAW/ids.txt"
# The retrieve's ceiling reads the sessions its create's ceiling wrote, renumbered 1..count for pgbench to pick from.
sessions="$(psql_bench -d "$CEILING_DB" -c "update payment_sessions p set id = 'ps_' || lpad(to_hex(b.k), 24, '0')
  from (select id, row_number() over (order by id) as k from payment_sessions) b where p.id = b.id" \
  -c "vacuum analyze payment_sessions" -c "select count(*) from payment_sessions")"
PGBENCH_EXTRA="-D sessions=$sessions" run_ceiling 16 ceiling-session-get "$BENCH_DIR/ceiling-session-get.sql"
unset RUN_DURATION
max_rps="$(jq -s 'map(select(.name == "create")) | group_by(.level) | map(map(.rps) | sort | .[(length - 1) / 2 | floor]) | max // 0' "$RESULTS")"
half="${BENCH_HALF_RATE:-$(awk -v r="$max_rps" 'BEGIN {printf "%d", r / 2}')}"
slow_log on
from="$(pg_log_lines)"
RUN_DURATION="$HALF_DURATION" run_wrk create-at-half-max 64 create.lua BENCH_NONCE=800000 BENCH_RATE="$half"
line="$(tail -1 "$RESULTS" | jq -c ". + {$(slow_commits "$DB" "$from")}")"
sed -i '$d' "$RESULTS"; echo "$line" >>"$RESULTS"
log "  commits over 20 ms: $(jq -r '"\(.slow_commits), the slowest \(.slowest_commit_ms) ms"' <<<"$line")"
from="$(pg_log_lines)"
# The ceiling at the same rate, for its latency: PostgreSQL alone sees the same checkpoints and fsync stalls.
cpu_start
"$PGBENCH" -h 127.0.0.1 -p "$CLUSTER_PORT" -U "$DB_USER" -n -M prepared -c 16 -j 1 -T "$HALF_DURATION" -R "$half" \
  -l --log-prefix="$RAW/ceiling-half" -f "$CEILING_SQL" "$CEILING_DB" >"$RAW/ceiling-at-half-max-c16.txt" 2>&1
# Per-redemption latency from the per-transaction log: total time less the schedule lag (as wrk measures it).
cat "$RAW"/ceiling-half* | awk '{print ($3 - $7) / 1000}' | sort -n >"$RAW/ceiling-half.sorted"
n="$(wc -l <"$RAW/ceiling-half.sorted")"
pct() { sed -n "$(awk -v n="$n" -v p="$1" 'BEGIN {i = int(n * p / 100 + 0.5); print i < 1 ? 1 : i}')p" "$RAW/ceiling-half.sorted"; }
echo "{\"name\":\"ceiling-at-half-max\",\"level\":16,\"rps\":$(awk '/^tps = / {print $3}' "$RAW/ceiling-at-half-max-c16.txt"),\"requests\":$n,\"p50_ms\":$(pct 50),\"p95_ms\":$(pct 95),\"p99_ms\":$(pct 99),\"errors\":0,$(cpu_end "$n"),$(slow_commits "$CEILING_DB" "$from")}" >>"$RESULTS"
slow_log off
log "ceiling at ${half}/s: p99 $(pct 99) ms; commits over 20 ms: $(jq -r '"\(.slow_commits), the slowest \(.slowest_commit_ms) ms"' < <(tail -1 "$RESULTS"))"
rm -f "$RAW"/ceiling-half*
fi

# --- Machine and settings, then the summary. ---------------------------------------------------------------------
FINAL_RSS="$(peak_rss_mib)"
stop_service
{
  echo "date: $STAMP"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- src pom.xml || echo ' (with uncommitted changes)'); $(if [[ -n "$SERVICE_CMD" ]]; then echo "service command: $SERVICE_CMD (its jar is its own, not necessarily this commit's)"; else echo "jar: $JAR"; fi)"
  machine_lines "$DB"
  echo "disk, idle (bench/disk-stalls.py): $(head -1 "$RAW/disk-stalls.txt"); $(sed -n 2p "$RAW/disk-stalls.txt")"
  echo "service settings: TENDER_DB_POOL_SIZE=$DB_POOL (Hikari), everything else as packaged"
  echo "postgresql settings changed for this run: ${PG_SETTINGS:-none}"
  echo "ceiling scripts: bench/$(basename "$CEILING_SQL") (the service's own SQL), bench/$(basename "$MINIMAL_SQL") (minimal, frozen)"
  echo "wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), 1 thread, --timeout 10s; pgbench -M prepared -j 1"
  echo "runs: ${DURATION}s each, ${REPEATS} rounds per level (half-maximum run ${HALF_DURATION}s), warm-up ${WARMUP}s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "service peak RSS: ${FINAL_RSS} MiB"
} >"$OUT/machine.txt"
"$BENCH_DIR/summarize.sh" "$OUT" >"$OUT/summary.md"
cat "$OUT/summary.md"
log "results in $OUT"
reset_pg_settings
trap - EXIT
