#!/usr/bin/env python3
"""bletrace benchmark: bletrace against tshark on the same generated capture, measured in one run.

Generates a large mixed capture with bletrace's own writer (`bletrace make-capture`), runs bletrace's
outputs and the tshark equivalents on it, and prints wall time, records per second, output bytes and
peak RSS of each, with the ratios. With --write-doc it also writes docs/performance.md.

Usage: python3 scripts/bench.py [--records N] [--repeat N] [--scale-check] [--write-doc] [--no-tshark]
"""
import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "bletrace")


GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def run(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (wall seconds, peak RSS KiB, output bytes, exit code).

    Peak RSS comes from GNU time when present: a child forked from this Python process would otherwise
    report Python's own high-water mark (Linux keeps it across exec)."""
    rss_path = out_path + ".rss"
    full = [GNU_TIME, "-f", "%M", "-o", rss_path] + cmd if GNU_TIME else cmd
    # Earlier runs' output still being written back to disk would slow this one down.
    os.sync()
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    rss = usage.ru_maxrss
    if GNU_TIME:
        with open(rss_path) as f:
            rss = int(f.read().strip().splitlines()[-1])
        os.unlink(rss_path)
    size = os.path.getsize(out_path)
    os.unlink(out_path)
    return wall, rss, size, os.waitstatus_to_exitcode(status)


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} cores, {cpu}, {mem}, {platform.system()} {platform.release()}"


