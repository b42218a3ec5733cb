#!/usr/bin/env python3
"""Score bletrace's diagnoses against a hand-labelled corpus of real captures.

    python3 scripts/corpus.py --labels Tests/Corpus/diagnoses.tsv --captures /work/corpus \
        [--bletrace .build/release/bletrace] [--format text|markdown|json] [--verbose]

Every row of the labels file names a capture (column `file`) and its sha256. The capture is looked
up under --captures; a missing file is skipped and a file whose sha256 differs is skipped with a
warning. For each capture, `bletrace analyze FILE --format json --summary-only` is run and the
warning and error entries of `summary.diagnoses` are compared with the row's labels:

- a diagnosis is TRUE when a label with the same id matches it: the label's record is in the
  diagnosis' `evidence`, or between its `first_record` and `last_record`, or the label's record
  is `*`; otherwise it is FALSE;
- a label is FOUND when some warning/error diagnosis with its id matches it;
- a must_not violation is a warning/error diagnosis whose id is listed in the row's `must_not`
  column; when the item gives a record, that record must be one of the diagnosis' evidence records
  or its first or last record.

Precision per id is true / (true + false), recall is found / labels. The exit status is 0 unless
the arguments are bad (2).
"""

import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
from collections import OrderedDict, defaultdict

SEVERITIES = ("warning", "error")
TIMEOUT_S = 300


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_labels(text):
    """`id:RECORD@WHERE;...` -> list of dicts {id, record (int or '*'), where}."""
    out = []
    for item in (text or "").split(";"):
        item = item.strip()
        if not item:
            continue
        where = None
        if "@" in item:
            item, where = item.split("@", 1)
        if ":" in item:
            ident, rec = item.split(":", 1)
            rec = rec.strip()
            rec = "*" if rec in ("", "*") else int(rec)
        else:
            ident, rec = item, "*"
        out.append({"id": ident.strip(), "record": rec, "where": where})
    return out


def parse_must_not(text):
    """`id` or `id:RECORD` items -> list of (id, record or None): the labels' syntax without a place."""
    return [(l["id"], None if l["record"] == "*" else l["record"]) for l in parse_labels(text)]


def diag_records(d):
    ev = [r for r in (d.get("evidence") or []) if isinstance(r, int)]
    return ev, d.get("first_record"), d.get("last_record")


def record_matches(record, d):
    if record == "*":
        return True
    ev, first, last = diag_records(d)
    if record in ev:
        return True
    if isinstance(first, int) and isinstance(last, int) and first <= record <= last:
        return True
    if isinstance(first, int) and last is None and record == first:
        return True
    return False


def record_named(record, d):
    """A must_not record names a diagnosis when it is one of its evidence records or its first or
    last record (not merely inside its range: a grouped diagnosis can span the whole capture)."""
    ev, first, last = diag_records(d)
    return record in ev or record == first or record == last


def run_bletrace(binary, path):
    cmd = [binary, "analyze", path, "--format", "json", "--summary-only"]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT_S
    except OSError as e:
        return None, "could not run: %s" % e
    if proc.returncode not in (0, 1, 2):
        return None, "exit status %d: %s" % (proc.returncode,
                                             proc.stderr.decode("utf-8", "replace").strip()[:200])
    try:
        doc = json.loads(proc.stdout.decode("utf-8", "replace"))
    except ValueError as e:
        return None, "no JSON on stdout (exit %d): %s" % (proc.returncode, e)
    summary = doc.get("summary", doc) if isinstance(doc, dict) else {}
    diags = summary.get("diagnoses") or []
    return diags, None


