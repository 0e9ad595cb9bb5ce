#!/usr/bin/env bash
# Subscriptions falling due at once (issue 24): BENCH_SUBSCRIPTIONS (100 000) subscriptions whose period 1 is due now,
# charged against the sandbox processor by BENCH_INSTANCES (2) instances of the packaged service on this machine's
# PostgreSQL; then PostgreSQL alone doing the same statements for the same periods (pgbench, the ceiling). Reports
# periods charged per second, the ratio to the ceiling, and checks that every period was charged exactly once.
# See docs/PERFORMANCE.md, "Subscriptions: 100,000 periods due at once".
#
#   bench/subscriptions.sh [label]
#
# 1. One instance (scheduler off, the checkout's JSON API on) makes one real subscription through the API: a customer,
#    a first_in_series session with subscription_options (monthly, notice_days 0), paid with 4242 4242 4242 4242 (the
#    sandbox keeps the card as "approve"). It stops, and bench/subscriptions-clone.sql clones that subscription (first
#    payment, mandate, subscription, period 1) to BENCH_SUBSCRIPTIONS, every period 1 due since the start of today.
# 2. The ceiling's database is a copy of that one (same rows, same due periods).
# 3. BENCH_INSTANCES instances start at once with the scheduler on; the run ends when every period 1 is paid. The rate
#    is periods ÷ (the last period-1 payment's update − the first one's creation), from the rows themselves.
# 4. Exactly once (raw/exactly-once.txt): per subscription one payment for period 1, succeeded, the period paid by
#    it, the mandate counted once, and one sandbox ledger entry, under the key <sub id>:1:charge.
# 5. The ceiling: pgbench with BENCH_INSTANCES × BENCH_DB_POOL clients runs bench/ceiling-subscriptions.sql (one batch
#    of BENCH_BATCH periods: the claim, then each charge's processor and finish transactions) over the same periods.
#
# Settings (environment): BENCH_SUBSCRIPTIONS (100000), BENCH_INSTANCES (2), BENCH_DB_POOL (8: each instance's
# TENDER_DB_POOL_SIZE), BENCH_BATCH (50), BENCH_CONCURRENCY (16), BENCH_INTERVAL (PT1S): the scheduler's
# tender.series.scheduler.{batch,concurrency,interval}; BENCH_TIMEOUT (1200 s: the service's run gives up),
# BENCH_CEILING (set: 0 skips the ceiling), BENCH_CEILING_SQL (bench/ceiling-subscriptions.sql; a jar before the
# batched finish: bench/ceiling-subscriptions-per-charge.sql), BENCH_CAPTURE_SQL (set: charge BENCH_CAPTURE_CHARGES (3) periods on one
# instance with every statement logged, print them per connection and stop: how the ceiling is derived),
# BENCH_PG_STATEMENTS (set: pg_stat_statements over the service's run, raw/pg-statements.txt; restarts PostgreSQL
# with the library preloaded, and again afterwards without it), BENCH_JAR, BENCH_SERVICE_CMD, BENCH_JAVA,
# BENCH_JAVA_OPTS, BENCH_PORT (8099: instance i listens on BENCH_PORT + 2i, its management port one above),
# BENCH_DB and BENCH_CEILING_DB (tender_subscriptions, tender_subscriptions_ceiling), BENCH_RESULTS (bench/results).
# Results: bench/results/<time>-subscriptions[-label]/. A PostgreSQL cluster this script started is stopped at the end.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$BENCH_DIR")"
LABEL="${1:-}"
COUNT="${BENCH_SUBSCRIPTIONS:-100000}"
INSTANCES="${BENCH_INSTANCES:-2}"
DB_POOL="${BENCH_DB_POOL:-8}"
BATCH="${BENCH_BATCH:-50}"
CONCURRENCY="${BENCH_CONCURRENCY:-16}"
INTERVAL="${BENCH_INTERVAL:-PT1S}"
TIMEOUT="${BENCH_TIMEOUT:-1200}"
CAPTURE="${BENCH_CAPTURE_SQL:-}"
CAPTURE_CHARGES="${BENCH_CAPTURE_CHARGES:-3}"
PG_STATEMENTS="${BENCH_PG_STATEMENTS:-}"
PORT="${BENCH_PORT:-8099}"
DB="${BENCH_DB:-tender_subscriptions}"
CEILING_DB="${BENCH_CEILING_DB:-tender_subscriptions_ceiling}"
CEILING_SQL="${BENCH_CEILING_SQL:-$BENCH_DIR/ceiling-subscriptions.sql}"
API_KEY=sk_test_bench0000000000000000000000000000
MASTER_KEY="$(head -c 32 /dev/urandom | base64)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${BENCH_RESULTS:-$BENCH_DIR/results}/$STAMP-subscriptions${LABEL:+-$LABEL}"
RAW="$OUT/raw"
mkdir -p "$RAW"
cut -d' ' -f1-3 /proc/loadavg >"$RAW/loadavg-start.txt"
# shellcheck source=bench/common.sh
. "$BENCH_DIR/common.sh"

