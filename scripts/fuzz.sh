#!/usr/bin/env bash
# Builds the libFuzzer harness (with AddressSanitizer) and runs every fuzz target for a while.
# Usage: bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]      targets: capture packets ad containers
# Crashes are written to .build-fuzz/artifacts/; minimize one with
#   BLETRACE_FUZZ_TARGET=T .build-fuzz/release/bletrace-fuzz -minimize_crash=1 -runs=10000 CRASH
# and add it to Tests/BLETraceTests/Fuzzing/Regressions/T-NAME.bin with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(capture packets ad containers)

set +e
BLETRACE_FUZZ=1 swift build -c release --scratch-path .build-fuzz --product bletrace-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld > .build-fuzz-build.log 2>&1
built=$?
set -e
grep -E "error|Build" .build-fuzz-build.log | grep -v "Cannot export" >&2 || true
rm -f .build-fuzz-build.log
bin=.build-fuzz/release/bletrace-fuzz
[ $built -eq 0 ] && [ -x "$bin" ] || { echo "fuzz: build failed" >&2; exit 2; }

python3 scripts/fuzz-seeds.py .build-fuzz/seeds >&2
mkdir -p .build-fuzz/artifacts .build-fuzz/corpus
status=0
for t in "${targets[@]}"; do
  mkdir -p ".build-fuzz/corpus/$t"
  log=".build-fuzz/$t.log"
  set +e
  start=$(date +%s)
  # SWIFT_BACKTRACE off: a Swift runtime trap then reaches libFuzzer as a plain deadly signal.
  SWIFT_BACKTRACE=enable=no BLETRACE_FUZZ_TARGET=$t "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix=".build-fuzz/artifacts/$t-" \
    ".build-fuzz/corpus/$t" ".build-fuzz/seeds/$t" > "$log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  runs=$(grep -E "^stat::number_of_executed_units" "$log" | awk '{print $2}')
  [ -n "$runs" ] || runs=$(grep -oE "^#[0-9]+" "$log" | tail -1 | tr -d '#')
  echo "fuzz: $t: ${runs:-?} executions in ${elapsed}s, exit $rc"
  if [ $rc -ne 0 ]; then
    status=1
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5
  fi
done
exit $status