def describe(d):
    ev, first, last = diag_records(d)
    return "%s[%s] records %s..%s evidence %s count %s peer %s" % (
        d.get("id"), d.get("severity"), first, last, ev[:8], d.get("count"), d.get("peer"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", required=True, help="the labels TSV")
    ap.add_argument("--captures", required=True, help="folder holding the capture files")
    ap.add_argument("--bletrace", default=".build/release/bletrace", help="bletrace binary")
    ap.add_argument("--format", default="text", choices=("text", "markdown", "json"))
    ap.add_argument("--verbose", action="store_true", help="list every false diagnosis and missed label")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if not os.path.isfile(args.labels):
        print("error: no labels file %s" % args.labels, file=sys.stderr)
        return 2
    if not os.path.isdir(args.captures):
        print("error: no captures folder %s" % args.captures, file=sys.stderr)
        return 2
    if not (os.path.isfile(args.bletrace) and os.access(args.bletrace, os.X_OK)):
        print("error: bletrace binary %s is not executable" % args.bletrace, file=sys.stderr)
        return 2

    with open(args.labels, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    need = {"file", "sha256", "labels", "must_not"}
    if rows and not need.issubset(rows[0].keys()):
        print("error: labels file lacks columns %s" % sorted(need - set(rows[0].keys())), file=sys.stderr)
        return 2

    per_id = defaultdict(lambda: {"true": 0, "false": 0, "labels": 0, "found": 0, "must_not": 0})
    false_list, missed_list, violations, failures, warnings = [], [], [], [], []
    missing = mismatched = scored = 0

    for row in rows:
        name = row["file"]
        path = os.path.join(args.captures, name)
        if not os.path.isfile(path):
            missing += 1
            continue
        if row.get("sha256") and sha256_of(path) != row["sha256"].strip().lower():
            mismatched += 1
            warnings.append("sha256 mismatch, skipped: %s" % name)
            continue
        try:
            labels = parse_labels(row.get("labels"))
            must_not = parse_must_not(row.get("must_not"))
        except ValueError as e:
            print("error: bad label in row %s: %s" % (name, e), file=sys.stderr)
            return 2
        diags, err = run_bletrace(args.bletrace, path)
        if diags is None:
            failures.append("%s: %s" % (name, err))
            continue
        scored += 1
        active = [d for d in diags if d.get("severity") in SEVERITIES]
        for lab in labels:
            per_id[lab["id"]]["labels"] += 1
            if any(d.get("id") == lab["id"] and record_matches(lab["record"], d) for d in active):
                per_id[lab["id"]]["found"] += 1
            else:
                missed_list.append({"file": name, "id": lab["id"], "record": lab["record"], "where": lab["where"]})
        for d in active:
            ident = d.get("id")
            if any(lab["id"] == ident and record_matches(lab["record"], d) for lab in labels):
                per_id[ident]["true"] += 1
            else:
                per_id[ident]["false"] += 1
                false_list.append({"file": name, "diagnosis": d, "text": describe(d)})
            for mid, mrec in must_not:
                if mid == ident and (mrec is None or record_named(mrec, d)):
                    per_id[ident]["must_not"] += 1
                    violations.append({"file": name, "must_not": "%s%s" % (mid, "" if mrec is None else ":%d" % mrec),
                                       "text": describe(d)})
                    break

    def ratio(a, b):
        return None if b == 0 else a / b

    ids = sorted(per_id)
    table = []
    for i in ids:
        c = per_id[i]
        table.append(OrderedDict([
            ("id", i), ("true", c["true"]), ("false", c["false"]),
            ("precision", ratio(c["true"], c["true"] + c["false"])),
            ("labels", c["labels"]), ("found", c["found"]),
            ("recall", ratio(c["found"], c["labels"])), ("must_not_violations", c["must_not"]),
        ]))
    tot = {k: sum(per_id[i][k] for i in ids) for k in ("true", "false", "labels", "found", "must_not")}
    totals = OrderedDict([
        ("captures_in_labels", len(rows)), ("captures_scored", scored), ("captures_missing", missing),
        ("captures_sha256_mismatch", mismatched), ("captures_failed", len(failures)),
        ("true", tot["true"]), ("false", tot["false"]), ("precision", ratio(tot["true"], tot["true"] + tot["false"])),
        ("labels", tot["labels"]), ("found", tot["found"]), ("recall", ratio(tot["found"], tot["labels"])),
        ("must_not_violations", tot["must_not"]),
    ])

    for w in warnings:
        print("warning: " + w, file=sys.stderr)
    for fl in failures:
        print("warning: bletrace failed on " + fl, file=sys.stderr)

    if args.format == "json":
        out = OrderedDict([("totals", totals), ("ids", table)])
        if args.verbose:
            out["false_diagnoses"] = [{"file": x["file"], "id": x["diagnosis"].get("id"),
                                       "severity": x["diagnosis"].get("severity"),
                                       "first_record": x["diagnosis"].get("first_record"),
                                       "last_record": x["diagnosis"].get("last_record"),
                                       "evidence": x["diagnosis"].get("evidence"),
                                       "title": x["diagnosis"].get("title")} for x in false_list]
            out["missed_labels"] = missed_list
            out["must_not_violations"] = [{"file": v["file"], "must_not": v["must_not"], "diagnosis": v["text"]}
                                          for v in violations]
            out["failures"] = failures
        print(json.dumps(out, indent=2))
        return 0

    def pct(x):
        return "-" if x is None else "%.0f%%" % (100 * x)

    head = ["id", "true", "false", "precision", "labels", "found", "recall", "must_not"]
    body = [[r["id"], r["true"], r["false"], pct(r["precision"]), r["labels"], r["found"], pct(r["recall"]),
             r["must_not_violations"]] for r in table]
    body.append(["TOTAL", tot["true"], tot["false"], pct(totals["precision"]), tot["labels"], tot["found"],
                 pct(totals["recall"]), tot["must_not"]])
    print("captures: %d in labels, %d scored, %d missing, %d sha256 mismatch, %d failed"
          % (len(rows), scored, missing, mismatched, len(failures)))
    print()
    if args.format == "markdown":
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" if i == 0 else "--:" for i in range(len(head))) + "|")
        for r in body:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        widths = [max(len(str(r[i])) for r in [head] + body) for i in range(len(head))]
        for r in [head] + body:
            print("  ".join(str(x).ljust(widths[i]) if i == 0 else str(x).rjust(widths[i]) for i, x in enumerate(r)))
    if violations:
        print()
        print("must_not violations: %d" % len(violations))
        for v in violations:
            print("  %s: %s -> %s" % (v["file"], v["must_not"], v["text"]))
    if args.verbose:
        print()
        print("false diagnoses: %d" % len(false_list))
        for x in false_list:
            print("  %s: %s" % (x["file"], x["text"]))
        print()
        print("missed labels: %d" % len(missed_list))
        for m in missed_list:
            print("  %s: %s:%s@%s" % (m["file"], m["id"], m["record"], m["where"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
