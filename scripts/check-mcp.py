#!/usr/bin/env python3
"""Drives `bletrace mcp` with PyPI's MCP client (mcp 2.x) and checks every tool's answer against the CLI.

  check-mcp.py BLETRACE CAPTURE [CAPTURE ...]

Starts the server over stdio the way an agent host does, lists the tools (their input schemas are checked as
JSON Schema with jsonschema when installed), then on each capture calls every tool and compares its
structured answer with the JSON the command line prints for the same question: analyze (with pieces joined),
every page of events, the records that diagnoses name (their bytes read back from btsnoop files by this
script), diagnoses, devices, gatt, diff, and triage_report on a store the CLI fills. Errors must be tool
errors carrying the CLI's stderr line. A second server with --redact --root and a small --max-bytes checks
forced redaction, the root, and paging at the byte limit. Prints one line per check; exits 1 on a mismatch
and 3 when the mcp package is missing (the caller skips then).
"""
import asyncio
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError:
    print("missing: mcp")
    sys.exit(3)

TOOLS = ["analyze", "events", "record", "diagnoses", "devices", "gatt", "diff", "triage_report"]
failures = []
counts = {}


def expect(ok, what):
    if not ok:
        failures.append(what)
        print("MISMATCH: " + what)


def tally(tool):
    counts[tool] = counts.get(tool, 0) + 1


