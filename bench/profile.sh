#!/usr/bin/env bash
# Profiles the create path: bench/run.sh with only the 16-connection create run (60 s) under a JFR recording,
# then prints where the service's CPU samples fall (bench/profile-summary.py). Output in /tmp/tender-profile/.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
OUT=/tmp/tender-profile
mkdir -p "$OUT"
JFR_FILE="$OUT/create-$(date -u +%H%M%S).jfr"
BENCH_RESULTS="$OUT" BENCH_CREATES_ONLY=1 BENCH_LEVELS="${BENCH_LEVELS:-16}" BENCH_DURATION="${BENCH_DURATION:-60}" \
  BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:-} -XX:StartFlightRecording:filename=$JFR_FILE,settings=profile,dumponexit=true,jdk.ExecutionSample#period=2ms" \
  "$BENCH_DIR/run.sh" profile >"$OUT/run.txt" 2>&1 || { tail -20 "$OUT/run.txt"; exit 1; }
grep -E '^[0-9:]+ create' "$OUT/run.txt"
JFR_BIN="$(dirname "$(readlink -f "$(command -v "${BENCH_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}")")")/jfr"
"$JFR_BIN" print --events jdk.ExecutionSample --stack-depth 96 "$JFR_FILE" >"$JFR_FILE.txt"
python3 "$BENCH_DIR/profile-summary.py" "$JFR_FILE.txt"
