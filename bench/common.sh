# What the benchmark scripts share (sourced by bench/run.sh, limits.sh, subscriptions.sh and versions.sh, never run
# alone): the tools they install, this machine's PostgreSQL cluster, the JDK and the packaged jar, psql as the cluster's
# owner and as the benchmark's role, CPU accounting from /proc, and one service started on a fresh database. Expects
# BENCH_DIR and ROOT; sets the variables named below.

DB_USER=tender_bench
DB_PASSWORD=tender_bench
export PGPASSWORD="$DB_PASSWORD"

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# bench_tools [package...]: installs PostgreSQL and jq (Debian packages) and the named ones when they are missing.
bench_tools() {
  local need=() package
  command -v pg_lsclusters >/dev/null && ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1 || need+=(postgresql)
  command -v jq >/dev/null || need+=(jq)
  for package in "$@"; do command -v "$package" >/dev/null || need+=("$package"); done
  if ((${#need[@]})); then
    log "installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# bench_cluster: the machine's first PostgreSQL cluster, created and started when needed. Sets PG_VERSION, PGBENCH,
# CLUSTER_VERSION, CLUSTER_NAME, CLUSTER_PORT, CLUSTER_DATA, PG_LOG, and CLUSTER_STARTED (1 when this call started it).
bench_cluster() {
  PG_VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
  PGBENCH="/usr/lib/postgresql/$PG_VERSION/bin/pgbench"
  if ! pg_lsclusters -h | grep -q .; then
    log "creating PostgreSQL cluster $PG_VERSION/main"
    pg_createcluster "$PG_VERSION" main >/dev/null
  fi
  local status
  read -r CLUSTER_VERSION CLUSTER_NAME CLUSTER_PORT status CLUSTER_DATA < <(pg_lsclusters -h | head -1 | awk '{print $1, $2, $3, $4, $6}')
  CLUSTER_STARTED=""
  if [[ "$status" != online* ]]; then
    log "starting PostgreSQL cluster $CLUSTER_VERSION/$CLUSTER_NAME"
    pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" start
    CLUSTER_STARTED=1
  fi
  PG_LOG="/var/log/postgresql/postgresql-$CLUSTER_VERSION-$CLUSTER_NAME.log"
}

# bench_java: JAVA is BENCH_JAVA, or the newest JDK (21 or later) under /usr/lib/jvm.
bench_java() {
  JAVA="${BENCH_JAVA:-}"
  local candidate version best=0
  if [[ -z "$JAVA" ]]; then
    for candidate in $(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null); do
      version="$("$candidate" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')"
      if [[ "${version%%.*}" -ge 21 && "${version%%.*}" -gt "$best" ]]; then
        JAVA="$candidate"; best="${version%%.*}"
      fi
    done
  fi
  [[ -n "$JAVA" ]] || { echo "no JDK 21+ found under /usr/lib/jvm; set BENCH_JAVA" >&2; exit 1; }
}

# bench_jar: JAR is BENCH_JAR or target/tender.jar, built when missing (unless BENCH_SERVICE_CMD starts the service).
bench_jar() {
  JAR="${BENCH_JAR:-$ROOT/target/tender.jar}"
  SERVICE_CMD="${BENCH_SERVICE_CMD:-}"
  if [[ -z "$SERVICE_CMD" && ! -f "$JAR" ]]; then
    log "building $JAR"
    (cd "$ROOT" && ./mvnw -q -DskipTests package)
  fi
}

psql_admin() { su postgres -c "psql -X -q -v ON_ERROR_STOP=1 -p $CLUSTER_PORT $*"; }
psql_bench() { psql -X -q -At -h 127.0.0.1 -p "$CLUSTER_PORT" -U "$DB_USER" "$@"; }

# recreate_databases DB...: the benchmark's role, and each database dropped and created afresh, owned by it.
recreate_databases() {
  local sql db
  sql="set client_min_messages = warning;
do \$\$ begin
  if not exists (select from pg_roles where rolname = '$DB_USER') then
    create role $DB_USER login password '$DB_PASSWORD';
  end if;
end \$\$;"
  for db in "$@"; do sql+=$'\n'"drop database if exists $db with (force);"$'\n'"create database $db owner $DB_USER;"; done
  psql_admin <<<"$sql"
}

# --- CPU accounting: ticks of a process, of PostgreSQL, of this script's children, of the machine. ---------------
TICK="$(getconf CLK_TCK)"
proc_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Every PostgreSQL process, plus what the postmaster's exited children (pgbench's backends) used.
pg_ticks() { ps -u postgres -o pid= | while read -r p; do awk '{print $14 + $15 + $16 + $17}' "/proc/$p/stat" 2>/dev/null || true; done | awk '{t += $1} END {print t + 0}'; }
child_ticks() { awk '{print $16 + $17}' "/proc/$$/stat"; }
machine_ticks() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
# cpu_start, then cpu_end REQUESTS: JSON members of what happened between them: CPU ms per request of the service
# (SERVICE_PID), PostgreSQL and the load generator; the machine's busy share; and the share of CPU used by anything
# else on the machine (other work: noise).
cpu_start() { C0_SVC=$(proc_ticks "$SERVICE_PID"); C0_PG=$(pg_ticks); C0_GEN=$(child_ticks); read -r C0_BUSY C0_ALL < <(machine_ticks); }
cpu_end() {
  local requests=$1 svc pg gen busy all
  svc=$(( $(proc_ticks "$SERVICE_PID") - C0_SVC )); pg=$(( $(pg_ticks) - C0_PG )); gen=$(( $(child_ticks) - C0_GEN ))
  read -r busy all < <(machine_ticks); busy=$((busy - C0_BUSY)); all=$((all - C0_ALL))
  awk -v s="$svc" -v p="$pg" -v g="$gen" -v b="$busy" -v a="$all" -v n="$requests" -v t="$TICK" 'BEGIN {
    n = n > 0 ? n : 1; a = a > 0 ? a : 1
    printf "\"svc_cpu_ms\":%.3f,\"pg_cpu_ms\":%.3f,\"gen_cpu_ms\":%.3f,\"machine_busy_pct\":%.1f,\"other_load_pct\":%.1f",
      s * 1000 / t / n, p * 1000 / t / n, g * 1000 / t / n, 100 * b / a, 100 * (b - s - p - g) / a }'
}

# machine_lines: machine.txt's lines about the machine, the JDK and PostgreSQL (its settings that matter here).
machine_lines() {
  echo "cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
  echo "java: $("$JAVA" -version 2>&1 | head -1) ($JAVA) options: ${BENCH_JAVA_OPTS:-none}"
  echo "postgresql: $(psql_bench -d "$1" -c 'show server_version') cluster $CLUSTER_VERSION/$CLUSTER_NAME; $(psql_bench -d "$1" -c "select string_agg(name || '=' || current_setting(name), ', ' order by name) from pg_settings where name in ('shared_buffers','max_connections','synchronous_commit','fsync','wal_sync_method','full_page_writes','wal_level','commit_delay','max_wal_size','checkpoint_timeout','bgwriter_lru_maxpages')")"
}

# --- One service on a fresh database (bench/limits.sh, bench/versions.sh). Expects OUT, RAW, DB, PORT (the management
# port one above), DB_POOL, API_KEY and MASTER_KEY; sets SERVICE_PID. ---------------------------------------------------
SERVICE_PID=""
stop_service() {
  [[ -z "$SERVICE_PID" ]] || { kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; }
  SERVICE_PID=""
}
# bench_cleanup (the EXIT trap): the service stopped and its data removed; the cluster stopped if this run started it.
bench_cleanup() {
  stop_service
  rm -rf "$OUT"/service-data-*
  if [[ -n "$CLUSTER_STARTED" ]]; then
    log "stopping PostgreSQL cluster $CLUSTER_VERSION/$CLUSTER_NAME (this script started it)"
    pg_ctlcluster "$CLUSTER_VERSION" "$CLUSTER_NAME" stop || true
  fi
}
# await_healthy MANAGEMENT_PORT PID LOG: returns once the service answers its health check (180 s at most); exits with
# the tail of its LOG when the process PID dies first or it never does.
await_healthy() {
  local port=$1 pid=$2 log=$3
  for _ in $(seq 180); do
    curl -fs "http://127.0.0.1:$port/actuator/health" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || { tail -30 "$log" >&2; exit 1; }
    sleep 1
  done
  echo "$log: not healthy after 180 s" >&2; exit 1
}
# start_service NAME JAR [VARIABLE=VALUE...]: a fresh database and the service on it, with these variables besides
# (the rate limits a benchmark raises), healthy.
start_service() {
  local name=$1 jar=$2
  shift 2
  recreate_databases "$DB"
  # shellcheck disable=SC2086
  env SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:$CLUSTER_PORT/$DB" SPRING_DATASOURCE_USERNAME="$DB_USER" \
    SPRING_DATASOURCE_PASSWORD="$DB_PASSWORD" TENDER_BOOTSTRAP_KEYS="bench:$API_KEY" TENDER_MASTER_KEY="$MASTER_KEY" \
    SERVER_PORT="$PORT" MANAGEMENT_SERVER_PORT="$((PORT + 1))" TENDER_DATA_DIR="$OUT/service-data-$name" \
    TENDER_DB_POOL_SIZE="$DB_POOL" "$@" "$JAVA" ${BENCH_JAVA_OPTS:-} -jar "$jar" >"$RAW/service-$name.log" 2>&1 &
  SERVICE_PID=$!
  await_healthy "$((PORT + 1))" "$SERVICE_PID" "$RAW/service-$name.log"
}
