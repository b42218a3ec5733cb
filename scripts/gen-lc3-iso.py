#!/usr/bin/env python3
"""Make a btsnoop capture of an LE Audio unicast stream (LC3 over a CIS) carrying a known tone, with planted gaps.

    python3 scripts/gen-lc3-iso.py OUT.btsnoop [--freq 440] [--seconds 1] [--rate 48000] [--frame-us 10000]
        [--octets 100] [--drop SDU[,...]] [--lost SDU[,...]] [--truncate SDU]

The capture is what the unicast client's host (a phone, the central) logs (H4 btsnoop): an LE connection, the
ASCS service and its Sink ASE characteristic discovered, the Sink ASE notified in Codec Configured (LC3 with the
sampling frequency, frame duration, Front Left allocation, octets per frame and one block per SDU as LTVs), QoS
Configured (CIG 1, CIS 1) and Streaming; LE Set CIG Parameters with its CIS handle, LE Create CIS, LE CIS
Established, LE Setup ISO Data Path (input, HCI); then one ISO data packet per SDU interval sent to the
controller, each SDU one LC3 frame of the tone encoded by liblc3 (through ctypes).

Planted problems (SDU numbers count from 0): --drop removes those SDUs' packets while their time passes (the
ISO packet sequence numbers skip them); --lost sends them with packet status 2 and no data (as a controller
reports a lost SDU); --truncate cuts that SDU to half its frame. Prints one JSON line with what was planted and
where (record numbers in the capture written), for the tests to compare against.
"""

import argparse
import ctypes
import ctypes.util
import importlib.util
import json
import math
import os
import struct

# The btsnoop writer of the HFP generator (one writer for both).
_spec = importlib.util.spec_from_file_location("gen_hfp_sco", os.path.join(os.path.dirname(__file__), "gen-hfp-sco.py"))
_hfp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_hfp)
Capture = _hfp.Capture


def lc3_frames(freq, seconds, rate, frame_us, octets, amplitude=16000):
    """The tone encoded by liblc3 into frames of `octets` bytes."""
    name = ctypes.util.find_library("lc3") or "liblc3.so.1"
    for n in (name, "liblc3.so.1", "liblc3.so.0", "liblc3.so"):
        try:
            lib = ctypes.CDLL(n)
            break
        except OSError:
            lib = None
    if lib is None:
        raise SystemExit("liblc3 not found")
    lib.lc3_setup_encoder.restype = ctypes.c_void_p
    lib.lc3_setup_encoder.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    lib.lc3_encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    mem = ctypes.create_string_buffer(lib.lc3_encoder_size(frame_us, rate))
    enc = lib.lc3_setup_encoder(frame_us, rate, 0, mem)
    n = lib.lc3_frame_samples(frame_us, rate)
    frames = []
    for k in range(int(round(seconds * 1_000_000 / frame_us))):
        pcm = (ctypes.c_int16 * n)(*[int(amplitude * math.sin(2 * math.pi * freq * (k * n + i) / rate)) for i in range(n)])
        out = ctypes.create_string_buffer(octets)
        if lib.lc3_encode(enc, 0, pcm, 1, octets, out) != 0:
            raise SystemExit("lc3_encode failed")
        frames.append(out.raw)
    return frames


def le_meta(c, sub, params):
    return c.event(0x3E, bytes([sub]) + bytes(params))


def att(c, acl, pdu, received):
    return c.acl(acl, 0x0004, pdu, received=received)


