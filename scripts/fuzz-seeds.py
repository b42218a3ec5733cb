#!/usr/bin/env python3
"""Builds seed corpora for the fuzz targets from samples/ and ../shared/captures (when present).

capture:    whole capture files (small ones)
packets:    the HCI packets of btsnoop (H4) files, re-encoded as `kind(1) length(2 LE) bytes`
ad:         advertising data taken from LE Advertising Report events
containers: gzip-compressed samples and a bugreport text holding a btsnooz section
"""
import base64
import glob
import gzip
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build-fuzz", "corpus")
MAX_SEED = 8 * 1024


def btsnoop_packets(data):
    """Yields (h4 type, received, payload) from a btsnoop 1002 file."""
    if data[:8] != b"btsnoop\0" or struct.unpack(">I", data[12:16])[0] != 1002:
        return
    off = 16
    while off + 24 <= len(data):
        _, incl, flags, _, _ = struct.unpack(">IIIIQ", data[off:off + 24])
        off += 24
        rec = data[off:off + incl]
        off += incl
        if len(rec) < 1:
            continue
        yield rec[0], flags & 1, rec[1:]


def main():
    for t in ("capture", "packets", "ad", "containers"):
        os.makedirs(os.path.join(OUT, t), exist_ok=True)
    files = sorted(glob.glob(os.path.join(ROOT, "samples", "*")))
    shared = os.path.join(os.path.dirname(ROOT), "shared", "captures")
    files += sorted(f for f in glob.glob(os.path.join(shared, "*")) if not f.endswith(".md"))
    n = {"capture": 0, "packets": 0, "ad": 0, "containers": 0}

    def put(target, name, blob):
        with open(os.path.join(OUT, target, name), "wb") as f:
            f.write(blob)
        n[target] += 1

    for path in files:
        data = open(path, "rb").read()
        base = os.path.basename(path)
        put("capture", base[:60], data[:MAX_SEED])
        seq = bytearray()
        kinds = {1: 0, 4: 1, 2: 2, 3: 3, 5: 4}
        for h4, received, payload in btsnoop_packets(data):
            if h4 in kinds and len(seq) < MAX_SEED:
                seq += bytes([kinds[h4] | (8 if received else 0)]) + struct.pack("<H", len(payload)) + payload
            if h4 == 4 and len(payload) > 14 and payload[0] == 0x3E and payload[2] == 0x02:
                length = payload[12]
                ad = payload[13:13 + length]
                if ad and n["ad"] < 300:
                    put("ad", f"{base[:40]}-{n['ad']}", ad)
        if seq:
            put("packets", base[:60], bytes(seq))
        if os.path.dirname(path).endswith("samples"):
            put("containers", base + ".gz", gzip.compress(data))
            if data[:8] == b"btsnoop\0":
                body = bytearray()
                snooz_type = {(1, 0): 0x20, (4, 1): 0x10, (2, 0): 0x21, (2, 1): 0x11}
                for h4, received, payload in btsnoop_packets(data):
                    t = snooz_type.get((h4, received))
                    if t is None:
                        continue
                    body += struct.pack("<HHIb", len(payload) + 1, len(payload) + 1, 1000, t) + payload
                snooz = struct.pack("<bQ", 2, 1_700_000_000_000_000) + zlib.compress(bytes(body))
                text = ("== dumpstate\n--- BEGIN:BTSNOOP_LOG_SUMMARY (x) ---\n"
                        + base64.encodebytes(snooz).decode() + "--- END:BTSNOOP_LOG_SUMMARY ---\n")
                put("containers", base + ".bugreport.txt", text.encode())
    print(" ".join(f"{k}={v}" for k, v in n.items()))


if __name__ == "__main__":
    main()
