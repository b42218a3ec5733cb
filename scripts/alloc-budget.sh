#!/usr/bin/env bash
# The heap allocation budget (issue #30): counts the calls to malloc, calloc, realloc and the aligned
# allocators that `bletrace analyze` makes per record, after start-up, and fails when a command is over its
# budget. Per record = (allocations on 100,000 records − allocations on 20,000) / the records between, on
# the generated mixed and ATT-heavy captures, so start-up and the summary at the end do not count.
# Usage: bash scripts/alloc-budget.sh [BINARY]   (default .build/release/bletrace; needs gcc)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/release/bletrace}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

gcc -O2 -shared -fPIC -o "$work/libmalloc-count.so" scripts/alloc/malloc-count.c

# The budgets hold what was measured when they were last lowered (issue #38, after the pending requests moved
# into the connection's state, the lookup memos became direct-mapped and repeated AD data was no longer read
# again: mixed 0.995, 1.492, 2.295; ATT 0.754, 1.293, 2.225; JSON again once the renderers wrote into their own
# byte buffer: mixed 2.163, ATT 2.043; all again once decoded values wrote their text as bytes and JSON made it on
# the store's buffer: mixed 0.910, 1.244, 1.823; ATT 0.697, 0.962, 1.477; once event text was made on TextBytes:
# mixed 0.908, 1.147, 1.710; ATT 0.694, 0.882, 1.389; and once state that grows was sized once and grown in
# place, service errors were named by their values and the pairing rule changed its table's entries without the
# subscript's allocation: mixed 0.549, 0.776, 1.214; ATT 0.483, 0.661, 1.040; and once table entries were changed
# through their index, repeated diagnoses folded in from their parts and the JSON summary written instead of built:
# mixed 0.481, 0.708, 0.915; ATT 0.444, 0.622, 0.810; and once UUIDs' short names were written in place: mixed
# 0.482, 0.649, 0.857; ATT 0.444, 0.571, 0.759; and once dissectors were called where the registry keeps them
# and GATT locations' text and JSON came from the output's memo: mixed 0.454, 0.622, 0.830; ATT 0.417, 0.545,
# 0.732; and once a closed connection's ATT state was kept for the next ones: mixed 0.412, 0.580, 0.788; ATT 0.378,
# 0.506, 0.693; and once the ATT layer kept its value consumers as a constant, held events waited where they were
# decoded and JSON wrote names and digits in place: mixed 0.403, 0.571, 0.773; ATT 0.370, 0.497, 0.686; and once
# whole packets were read in place and advertising descriptions shared: mixed 0.391, 0.551, 0.759; ATT 0.367, 0.496,
# 0.692, the last up by one object per description the advertising memo keeps), with 5 % of room, so that a change that adds allocations on the decode or render path fails here. The issue's targets are 0.5 for --summary-only and 1 for text and JSON (all
# met on both mixes): lower a budget when a change gets lower, never raise one without saying why in
# docs/performance.md.
# mix | command name | analyze arguments | budget (allocations per record)
budgets=(
  "mixed|summary-only|--summary-only|0.41"
  "mixed|text|--color never|0.58"
  "mixed|json|--format json --single-thread|0.80"
  "att|summary-only|--summary-only|0.39"
  "att|text|--color never|0.52"
  "att|json|--format json --single-thread|0.73"
)

count() { # capture, arguments -> allocation calls
  MALLOC_COUNT_FILE="$work/count" LD_PRELOAD="$work/libmalloc-count.so" "$bin" analyze "$1" $2 > /dev/null
  cat "$work/count"
}

failed=0
declare -A records
for mix in mixed att; do
  records[$mix-20k]=$("$bin" make-capture --records 20000 --mix "$mix" "$work/$mix-20k.btsnoop" | awk '{print $2}')
  records[$mix-100k]=$("$bin" make-capture --records 100000 --mix "$mix" "$work/$mix-100k.btsnoop" | awk '{print $2}')
done
for entry in "${budgets[@]}"; do
  IFS='|' read -r mix name args budget <<< "$entry"
  small=$(count "$work/$mix-20k.btsnoop" "$args")
  large=$(count "$work/$mix-100k.btsnoop" "$args")
  n=$((records[$mix-100k] - records[$mix-20k]))
  per=$(awk -v a="$small" -v b="$large" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n }')
  verdict=ok
  if awk -v p="$per" -v b="$budget" 'BEGIN { exit !(p > b) }'; then verdict="OVER BUDGET"; failed=1; fi
  printf '%-6s %-13s %6s allocations per record after start-up (budget %s)  %s\n' "$mix" "$name" "$per" "$budget" "$verdict"
done
exit $failed