def story(c, args, acl, cis_handle, peer):
    """The connection, discovery, the ASE's states and the CIS set up; returns the Codec Configured record."""
    rate_code = {8000: 1, 16000: 3, 24000: 5, 32000: 6, 44100: 7, 48000: 8}[args.rate]
    le_meta(c, 0x01, [0x00] + list(struct.pack("<H", acl)) + [0x00, 0x01] + peer + [24, 0, 0, 0, 0x90, 0x01, 0x00])
    # Primary service and characteristic discovery: ASCS (0x184E) with its Sink ASE (0x2BC4) and CCCD.
    att(c, acl, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28], False)
    att(c, acl, [0x11, 0x06, 0x01, 0x00, 0x04, 0x00, 0x4E, 0x18], True)
    att(c, acl, [0x08, 0x01, 0x00, 0x04, 0x00, 0x03, 0x28], False)
    att(c, acl, [0x09, 0x07, 0x02, 0x00, 0x12, 0x03, 0x00, 0xC4, 0x2B], True)
    att(c, acl, [0x12, 0x04, 0x00, 0x01, 0x00], False)
    att(c, acl, [0x13], True)
    ltv = bytes([2, 0x01, rate_code, 2, 0x02, 0 if args.frame_us == 7500 else 1, 5, 0x03, 1, 0, 0, 0,
                 3, 0x04]) + struct.pack("<H", args.octets) + bytes([2, 0x05, 1])
    pd = struct.pack("<I", 40000)[:3]
    configured = bytes([1, 1, 0, 2, 2]) + struct.pack("<H", 20) + pd + pd + pd + pd + bytes([0x06, 0, 0, 0, 0, len(ltv)]) + ltv
    codec_record = att(c, acl, [0x1B, 0x03, 0x00] + list(configured), True)
    sdu = struct.pack("<I", args.frame_us)[:3]
    att(c, acl, [0x1B, 0x03, 0x00] + list(bytes([1, 2, 1, 1]) + sdu + bytes([0, 2]) + struct.pack("<H", args.octets)
                                          + bytes([2]) + struct.pack("<H", 20) + pd), True)
    # LE Set CIG Parameters (CIG 1, CIS 1), its CIS handle; LE Create CIS on the ACL; CIS Established.
    c.command(0x2062, bytes([1]) + sdu + sdu + bytes([0, 0, 0]) + struct.pack("<HH", 20, 20) + bytes([1, 1])
              + struct.pack("<HH", args.octets, 0) + bytes([2, 2, 2, 2]))
    c.event(0x0E, bytes([1, 0x62, 0x20, 0x00, 1, 1]) + struct.pack("<H", cis_handle))
    c.command(0x2064, bytes([1]) + struct.pack("<HH", cis_handle, acl))
    c.event(0x0F, bytes([0x00, 1, 0x64, 0x20]))
    le_meta(c, 0x19, [0x00] + list(struct.pack("<H", cis_handle)) + [0x10, 0x27, 0, 0x10, 0x27, 0, 0x10, 0x27, 0, 0x10, 0x27, 0,
                                                                     2, 2, 1, 1, 0, 1, 1] + list(struct.pack("<HHH", args.octets, 0, args.frame_us // 1250)))
    c.command(0x206E, struct.pack("<H", cis_handle) + bytes([0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]))
    c.event(0x0E, bytes([1, 0x6E, 0x20, 0x00]) + struct.pack("<H", cis_handle))
    att(c, acl, [0x1B, 0x03, 0x00, 1, 4, 1, 1, 0], True)
    return codec_record


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--freq", type=float, default=440)
    p.add_argument("--seconds", type=float, default=1)
    p.add_argument("--rate", type=int, default=48000)
    p.add_argument("--frame-us", type=int, default=10000)
    p.add_argument("--octets", type=int, default=100)
    p.add_argument("--drop", default="")
    p.add_argument("--lost", default="")
    p.add_argument("--truncate", type=int, default=-1)
    args = p.parse_args()
    drop = {int(x) for x in args.drop.split(",") if x}
    lost = {int(x) for x in args.lost.split(",") if x}
    frames = lc3_frames(args.freq, args.seconds, args.rate, args.frame_us, args.octets)
    c = Capture()
    acl, cis_handle, peer = 0x0040, 0x0060, [0x56, 0x34, 0x12, 0x00, 0x00, 0xC0]
    codec_record = story(c, args, acl, cis_handle, peer)
    start = c.t + 5000
    planted = {"codec_record": codec_record, "sdus": len(frames), "records": [], "dropped": [], "lost": [], "truncated": None}
    previous = None
    for i, f in enumerate(frames):
        at = start + i * args.frame_us
        if i in drop:
            planted["dropped"].append({"sdu": i, "previous_record": previous})
            continue
        status, data = (2, b"") if i in lost else (0, f[: len(f) // 2] if i == args.truncate else f)
        load = struct.pack("<HH", i & 0xFFFF, len(data) | (status << 14)) + data
        r = c.add(b"\x05" + struct.pack("<HH", cis_handle | 0x2000, len(load)) + load, False, False, advance_us=at - c.t)
        planted["records"].append(r)
        for d in planted["dropped"]:
            if d.get("record") is None and d["sdu"] < i:
                d["record"] = r
        if i in lost:
            planted["lost"].append({"sdu": i, "record": r})
        if i == args.truncate:
            planted["truncated"] = {"sdu": i, "record": r}
        previous = r
    c.event(0x05, bytes([0x00]) + struct.pack("<H", cis_handle) + bytes([0x16]))
    c.write(args.out)
    print(json.dumps(planted))


if __name__ == "__main__":
    main()