def cli(bletrace, args, ok=(0, 1, 2)):
    r = subprocess.run([bletrace] + args, capture_output=True, text=True)
    if r.returncode not in ok:
        raise SystemExit(f"bletrace {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r


def cli_json(bletrace, args):
    return json.loads(cli(bletrace, args + ["-q"]).stdout)


def text_of(result):
    return result.content[0].text


async def call(session, tool, args):
    result = await session.call_tool(tool, args)
    tally(tool)
    return result


async def whole_document(session, tool, args):
    """A document tool's answer, its pieces joined when it came in pieces."""
    r = await call(session, tool, args)
    expect(not r.is_error, f"{tool} {args}: {text_of(r)[:200]}")
    if r.is_error:
        return None
    first = json.loads(text_of(r))
    if "piece" not in first:
        expect(r.structured_content == first, f"{tool}: structured content differs from the text")
        return first
    counts["pieces"] = counts.get("pieces", 0) + 1
    parts = [first["text"]]
    nxt = first["piece"]["next_byte_offset"]
    while nxt is not None:
        r = await call(session, tool, dict(args, byte_offset=nxt))
        piece = json.loads(text_of(r))
        parts.append(piece["text"])
        nxt = piece["piece"]["next_byte_offset"]
    return json.loads("".join(parts))


async def all_pages(session, tool, args, path, limit=None, max_bytes=None):
    """Every item of a paged list, following next_offset; checks each page's bookkeeping."""
    items, offset, total = [], 0, None
    while offset is not None:
        a = dict(args, offset=offset)
        if limit:
            a["limit"] = limit
        r = await call(session, tool, a)
        expect(not r.is_error, f"{tool} {a}: {text_of(r)[:200]}")
        if r.is_error:
            return None
        doc = r.structured_content
        page = doc["page"]
        if max_bytes is not None and page["returned"] > 1:
            expect(len(text_of(r).encode()) <= max_bytes + 64, f"{tool}: a page of {len(text_of(r))} bytes over --max-bytes {max_bytes}")
        got = doc
        for k in path:
            got = got[k]
        expect(page["offset"] == offset and page["returned"] == len(got), f"{tool}: page bookkeeping {page}")
        expect(total is None or page["total"] == total, f"{tool}: total changed between pages")
        total = page["total"]
        expect(page["returned"] > 0 or offset >= total, f"{tool}: an empty page before the end")
        items += got
        offset = page["next_offset"]
    expect(len(items) == total, f"{tool}: {len(items)} items for a total of {total}")
    return items


def btsnoop_record(path, number):
    """Record `number`'s bytes from a btsnoop file, without the H4 type byte (as bletrace shows them)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"btsnoop\0":
        return None
    datalink = struct.unpack(">I", data[12:16])[0]
    pos, n = 16, 0
    while pos + 24 <= len(data):
        _orig, incl, _flags, _drops, _ts = struct.unpack(">IIIIq", data[pos:pos + 24])
        pos += 24
        n += 1
        if n == number:
            rec = data[pos:pos + incl]
            return rec[1:] if datalink == 1002 else None
        pos += incl
    return None


async def check_capture(session, bletrace, capture):
    name = os.path.basename(capture)
    summary = cli_json(bletrace, ["analyze", capture, "--format", "json", "--summary-only"])
    got = await whole_document(session, "analyze", {"path": capture})
    expect(got == summary, f"{name}: analyze differs from analyze --format json --summary-only")

    diagnoses = await all_pages(session, "diagnoses", {"path": capture}, ["diagnoses"], limit=2)
    expect(diagnoses == summary["summary"]["diagnoses"], f"{name}: diagnoses differ")

    devices = cli_json(bletrace, ["devices", capture, "--format", "json"])
    got = await all_pages(session, "devices", {"path": capture}, ["devices", "devices"], limit=61)
    expect(got == devices["devices"]["devices"], f"{name}: devices differ")

    gatt = cli_json(bletrace, ["gatt", capture, "--format", "json"])
    got = await all_pages(session, "gatt", {"path": capture}, ["devices"], limit=1)
    expect(got == gatt["devices"], f"{name}: gatt differs")

    # Events: the whole timeline (for captures up to 5,000 records, else the first 5,000 records) in pages of
    # 1,000; and the ATT layer of the first 1,000 records in pages of 97. (Every page decodes the capture again.)
    records = summary["capture"]["records"]
    window = {} if records <= 5000 else {"records": "1-5000"}
    for filt, limit in [(window, 1000), ({"records": "1-1000", "layer": "att"}, 97)]:
        args = ["analyze", capture, "--format", "jsonl"]
        for k, v in filt.items():
            args += ["--" + k, v]
        lines = [json.loads(l) for l in cli(bletrace, args + ["-q"]).stdout.splitlines() if l]
        lines = [l for l in lines if l.get("kind") != "summary"]
        got = await all_pages(session, "events", dict(filt, path=capture), ["events"], limit=limit)
        expect(got == lines, f"{name}: events {filt} differ from analyze --format jsonl ({len(got or [])} vs {len(lines)})")

    # Records: the evidence of the diagnoses (at most five), else record 1.
    wanted = sorted({r for d in summary["summary"]["diagnoses"] for r in d.get("evidence", [])})[:5] or [1]
    for n in wanted:
        got = await whole_document(session, "record", {"path": capture, "record": n})
        if got is None:
            continue
        lines = [json.loads(l) for l in cli(bletrace, ["analyze", capture, "--records", str(n), "--format", "jsonl", "-q"]).stdout.splitlines() if l]
        expect(got["events"] == [l for l in lines if l.get("kind") != "summary"], f"{name}: record {n}'s events differ")
        expect(got["record"] == n, f"{name}: record {n} answered as {got['record']}")
        raw = btsnoop_record(capture, n)
        if raw is not None:
            expect(got["raw"] == raw.hex(), f"{name}: record {n}'s bytes differ from the file")
            expect(got["length"] == len(raw), f"{name}: record {n}'s length")


async def check_errors(session, bletrace, sample):
    cases = [
        ("analyze", {"path": "/nonexistent/capture.log"}, ["analyze", "/nonexistent/capture.log"]),
        ("events", {"path": sample, "records": "x-"}, ["analyze", sample, "--records", "x-"]),
        ("events", {"path": sample, "layer": "nope"}, ["analyze", sample, "--layer", "nope"]),
        ("events", {"path": sample, "from": 5, "to": 1}, ["analyze", sample, "--from", "5", "--to", "1"]),
        ("diff", {"a_path": sample, "b_path": sample, "ignore": "nope"}, ["diff", sample, sample, "--ignore", "nope"]),
        ("analyze", {"path": sample, "keys": "/nonexistent/keys.yaml"}, ["analyze", sample, "--keys", "/nonexistent/keys.yaml"]),
        ("triage_report", {"db": "/nonexistent/store.sqlite"}, ["triage", "--db", "/nonexistent/store.sqlite", "--report"]),
    ]
    for tool, args, cli_args in cases:
        r = await call(session, tool, args)
        line = cli(bletrace, cli_args).stderr.strip().splitlines()[-1]
        expect(r.is_error and text_of(r) == line, f"{tool} {args}: {text_of(r)!r}, the CLI says {line!r}")
    r = await call(session, "analyze", {"path": "-"})
    expect(r.is_error, "analyze of standard input must be refused")
    r = await call(session, "record", {"path": sample, "record": 10 ** 9})
    expect(r.is_error and "no record" in text_of(r), f"record past the end: {text_of(r)}")
    r = await call(session, "nope", {})
    expect(r.is_error, "an unknown tool must be a tool error")


async def check_triage(session, bletrace, captures, tmp):
    db = os.path.join(tmp, "store.sqlite")
    cli(bletrace, ["triage", "--db", db, "-q"] + captures, ok=(0, 1))
    report = cli_json(bletrace, ["triage", "--db", db, "--report", "--format", "json"])
    got = await all_pages(session, "triage_report", {"db": db}, ["captures"], limit=3)
    expect(got == report["captures"], "triage_report differs from triage --report --format json")
    return db


async def main():
    bletrace, captures = sys.argv[1], sys.argv[2:]
    bletrace = os.path.abspath(bletrace)
    with tempfile.TemporaryDirectory() as tmp:
        async with stdio_client(StdioServerParameters(command=bletrace, args=["mcp"])) as (r, w):
            async with ClientSession(r, w) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                expect([t.name for t in tools] == TOOLS, f"tools listed: {[t.name for t in tools]}")
                try:
                    import jsonschema
                    for t in tools:
                        jsonschema.Draft202012Validator.check_schema(t.input_schema)
                    print(f"schemas: {len(tools)} input schemas valid JSON Schema")
                except ImportError:
                    print("schemas: jsonschema not installed, not checked")
                for c in captures:
                    started = time.monotonic()
                    await check_capture(session, bletrace, c)
                    if os.environ.get("CHECK_MCP_TIMES"):
                        print(f"{time.monotonic() - started:7.1f} s {os.path.basename(c)}")
                pair = captures[:2] if len(captures) > 1 else captures * 2
                diff = cli_json(bletrace, ["diff", pair[0], pair[1], "--format", "json"])
                got = await whole_document(session, "diff", {"a_path": pair[0], "b_path": pair[1]})
                expect(got == diff, "diff differs from diff --format json")
                await check_errors(session, bletrace, captures[0])
                db = await check_triage(session, bletrace, captures, tmp)

        # Forced redaction, a root, and a byte limit small enough to page and cut everything.
        root = os.path.dirname(os.path.abspath(captures[0]))
        args = ["mcp", "--redact", "--root", root, "--root", tmp, "--max-bytes", "4096"]
        async with stdio_client(StdioServerParameters(command=bletrace, args=args)) as (r, w):
            async with ClientSession(r, w) as session:
                await session.initialize()
                c = os.path.abspath(captures[0])
                redacted = cli_json(bletrace, ["analyze", c, "--format", "json", "--summary-only", "--redact"])
                got = await whole_document(session, "analyze", {"path": c})
                expect(got == redacted, "analyze under --redact differs from analyze --redact")
                lines = [json.loads(l) for l in cli(bletrace, ["analyze", c, "--format", "jsonl", "--redact", "-q"]).stdout.splitlines() if l]
                got = await all_pages(session, "events", {"path": c}, ["events"], limit=1000, max_bytes=4096)
                expect(got == [l for l in lines if l.get("kind") != "summary"], "events under --redact differ from analyze --redact")
                got = await whole_document(session, "record", {"path": c, "record": 1})
                expect(got is not None and got["raw"] is None, "record under --redact must withhold the bytes")
                r = await call(session, "analyze", {"path": "/etc/hostname"})
                expect(r.is_error and "outside the folders" in text_of(r), f"a file outside --root: {text_of(r)}")
                r = await call(session, "triage_report", {"db": db})
                expect(r.is_error and "not redacted" in text_of(r), f"a plain store under --redact: {text_of(r)}")
    print("calls: " + ", ".join(f"{t} {counts.get(t, 0)}" for t in TOOLS))
    print(f"captures: {len(captures)} checked against the CLI; {counts.get('pieces', 0)} answers came in pieces")
    if failures:
        print(f"{len(failures)} mismatches")
        sys.exit(1)
    print("mcp: every answer matches the CLI")


asyncio.run(main())