def fmt_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--scale-check", action="store_true", help="also run text/jsonl on a file 5x larger (RSS growth)")
    ap.add_argument("--write-doc", action="store_true", help="write the table to docs/performance.md")
    ap.add_argument("--no-tshark", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each bletrace command; the median is reported (tshark runs once)")
    ap.add_argument("--no-alloc", action="store_true", help="skip counting heap allocations")
    args = ap.parse_args()

    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "bletrace"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    tshark = None if args.no_tshark else shutil.which("tshark")

    work = tempfile.mkdtemp(prefix="bletrace-bench-")
    try:
        snoop = os.path.join(work, "bench.btsnoop")
        pcap = os.path.join(work, "bench.pcap")
        made = subprocess.run([BIN, "make-capture", "--records", str(args.records), snoop], check=True,
                              capture_output=True, text=True).stdout
        records = int(made.strip().split(": ")[-1].split()[0])
        subprocess.run([BIN, "make-capture", "--records", str(args.records), "--format", "pcap", pcap], check=True,
                       stdout=subprocess.DEVNULL)
        size = os.path.getsize(snoop)
        print(f"capture: {records:,} records, {size / 1e6:.1f} MB btsnoop (+ pcap copy), machine: {machine()}")

        out = os.path.join(work, "out")
        rows = []

        att_n = [records]

        def measure(name, cmd, repeat=1):
            # The median of `repeat` runs: one run of a few seconds moves by 20-40 % on a shared machine.
            runs = sorted((run(cmd, out) for _ in range(repeat)), key=lambda r: r[0])
            wall, _, nbytes, code = runs[len(runs) // 2]
            rss = max(r[1] for r in runs)
            n = att_n[0] if "ATT mix" in name else records
            rows.append((name, wall, rss, nbytes, code, n))
            print(f"  {name:<40} {wall:8.2f} s {n / wall / 1e6:7.2f} M rec/s {rss / 1024:8.1f} MB RSS "
                  f"{fmt_bytes(nbytes):>10} out{'' if code == 0 else f'  (exit {code})'}", flush=True)

        measure("bletrace analyze (text)", [BIN, "analyze", snoop, "--color", "never"], args.repeat)
        measure("bletrace analyze (text) --single-thread", [BIN, "analyze", snoop, "--color", "never", "--single-thread"], args.repeat)
        measure("bletrace analyze --format json", [BIN, "analyze", snoop, "--format", "json"], args.repeat)
        measure("bletrace analyze --format jsonl", [BIN, "analyze", snoop, "--format", "jsonl"], args.repeat)
        measure("bletrace analyze --format json --single-thread", [BIN, "analyze", snoop, "--format", "json", "--single-thread"], args.repeat)
        measure("bletrace analyze --summary-only", [BIN, "analyze", snoop, "--summary-only"], args.repeat)
        measure("bletrace devices", [BIN, "devices", snoop], args.repeat)
        measure("bletrace analyze pcap (text)", [BIN, "analyze", pcap, "--color", "never"], args.repeat)
        # The capture where ATT dominates: its own record count, so its rate is computed here.
        att = os.path.join(work, "att.btsnoop")
        made = subprocess.run([BIN, "make-capture", "--records", str(args.records), "--mix", "att", att], check=True,
                              capture_output=True, text=True).stdout
        att_records = int(made.strip().split(": ")[-1].split()[0])
        att_n[0] = att_records
        att_acl = acl_share(att)
        runs = sorted(run([BIN, "analyze", att, "--summary-only"], out) for _ in range(args.repeat))
        att_wall = runs[len(runs) // 2][0]
        att_rate = att_records / att_wall
        print(f"  ATT capture ({att_records:,} records, {att_acl * 100:.0f} % ACL): --summary-only {att_wall:.2f} s, "
              f"{att_rate / 1e6:.2f} M rec/s", flush=True)
        # The ATT-heavy mix (discovery, reads, notifications, ANCS split over notifications) renders more per
        # record than the mixed one: its text and JSON are measured against tshark too, and reported beside.
        measure("bletrace analyze (text), ATT mix", [BIN, "analyze", att, "--color", "never"], args.repeat)
        measure("bletrace analyze --format json, ATT mix", [BIN, "analyze", att, "--format", "json"], args.repeat)
        if tshark:
            measure("tshark -r", [tshark, "-r", snoop])
            measure("tshark -r -V", [tshark, "-r", snoop, "-V"])
            measure("tshark -r -T json", [tshark, "-r", snoop, "-T", "json"])
            measure("tshark -r -V, ATT mix", [tshark, "-r", att, "-V"])
            measure("tshark -r -T json, ATT mix", [tshark, "-r", att, "-T", "json"])

        scale = []
        if args.scale_check:
            big = os.path.join(work, "bench5x.btsnoop")
            subprocess.run([BIN, "make-capture", "--records", str(args.records * 5), big], check=True, stdout=subprocess.DEVNULL)
            for name, extra in (("text", []), ("jsonl", ["--format", "jsonl"])):
                wall, rss, nbytes, code = run([BIN, "analyze", big] + extra, out)
                scale.append((name, wall, rss))
                print(f"  5x file, {name:<24} {wall:8.2f} s {rss / 1024:8.1f} MB RSS")

        by = {r[0]: r for r in rows}
        ratios = []
        if tshark:
            pairs = [("json vs tshark -T json", "bletrace analyze --format json", "tshark -r -T json", 50),
                     ("text vs tshark -V", "bletrace analyze (text)", "tshark -r -V", 20),
                     ("text vs tshark -r", "bletrace analyze (text)", "tshark -r", None),
                     ("json vs tshark -T json, ATT mix", "bletrace analyze --format json, ATT mix", "tshark -r -T json, ATT mix", 50),
                     ("text vs tshark -V, ATT mix", "bletrace analyze (text), ATT mix", "tshark -r -V, ATT mix", 20)]
            for label, ours, theirs, target in pairs:
                ratio = by[theirs][1] / by[ours][1]
                ratios.append((label, ratio, target))
                print(f"  ratio {label:<28} {ratio:6.1f}x" + (f"  (target {target}x: {'met' if ratio >= target else 'NOT met'})" if target else ""))
        full = by["bletrace analyze --summary-only"]
        rate = records / full[1]
        print(f"  full decode (summary only): {rate / 1e6:.2f} M records/s (target 2.00)")

        allocs = []
        counter = None if args.no_alloc else malloc_counter(work)
        if counter and not args.no_alloc:
            # Per record after start-up, as scripts/alloc-budget.sh counts them: the difference between 20,000
            # and 100,000 records of each mix, so start-up and the summary at the end do not count.
            for mix in ("mixed", "att"):
                made = []
                for size_n in (20_000, 100_000):
                    path = os.path.join(work, f"alloc-{mix}-{size_n}.btsnoop")
                    text = subprocess.run([BIN, "make-capture", "--records", str(size_n), "--mix", mix, path],
                                          check=True, capture_output=True, text=True).stdout
                    made.append((path, int(text.strip().split(": ")[-1].split()[0])))
                for name, extra in (("--summary-only", ["--summary-only"]), ("(text)", ["--color", "never"]),
                                    ("--format json", ["--format", "json", "--single-thread"])):
                    small, large = (heap_allocations(counter, [BIN, "analyze", p] + extra, work) for p, _ in made)
                    n = made[1][1] - made[0][1]
                    allocs.append((mix, name, n, large - small))
                    print(f"  heap allocations, {mix} capture, {name:<15} {(large - small) / n:6.2f} per record after start-up")

        if args.write_doc:
            write_doc(records, size, rows, ratios, rate, scale, args.repeat, (att_records, att_acl, att_wall, att_rate), allocs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def acl_share(path):
    """The fraction of a btsnoop (H4) file's records that are ACL data."""
    total = acl = 0
    with open(path, "rb") as f:
        f.read(16)
        while True:
            head = f.read(24)
            if len(head) < 24:
                break
            n = int.from_bytes(head[4:8], "big")
            data = f.read(n)
            total += 1
            if data[:1] == b"\x02":
                acl += 1
    return acl / total if total else 0.0


def malloc_counter(work):
    """Builds scripts/alloc/malloc-count.c (an LD_PRELOAD counter of allocation calls); None without gcc."""
    if not shutil.which("gcc"):
        return None
    lib = os.path.join(work, "libmalloc-count.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", lib, os.path.join(ROOT, "scripts", "alloc", "malloc-count.c")],
                   check=True)
    return lib


def heap_allocations(counter, cmd, work):
    """Calls to allocation functions during cmd."""
    path = os.path.join(work, "malloc-count")
    env = dict(os.environ, LD_PRELOAD=counter, MALLOC_COUNT_FILE=path)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    with open(path) as f:
        return int(f.read().strip())


def write_doc(records, size, rows, ratios, rate, scale, repeat, att, allocs):
    lines = ["# Performance", "",
             "Measured by `python3 scripts/bench.py --scale-check --write-doc` (this file is written by that command).", "",
             f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             f"- Machine: {machine()}",
             f"- Capture: {records:,} records, {size / 1e6:.1f} MB btsnoop, generated by `bletrace make-capture` "
             "(adverts, extended adverts, connections with discovery, long reads, fragmented ACL, notifications, "
             "ANCS, pairing); the ATT mix: the same generator with `--mix att` (GATT discovery, Device Information "
             "reads, battery notifications, ANCS split over notifications)",
             f"- bletrace times are the median of {repeat} runs, peak RSS the largest of them; each tshark command runs once", "",
             "| command | wall s | M records/s | peak RSS MB | output |", "|---|---:|---:|---:|---:|"]
    for name, wall, rss, nbytes, code, n in rows:
        lines.append(f"| `{name}` | {wall:.2f} | {n / wall / 1e6:.2f} | {rss / 1024:.1f} | {fmt_bytes(nbytes)} |")
    lines += ["", "| ratio (same run) | measured | target |", "|---|---:|---:|"]
    for label, ratio, target in ratios:
        lines.append(f"| {label} | {ratio:.1f}x | {f'{target}x' if target else '—'} |")
    lines.append(f"| full decode rate (`--summary-only`) | {rate / 1e6:.2f} M rec/s | 2.00 M rec/s |")
    att_records, att_acl, att_wall, att_rate = att
    lines.append(f"| full decode rate, ATT capture ({att_records:,} records, {att_acl * 100:.0f} % ACL) | "
                 f"{att_rate / 1e6:.2f} M rec/s | 2.00 M rec/s |")
    if allocs:
        lines += ["", "Heap allocations per record after start-up (calls to malloc and the other allocation functions, "
                  "counted by `scripts/alloc/malloc-count.c`: 100,000 records less 20,000; `scripts/alloc-budget.sh` "
                  "checks the budgets in CI):", "",
                  "| capture | command | allocations per record | target |", "|---|---|---:|---:|"]
        for mix, name, n, calls in allocs:
            lines.append(f"| {mix} | `analyze {name}` | {calls / n:.2f} | {'0.5' if 'summary' in name else '1'} |")
    if scale:
        lines += ["", "Memory with a file 5 times larger:", "", "| output | wall s | peak RSS MB |", "|---|---:|---:|"]
        for name, wall, rss in scale:
            lines.append(f"| {name} (5x) | {wall:.2f} | {rss / 1024:.1f} |")
    path = os.path.join(ROOT, "docs", "performance.md")
    notes = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
        marker = "\n## Notes"
        if marker in text:
            notes = text[text.index(marker):]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n" + notes)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
