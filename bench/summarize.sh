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
echo "| connections | creates/s | p50 ms | p95 ms | p99 ms | errors | ceiling redemptions/s | ratio | service CPU ms/req | PostgreSQL CPU ms/req (service / ceiling) | other load % (service / ceiling) | peak RSS MiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
jq -rs '
  (map(select(.name == "ceiling")) | INDEX(.level | tostring)) as $c
  | map(select(.name == "create"))[]
  | ($c[.level | tostring] // {pg_cpu_ms: "-", other_load_pct: "-"}) as $k
  | "| \(.level) | \(.rps | floor) | \(.p50_ms) | \(.p95_ms) | \(.p99_ms) | \(.errors) | \($k.rps // "-" | if type == "number" then floor else . end) | \(if $k.rps then (.rps / $k.rps * 100 | round) / 100 else "-" end) | \(.svc_cpu_ms) | \(.pg_cpu_ms) / \($k.pg_cpu_ms) | \(.other_load_pct) / \($k.other_load_pct) | \(.peak_rss_mib) |"' "$R"
pool="$(jq -rs 'map(select(.name == "ceiling-at-pool-size"))[] | "PostgreSQL alone with as many clients as the service has connections (\(.level)): \(.rps | floor) redemptions/s."' "$R")"
if [[ -n "$pool" ]]; then
  echo
  echo "$pool"
fi
echo
echo "## Other paths"
echo
echo "| run | connections | requests/s | p50 ms | p95 ms | p99 ms | errors | service CPU ms/req | PostgreSQL CPU ms/req | other load % |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
jq -rs 'map(select(.name != "create" and .name != "ceiling" and .name != "ceiling-at-pool-size"))[]
  | "| \(.name) | \(.level) | \(.rps | floor) | \(.p50_ms) | \(.p95_ms) | \(.p99_ms) | \(.errors) | \(.svc_cpu_ms) | \(.pg_cpu_ms) | \(.other_load_pct) |"' "$R"
bad="$(jq -rs 'map(select(.bad_sample != null and .bad_sample != "")) | map("\(.name) c=\(.level): \(.bad_sample)") | .[]' "$R")"
if [[ -n "$bad" ]]; then
  echo
  echo "First unexpected answer per run:"
  echo
  echo "$bad" | sed 's/^/- /'
fi
