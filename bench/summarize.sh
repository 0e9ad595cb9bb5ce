#!/usr/bin/env bash
# Prints the Markdown summary of one benchmark run directory (its results.jsonl and machine.txt).
set -euo pipefail
OUT="$1"
R="$OUT/results.jsonl"
echo "# Benchmark $(basename "$OUT")"
echo
sed 's/^/- /' "$OUT/machine.txt"
echo
echo "## Creates (POST /collect/redemptions, fresh voucher and Idempotency-Key each) against the ceiling"
echo
echo "Each level ran BENCH_REPEATS rounds of the service, then the ceiling (the service's own SQL), then the minimal"
echo "ceiling (bench/ceiling-minimal.sql: the least a redemption must write, frozen); every figure is the median of the"
echo "rounds (errors: their sum; peak RSS: the largest), and each ratio is the median of the rounds' ratios"
echo "(creates/s ÷ that round's ceiling)."
echo
echo "| connections | creates/s | p50 ms | p95 ms | p99 ms | errors | ceiling redemptions/s | ratio | ratio per round | minimal ceiling redemptions/s | ratio to minimal | per round | service CPU ms/req | PostgreSQL CPU ms/req (service / ceiling / minimal) | other load % (service / ceiling) | peak RSS MiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|"
jq -rs '
  def median: map(select(type == "number")) | sort | if length == 0 then "-" elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def r2: if type == "number" then (. * 100 | round) / 100 else . end;
  def fl: if type == "number" then floor else . end;
  def by_level($name): map(select(.name == $name)) | group_by(.level) | map({key: (.[0].level | tostring), value: .}) | from_entries;
  # ratios($s; $k): per round of the service runs $s, its creates/s over the same round of the ceiling runs $k.
  def ratios($s; $k): [range(0; $s | length) | . as $i | ($k | map(select((.round // 0) == ($s[$i].round // 0)))[0].rps) as $kr
     | if $kr then $s[$i].rps / $kr else null end];
  by_level("ceiling") as $c | by_level("ceiling-minimal") as $m
  | map(select(.name == "create")) | group_by(.level)[]
  | . as $s | ($c[$s[0].level | tostring] // []) as $k | ($m[$s[0].level | tostring] // []) as $mk
  | ratios($s; $k) as $ratios | ratios($s; $mk) as $mratios
  | "| \($s[0].level) | \($s | map(.rps) | median | floor) | \($s | map(.p50_ms) | median | r2) | \($s | map(.p95_ms) | median | r2) | \($s | map(.p99_ms) | median | r2) | \($s | map(.errors) | add) | \($k | map(.rps) | median | fl) | \($ratios | median | r2) | \($ratios | map(if . == null then "-" else (r2 | tostring) end) | join(", ")) | \($mk | map(.rps) | median | fl) | \($mratios | median | r2) | \($mratios | map(if . == null then "-" else (r2 | tostring) end) | join(", ")) | \($s | map(.svc_cpu_ms) | median | r2) | \($s | map(.pg_cpu_ms) | median | r2) / \($k | map(.pg_cpu_ms) | median | r2) / \($mk | map(.pg_cpu_ms) | median | r2) | \($s | map(.other_load_pct) | median) / \($k | map(.other_load_pct) | median) | \($s | map(.peak_rss_mib) | max) |"' "$R"
pool="$(jq -rs 'map(select(.name == "ceiling-at-pool-size"))[] | "PostgreSQL alone with as many clients as the service has connections (\(.level)): \(.rps | floor) redemptions/s."' "$R")"
if [[ -n "$pool" ]]; then
  echo
  echo "$pool"
fi
rt="$(jq -rs 'map(select(.name == "roundtrips"))[] | "| \(.creates) | \(.request_rt_per_create) | \(.background_rt_per_create) | \(.periodic_rt) in \(.window_s) s | \(.setup_rt) |"' "$R")"
if [[ -n "$rt" ]]; then
  echo
  echo "## Database round trips per create (BENCH_COUNT_ROUNDTRIPS, bench/roundtrips.py)"
  echo
  echo "Sequential creates after as many unmeasured ones; a round trip is the service sending, then waiting for"
  echo "PostgreSQL's answer (tcpdump of the service's connections). Background: the outbox relay's work in the same"
  echo "window, per create; periodic: the timed sweeps (recovery, expiry, deliveries), a count whatever the load."
  echo "Which statements each round trip carried: raw/roundtrips.txt."
  echo
  echo "| creates counted | request path per create | outbox relay per create | periodic sweeps | connection set-up in the window |"
  echo "|---:|---:|---:|---:|---:|"
  echo "$rt"
fi
cold="$(jq -rs 'map(select(.name == "cold-start"))[0] // empty | "Time from the service'"'"'s start to its first successful create: \(.first_create_ms) ms (Spring'"'"'s own \"Started … in\": \(.started_log_s // "-") s)."' "$R")"
if [[ -n "$cold" ]]; then
  echo
  echo "## Cold start (BENCH_COLD)"
  echo
  echo "$cold"
  echo
  echo "Creates at 16 connections from the first successful create on: one wrk run, its right answers counted in"
  echo "consecutive windows; the steady rate is the median of the 16-connection create rounds above (after BENCH_WARMUP"
  echo "seconds of load in all). Service CPU per create: the service's CPU ticks read at each window's boundary."
  echo
  echo "| window | since the start s | creates/s | ratio to steady | service CPU ms/req |"
  echo "|---:|---:|---:|---:|---:|"
  jq -rs '
    def median: map(select(type == "number")) | sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
      else (.[length / 2 - 1] + .[length / 2]) / 2 end;
    (map(select(.name == "create" and .level == 16) | .rps) | median) as $steady
    | map(select(.name == "cold-window"))[]
    | "| \(.round) | \(.since_start_s) | \(.rps | floor) | \(if $steady then (.rps / $steady * 100 | round) / 100 else "-" end) | \(.svc_cpu_ms) |"' "$R"
  echo
  jq -rs 'map(select(.name == "cold-run"))[] | "The whole cold run: \(.requests) creates in \(.seconds) s, p50 \(.p50_ms) ms, p95 \(.p95_ms) ms, p99 \(.p99_ms) ms, errors \(.errors)."' "$R"
fi
collect="$(jq -rs '
  (map(select(.name | startswith("ceiling-session-"))) | map({key: (.name | ltrimstr("ceiling-")), value: .}) | from_entries) as $k
  | map(select(.name == "session-create" or .name == "session-get"))[] | . as $s | $k[$s.name] as $c
  | "| \(if .name == "session-create" then "create (POST /collect/payment_sessions)" else "retrieve (GET /collect/payment_sessions/{id})" end) | \(.level) | \(.rps | floor) | \(.p50_ms) | \(.p99_ms) | \(.errors) | \(if $c then ($c.rps | floor) else "-" end) | \(if $c and $c.rps > 0 then ($s.rps / $c.rps * 100 | round) / 100 else "-" end) | \(.svc_cpu_ms) | \(.pg_cpu_ms) / \(if $c then $c.pg_cpu_ms else "-" end) | \(.other_load_pct) |"' "$R")"
if [[ -n "$collect" ]]; then
  echo
  echo "## Collect: payment sessions against their ceilings"
  echo
  echo "Each run (one round, BENCH_COLLECT_DURATION) is followed by its ceiling with as many clients:"
  echo "bench/ceiling-session-create.sql (the create's one transaction) and bench/ceiling-session-get.sql (one select)."
  echo
  echo "| path | connections | requests/s | p50 ms | p99 ms | errors | ceiling/s | ratio | service CPU ms/req | PostgreSQL CPU ms/req (service / ceiling) | other load % |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  echo "$collect"
fi
echo
echo "## Other paths"
echo
echo "| run | connections | requests/s | p50 ms | p95 ms | p99 ms | errors | service CPU ms/req | PostgreSQL CPU ms/req | other load % | commits over 20 ms (slowest ms) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
jq -rs 'map(select(.name != "create" and .name != "ceiling" and .name != "ceiling-minimal" and .name != "ceiling-at-pool-size"
  and .name != "roundtrips" and .name != "cold-start" and .name != "cold-window" and .name != "cold-run"
  and (.name | startswith("session-") | not) and (.name | startswith("ceiling-session-") | not)))[]
  | "| \(.name) | \(.level) | \(.rps | floor) | \(.p50_ms) | \(.p95_ms) | \(.p99_ms) | \(.errors) | \(.svc_cpu_ms) | \(.pg_cpu_ms) | \(.other_load_pct) | \(if .slow_commits == null then "-" else "\(.slow_commits) (\(.slowest_commit_ms))" end) |"' "$R"
bad="$(jq -rs 'map(select(.bad_sample != null and .bad_sample != "")) | map("\(.name) c=\(.level): \(.bad_sample)") | .[]' "$R")"
if [[ -n "$bad" ]]; then
  echo
  echo "First unexpected answer per run:"
  echo
  echo "$bad" | sed 's/^/- /'
fi
