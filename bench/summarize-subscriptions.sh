#!/usr/bin/env bash
# Prints the Markdown summary of one bench/subscriptions.sh run directory (its results.jsonl, machine.txt, raw/).
set -euo pipefail
OUT="$1"
R="$OUT/results.jsonl"
echo "# Benchmark $(basename "$OUT")"
echo
sed 's/^/- /' "$OUT/machine.txt"
echo
echo "## Subscriptions falling due at once, charged by the service against the sandbox, next to the ceiling"
echo
echo "The instances start and wait; then every period 1 falls due in one transaction. Seconds: from that commit to the"
echo "last period-1 payment's update (from the rows); periods/s: periods paid ÷ those seconds. CPU per period: from that"
echo "commit until the script saw every period paid (polled each second), all instances together. The ceiling: pgbench"
echo "doing the same statements for the same periods (bench/ceiling-subscriptions.sql)."
echo
echo "| run | periods | seconds | periods/s | ratio to ceiling | service CPU ms/period | PostgreSQL CPU ms/period | other load % | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
jq -rs '
  def r1: if type == "number" then (. * 10 | round) / 10 else "-" end;
  def r2: if type == "number" then (. * 100 | round) / 100 else "-" end;
  (map(select(.name == "ceiling"))[0]) as $c
  | map(select(.name == "service"))[] as $s
  | "| service (\($s.instances) instances × pool \($s.pool), batch \($s.batch), concurrency \($s.concurrency)) | \($s.periods_paid) | \($s.charging_s | r1) | \($s.rps | floor) | \(if $c then ($s.rps / $c.rps | r2) else "-" end) | \($s.svc_cpu_ms | r2) | \($s.pg_cpu_ms | r2) | \($s.other_load_pct | r1) | \($s.service_errors) logged |",
    (if $c then "| ceiling (pgbench, \($c.clients) clients, batches of \($c.batch)) | \($c.periods_paid) | \($c.periods / $c.rps | r1) | \($c.rps | floor) | 1 | - | \($c.pg_cpu_ms | r2) | \($c.other_load_pct | r1) | \($c.errors) |" else empty end)
' "$R"
echo
jq -rs 'map(select(.name == "service"))[0] | "The instances were healthy \(.started_s) s after their launch; the first period-1 payment was recorded \(.first_charge_after_due_s) s after the periods fell due; from it to the last, \(.rps_first_to_last | floor) periods/s. Peak RSS per instance (MiB): \(.peak_rss_mib | map(tostring) | join(", ")); machine busy \(.machine_busy_pct | floor) %."' "$R"
echo
echo "## Exactly once ($(jq -rs 'map(select(.name == "service"))[0].exactly_once' "$R"))"
echo
echo '```'
cat "$OUT/raw/exactly-once.txt"
echo '```'
