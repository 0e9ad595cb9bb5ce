# What the benchmark scripts share (sourced by bench/run.sh and bench/subscriptions.sh, never run alone): the tools
# they install, this machine's PostgreSQL cluster, the JDK and the packaged jar, psql as the cluster's owner and as the
# benchmark's role, and CPU accounting from /proc. Expects BENCH_DIR and ROOT; sets the variables named below.

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

# machine_lines: machine.txt's lines about the machine, the JDK and PostgreSQL (its settings that matter here).
machine_lines() {
  echo "cpu: $(nproc) x $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
  echo "java: $("$JAVA" -version 2>&1 | head -1) ($JAVA) options: ${BENCH_JAVA_OPTS:-none}"
  echo "postgresql: $(psql_bench -d "$1" -c 'show server_version') cluster $CLUSTER_VERSION/$CLUSTER_NAME; $(psql_bench -d "$1" -c "select string_agg(name || '=' || current_setting(name), ', ' order by name) from pg_settings where name in ('shared_buffers','max_connections','synchronous_commit','fsync','wal_sync_method','full_page_writes','wal_level','commit_delay','max_wal_size','checkpoint_timeout','bgwriter_lru_maxpages')")"
}