bench_tools curl
bench_cluster
bench_java
bench_jar
if [[ -n "$PG_STATEMENTS" ]]; then
  psql_admin -c "\"alter system set shared_preload_libraries = 'pg_stat_statements'\""
  pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" restart
fi

# --- The service's instances. ----------------------------------------------------------------------------------
declare -a PIDS=()
# start_instance I [ENV...] [-- ARGS...]: instance I on BENCH_PORT + 2I, its log raw/service-I.log (SERVICE_LOG_NAME
# instead of service-I); its pid in PIDS[I].
start_instance() {
  local i=$1; shift
  local envs=() args=()
  while (($#)) && [[ "$1" != -- ]]; do envs+=("$1"); shift; done
  (($#)) && shift
  args=("$@")
  local port=$((PORT + 2 * i))
  local env=(SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$CLUSTER_PORT/$DB" SPRING_DATASOURCE_USERNAME="$DB_USER"
    SPRING_DATASOURCE_PASSWORD="$DB_PASSWORD" TENDER_BOOTSTRAP_KEYS="bench:$API_KEY" TENDER_MASTER_KEY="$MASTER_KEY"
    SERVER_PORT="$port" MANAGEMENT_SERVER_PORT="$((port + 1))" TENDER_DATA_DIR="$OUT/service-data-$i"
    TENDER_DB_POOL_SIZE="$DB_POOL" "${envs[@]}")
  if [[ -n "$SERVICE_CMD" ]]; then
    env "${env[@]}" JAVA_HOME="$(dirname "$(dirname "$JAVA")")" ${BENCH_JAVA_OPTS:+JAVA_TOOL_OPTIONS="$BENCH_JAVA_OPTS"} \
      bash -c "exec $SERVICE_CMD ${args[*]}" >>"$RAW/${SERVICE_LOG_NAME:-service-$i}.log" 2>&1 &
  else
    # shellcheck disable=SC2086
    env "${env[@]}" "$JAVA" ${BENCH_JAVA_OPTS:-} -jar "$JAR" "${args[@]}" >>"$RAW/${SERVICE_LOG_NAME:-service-$i}.log" 2>&1 &
  fi
  PIDS[i]=$!
}
wait_healthy() { await_healthy "$((PORT + 2 * $1 + 1))" "${PIDS[$1]}" "$RAW/${SERVICE_LOG_NAME:-service-$1}.log"; }
stop_instances() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
}
cleanup() {
  stop_instances
  rm -rf "$OUT"/service-data-*
  if [[ -n "$PG_STATEMENTS" ]]; then
    psql_admin -c "\"alter system reset shared_preload_libraries\"" || true
    [[ -n "$CLUSTER_STARTED" ]] || pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" restart || true
  fi
  if [[ -n "$CLUSTER_STARTED" ]]; then
    log "stopping PostgreSQL cluster $CLUSTER_VERSION/$CLUSTER_NAME (this script started it)"
    pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" stop || true
  fi
}
trap cleanup EXIT
# A launcher that runs java as a child instead of exec-ing it: count the java process's CPU.
java_pid() {
  local pid=$1
  if [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != java ]]; then pgrep -n -P "$pid" java || echo "$pid"; else echo "$pid"; fi
}
api() {
  local method=$1 path=$2 body=${3:-}
  curl -fsS -X "$method" "http://127.0.0.1:$PORT$path" -H "Authorization: Bearer $API_KEY" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: bench-$RANDOM$RANDOM" ${body:+-d "$body"}
}

# --- 1. One real subscription through the API, then its clones. ----------------------------------------------------
log "recreating databases $DB and $CEILING_DB"
recreate_databases "$DB" "$CEILING_DB"
log "seeding: one instance, scheduler off"
SERVICE_LOG_NAME=service-seed start_instance 0 TENDER_SERIES_SCHEDULER_ENABLED=false -- --tender.checkout.json-api=true
SERVICE_LOG_NAME=service-seed wait_healthy 0
customer="$(api POST /billing/customers '{"external_reference":"bench-subscriber","name":"Grace Hopper","email":"grace@example.com"}' | jq -r .id)"
session="$(api POST /collect/payment_sessions "{\"type\":\"first_in_series\",\"amount\":9900,\"currency\":\"ZAR\",\"customer\":\"$customer\",\"options\":{\"subscription_options\":{\"interval\":\"monthly\",\"notice_days\":0}}}")"
checkout="$(jq -r .checkout_session_id <<<"$session")"
attempt="$(curl -fsS -X POST "http://127.0.0.1:$PORT/checkout-api/$checkout/attempts" -H 'Content-Type: application/json' \
  -d "{\"method\":\"card\",\"card_number\":\"4242424242424242\",\"exp_month\":12,\"exp_year\":$(($(date +%Y) + 2)),\"security_code\":\"123\"}")"
[[ "$(jq -r .status <<<"$attempt")" == succeeded ]] || { echo "the first payment did not succeed: $attempt" >&2; exit 1; }
subscription="$(api GET "/collect/payment_sessions/$(jq -r .id <<<"$session")" | jq -r .subscription_id)"
api GET "/collect/subscriptions/$subscription" >"$RAW/subscription.json"
log "made $subscription ($(jq -c '{status, interval: .options.interval, amount: .options.amount}' "$RAW/subscription.json"))"
stop_instances
log "cloning it to $COUNT subscriptions, every period 1 due now"
psql_bench -d "$DB" -v count="$COUNT" -f "$BENCH_DIR/subscriptions-clone.sql" -P footer=off -F ' ' | tee "$RAW/seed.txt" >&2

if [[ -n "$CAPTURE" ]]; then
  # --- Capture: a few charges on one instance with every statement logged. ---------------------------------------
  psql_bench -d "$DB" -c "update subscription_periods set due_at = due_at + interval '10 days'
    where subscription_id not in (select subscription_id from subscription_periods order by subscription_id limit $CAPTURE_CHARGES)"
  psql_admin -c "\"alter database $DB set log_statement = 'all'\""
  from=$(($(wc -l <"$PG_LOG") + 1))
  SERVICE_LOG_NAME=service-capture start_instance 0 TENDER_SERIES_SCHEDULER_INTERVAL="$INTERVAL" \
    TENDER_SERIES_SCHEDULER_BATCH="$BATCH" TENDER_SERIES_SCHEDULER_CONCURRENCY="$CONCURRENCY"
  SERVICE_LOG_NAME=service-capture wait_healthy 0
  for _ in $(seq 60); do
    [[ "$(psql_bench -d "$DB" -c "select count(*) from subscription_periods where period = 1 and status = 'paid'")" -ge "$CAPTURE_CHARGES" ]] && break
    sleep 1
  done
  sleep 3
  stop_instances
  psql_admin -c "\"alter database $DB reset log_statement\""
  tail -n +"$from" "$PG_LOG" >"$RAW/statements-full.log"
  python3 "$BENCH_DIR/statements.py" "$RAW/statements-full.log" "$DB_USER@$DB" >"$RAW/statements.txt"
  python3 "$BENCH_DIR/statements.py" --parameters "$RAW/statements-full.log" "$DB_USER@$DB" >"$RAW/statements-parameters.txt"
  cat "$RAW/statements.txt"
  log "statements in $RAW/statements.txt (with parameters: statements-parameters.txt)"
  exit 0
fi

# --- 2. The ceiling's database: the same rows (copied before anything is charged). -------------------------------
psql_admin -c "\"drop database if exists $CEILING_DB with (force)\"" -c "\"create database $CEILING_DB owner $DB_USER template $DB\""

# --- 3. The run: the instances start and wait; then every period falls due at once; until every period 1 is paid. -----
# Held a century ahead while the instances start (their start-up is not the charging's time), then due again in one
# transaction: the moment they fall due is when it commits. The ceiling's database gets the same two updates, so both
# see the same dead rows in the table and its index of due periods.
HOLD_SQL="update subscription_periods set due_at = due_at + interval '100 years' where period = 1"
RELEASE_SQL="update subscription_periods set due_at = due_at - interval '100 years' where period = 1"
DUE_SQL="select count(*) from subscription_periods where status in ('scheduled', 'retrying') and due_at <= now() and period = 1"
for db in "$DB" "$CEILING_DB"; do psql_bench -d "$db" -c "$HOLD_SQL" -c "vacuum analyze subscription_periods"; done
[[ -z "$PG_STATEMENTS" ]] || psql_admin -d "$DB" -c "\"create extension if not exists pg_stat_statements\"" >/dev/null
log "starting $INSTANCES instances (scheduler every $INTERVAL, batch $BATCH, concurrency $CONCURRENCY, pool $DB_POOL)"
LAUNCH_NS="$(date +%s%N)"
for ((i = 0; i < INSTANCES; i++)); do
  start_instance "$i" TENDER_SERIES_SCHEDULER_INTERVAL="$INTERVAL" TENDER_SERIES_SCHEDULER_BATCH="$BATCH" \
    TENDER_SERIES_SCHEDULER_CONCURRENCY="$CONCURRENCY"
done
for ((i = 0; i < INSTANCES; i++)); do wait_healthy "$i"; done
log "instances healthy after $(( ($(date +%s%N) - LAUNCH_NS) / 1000000 )) ms; $COUNT periods fall due"
sleep 2
[[ -z "$PG_STATEMENTS" ]] || psql_admin -d "$DB" -c "\"select pg_stat_statements_reset()\"" >/dev/null
svc_ticks() { local t=0 pid; for pid in "${PIDS[@]}"; do t=$((t + $(proc_ticks "$(java_pid "$pid")"))); done; echo "$t"; }
C0_SVC=$(svc_ticks); C0_PG=$(pg_ticks); read -r C0_BUSY C0_ALL < <(machine_ticks)
DUE_MS="$(psql_bench -d "$DB" -c "$RELEASE_SQL" -c "select round(extract(epoch from clock_timestamp()) * 1000)")"
T0_NS="$(date +%s%N)"
[[ "$(psql_bench -d "$DB" -c "$DUE_SQL")" -eq "$COUNT" ]] || { echo "not $COUNT periods due" >&2; exit 1; }
# Polls once a second whether any is still due (cheap: the first row of the claims' index, read as a claim reads it;
# "exists" would scan the table), and counts them every 30 s (a count reads every row: 0.1-0.5 s of PostgreSQL); then,
# once none is due, until every one is paid.
DUE_ANY_SQL="select count(*) from (select 1 from subscription_periods where status in ('scheduled', 'retrying') and due_at <= now() and notice_at is null and period = 1 order by due_at, subscription_id, period limit 1) d"
OPEN_ANY_SQL="select exists (select 1 from subscription_periods where period = 1 and status <> 'paid')"
deadline=$(($(date +%s) + TIMEOUT)) polls=0
: >"$RAW/progress.txt"
while :; do
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "an instance died" >&2; tail -30 "$RAW"/service-*.log >&2; exit 1; }; done
  if ((++polls % 30 == 0)); then
    due="$(psql_bench -d "$DB" -c "$DUE_SQL")"
    echo "$(( ($(date +%s%N) - T0_NS) / 1000000 )) $due" >>"$RAW/progress.txt"
    log "  $due periods due"
  fi
  if [[ "$(psql_bench -d "$DB" -c "$DUE_ANY_SQL")" == 0 && "$(psql_bench -d "$DB" -c "$OPEN_ANY_SQL")" == f ]]; then break; fi
  (($(date +%s) < deadline)) || { log "gave up after $TIMEOUT s"; break; }
  sleep 1
