#!/usr/bin/env bash
# Writes every output bletrace makes for the bundled samples, the shared captures and a generated capture into
# DIR, one file per (input, command, options). Run it before a change and after it, then `diff -r` the two
# folders: a refactoring must leave every file byte-identical.
#   bash scripts/reference-outputs.sh DIR [BINARY]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: reference-outputs.sh DIR [BINARY]}
bin=${2:-.build/release/bletrace}
mkdir -p "$out"
gen="${TMPDIR:-/tmp}/bletrace-reference-20k.btsnoop"
[ -f "$gen" ] || "$bin" make-capture --records 20000 "$gen" > /dev/null
inputs=(samples/* ../shared/captures/*.log ../shared/captures/*.pcap ../shared/captures/*.pcapng
        ../shared/captures/*.pklg ../shared/captures/*.cfa* ../shared/captures/*.btsnoop "$gen")
run() { # name, then the command
    local name=$1; shift
    "$@" > "$out/$name" 2> "$out/$name.err"
    echo "exit $?" >> "$out/$name.err"
}
for f in "${inputs[@]}"; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    run "$b.text" "$bin" analyze --color never "$f"
    run "$b.json" "$bin" analyze --format json "$f"
    run "$b.jsonl" "$bin" analyze --format jsonl --single-thread "$f"
    run "$b.summary" "$bin" analyze --summary-only "$f"
    run "$b.md" "$bin" analyze --format markdown "$f"
    run "$b.redact.jsonl" "$bin" analyze --format jsonl --redact "$f"
    run "$b.redact.md" "$bin" analyze --format markdown --redact "$f"
    run "$b.redact.text" "$bin" analyze --color never --redact "$f"
    run "$b.attsmp" "$bin" analyze --color never --layer att,smp "$f"
    run "$b.devices" "$bin" devices "$f"
    run "$b.devices.json" "$bin" devices --format json "$f"
    run "$b.gatt" "$bin" gatt "$f"
    run "$b.gatt.json" "$bin" gatt --format json "$f"
done
for w in 0 51 65; do
    for t in relative absolute delta; do
        run "gatt-session.w$w.$t" "$bin" analyze --color always --width $w --time $t samples/gatt-session.btsnoop
    done
done
run "ancs.w51" "$bin" analyze --color always --width 51 samples/ancs-iphone.pklg
run "filter.device" "$bin" analyze --color never --device C4:7C:8D:6A:11:22 samples/diff-good.btsnoop
run "filter.conn" "$bin" analyze --format jsonl --connection 1 --records 20-80 samples/gatt-session.btsnoop
for fmt in text json markdown; do
    run "diff.$fmt" "$bin" diff --format $fmt samples/diff-good.btsnoop samples/diff-bad.btsnoop
    run "diff.redact.$fmt" "$bin" diff --format $fmt --redact samples/diff-good.btsnoop samples/diff-bad.btsnoop
done
run "diff.real" "$bin" diff ../shared/captures/cnrd__yeelock__btsnoop_hci.log ../shared/captures/madkaye__revcar-cli__btsnoop_hci.log
ls "$out" | wc -l