done
END_NS="$(date +%s%N)"
svc=$(( $(svc_ticks) - C0_SVC )); pg=$(( $(pg_ticks) - C0_PG ))
read -r busy all < <(machine_ticks); busy=$((busy - C0_BUSY)); all=$((all - C0_ALL))
peak_rss="$(for pid in "${PIDS[@]}"; do awk '/VmHWM/ {printf "%.0f ", $2 / 1024}' "/proc/$(java_pid "$pid")/status"; done)"
if [[ -n "$PG_STATEMENTS" ]]; then
  psql_bench -d "$DB" -P pager=off -c "select calls, round(total_exec_time::numeric, 0) as total_ms,
      round(mean_exec_time::numeric, 3) as mean_ms, rows, left(regexp_replace(query, '\s+', ' ', 'g'), 150) as query
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time desc limit 40" >"$RAW/pg-statements.txt"
fi
stop_instances
grep -hE ' (ERROR|WARN) ' "$RAW"/service-[0-9]*.log | grep -v SpringDocAppInitializer >"$RAW/service-errors.txt" || true

# --- 4. Exactly once. ---------------------------------------------------------------------------------------------
psql_bench -d "$DB" -P footer=off -F ' ' -f "$BENCH_DIR/subscriptions-check.sql" -v count="$COUNT" >"$RAW/exactly-once.txt"
cat "$RAW/exactly-once.txt" >&2
read -r first_ms last_ms paid succeeded < <(psql_bench -d "$DB" -F ' ' -c "select
    round(extract(epoch from min(created_at)) * 1000), round(extract(epoch from max(updated_at)) * 1000),
    (select count(*) from subscription_periods where period = 1 and status = 'paid'), count(*) filter (where status = 'succeeded')
  from payments where subscription_period = 1")
exactly_once="$(awk '$NF == "result" {print $1}' "$RAW/exactly-once.txt")"
jq -nc --argjson n "$COUNT" --argjson paid "$paid" --argjson ok "$succeeded" --argjson first "$first_ms" --argjson last "$last_ms" \
  --argjson due "$DUE_MS" --argjson launch "$((LAUNCH_NS / 1000000))" \
  --argjson svc "$svc" --argjson pg "$pg" --argjson busy "$busy" --argjson all "$all" --argjson tick "$TICK" \
  --arg exactly "$exactly_once" --argjson errors "$(grep -c ' ERROR ' "$RAW/service-errors.txt" || true)" --arg rss "$peak_rss" \
  --argjson instances "$INSTANCES" --argjson pool "$DB_POOL" --argjson batch "$BATCH" --argjson concurrency "$CONCURRENCY" '
  {name: "service", subscriptions: $n, instances: $instances, pool: $pool, batch: $batch, concurrency: $concurrency,
   periods_paid: $paid, payments_succeeded: $ok, exactly_once: $exactly, service_errors: $errors,
   charging_s: (($last - $due) / 1000), rps: ($paid / (($last - $due) / 1000)),
   first_charge_after_due_s: (($first - $due) / 1000), rps_first_to_last: ($paid / (($last - $first) / 1000)),
   started_s: (($due - $launch) / 1000),
   svc_cpu_ms: ($svc * 1000 / $tick / $paid), pg_cpu_ms: ($pg * 1000 / $tick / $paid),
   machine_busy_pct: (100 * $busy / $all), other_load_pct: (100 * ($busy - $svc - $pg) / $all),
   peak_rss_mib: ($rss | split(" ") | map(select(. != "") | tonumber))}' >"$OUT/results.jsonl"
log "service: $(jq -r '"\(.periods_paid) periods in \(.charging_s) s from falling due = \(.rps | floor) periods/s; exactly once: \(.exactly_once)"' "$OUT/results.jsonl")"

# --- 5. The ceiling: PostgreSQL alone, the same statements for the same periods. -----------------------------------
if [[ "${BENCH_CEILING:-1}" != 0 ]]; then
  clients=$((INSTANCES * DB_POOL))
  per_client=$((COUNT / BATCH / clients))
  charges=$((per_client * clients * BATCH))
  python3 "$BENCH_DIR/statements.py" --expand "$BATCH" "$CEILING_SQL" >"$RAW/ceiling-expanded.sql"
  psql_bench -d "$CEILING_DB" -c "$RELEASE_SQL"
  log "ceiling: $clients clients × $per_client batches of $BATCH ($charges periods)"
  C0_PG=$(pg_ticks); C0_GEN=$(child_ticks); read -r C0_BUSY C0_ALL < <(machine_ticks)
  "$PGBENCH" -h 127.0.0.1 -p "$CLUSTER_PORT" -U "$DB_USER" -n -M prepared -c "$clients" -j 1 -t "$per_client" \
    -D batch="$BATCH" -D token="$(psql_bench -d "$CEILING_DB" -c "select token from sandbox_processor_methods")" \
    -f "$RAW/ceiling-expanded.sql" "$CEILING_DB" >"$RAW/ceiling.txt" 2>&1 || { tail "$RAW/ceiling.txt" >&2; exit 1; }
  pg=$(( $(pg_ticks) - C0_PG )); gen=$(( $(child_ticks) - C0_GEN ))
  read -r busy all < <(machine_ticks); busy=$((busy - C0_BUSY)); all=$((all - C0_ALL))
  tps="$(awk '/^tps = / {print $3}' "$RAW/ceiling.txt")"
  failed="$(awk -F'[ (]+' '/^number of failed transactions/ {print $5}' "$RAW/ceiling.txt")"
  done_periods="$(psql_bench -d "$CEILING_DB" -c "select count(*) from subscription_periods where period = 1 and status = 'paid'")"
  jq -nc --argjson tps "$tps" --argjson batch "$BATCH" --argjson clients "$clients" --argjson charges "$charges" \
    --argjson paid "$done_periods" --argjson failed "${failed:-0}" --argjson pg "$pg" --argjson gen "$gen" \
    --argjson busy "$busy" --argjson all "$all" --argjson tick "$TICK" '
    {name: "ceiling", clients: $clients, batch: $batch, periods: $charges, periods_paid: $paid, errors: $failed,
     rps: ($tps * $batch), pg_cpu_ms: ($pg * 1000 / $tick / $charges), gen_cpu_ms: ($gen * 1000 / $tick / $charges),
     machine_busy_pct: (100 * $busy / $all), other_load_pct: (100 * ($busy - $pg - $gen) / $all)}' >>"$OUT/results.jsonl"
  log "ceiling: $(tail -1 "$OUT/results.jsonl" | jq -r '"\(.rps | floor) periods/s (\(.periods_paid) paid)"')"
fi

# --- Machine, settings, summary. ----------------------------------------------------------------------------------
{
  echo "date: $STAMP"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- src pom.xml || echo ' (with uncommitted changes)'); $(if [[ -n "$SERVICE_CMD" ]]; then echo "service command: $SERVICE_CMD"; else echo "jar: $JAR"; fi)"
  machine_lines "$DB"
  echo "service settings: $INSTANCES instances, each TENDER_DB_POOL_SIZE=$DB_POOL, tender.series.scheduler.interval=$INTERVAL, batch=$BATCH, concurrency=$CONCURRENCY; everything else as packaged"
  echo "subscriptions: $COUNT (one made through the API, $((COUNT - 1)) cloned by bench/subscriptions-clone.sql), monthly, ZAR 99.00, one customer and one saved card (sandbox: approve)"
  echo "ceiling: bench/$(basename "$CEILING_SQL") expanded for batches of $BATCH (raw/ceiling-expanded.sql), pgbench -M prepared -j 1, $((INSTANCES * DB_POOL)) clients"
  echo "load average at the start: $(cat "$RAW/loadavg-start.txt" 2>/dev/null || echo "-"); at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/machine.txt"
"$BENCH_DIR/summarize-subscriptions.sh" "$OUT" >"$OUT/summary.md"
cat "$OUT/summary.md"
log "results in $OUT"
