#!/usr/bin/env python3
"""Make a btsnoop capture of an LE Audio stream (LC3 over a CIS, or with --broadcast over two BISes) carrying a
known tone, with planted gaps.

    python3 scripts/gen-lc3-iso.py OUT.btsnoop [--freq 440] [--seconds 1] [--rate 48000] [--frame-us 10000]
        [--octets 100] [--drop SDU[,...]] [--lost SDU[,...]] [--truncate SDU] [--broadcast [--freq2 660]]

The capture is what the unicast client's host (a phone, the central) logs (H4 btsnoop): an LE connection, the
ASCS service and its Sink ASE characteristic discovered, the Sink ASE notified in Codec Configured (LC3 with the
sampling frequency, frame duration, Front Left allocation, octets per frame and one block per SDU as LTVs), QoS
Configured (CIG 1, CIS 1) and Streaming; LE Set CIG Parameters with its CIS handle, LE Create CIS, LE CIS
Established, LE Setup ISO Data Path (input, HCI); then one ISO data packet per SDU interval sent to the
controller, each SDU one LC3 frame of the tone encoded by liblc3 (through ctypes).

--broadcast: what a broadcast sink's host logs instead: LE Periodic Advertising Create Sync and its Sync
Established, a Periodic Advertising Report carrying the BASE (one LC3 subgroup with the sampling frequency,
frame duration and octets per frame; BIS 1 Front Left, BIS 2 Front Right in their own configurations), LE BIG
Create Sync for BIS 1 and 2, LE BIG Sync Established with their handles, LE Setup ISO Data Path (output,
HCI) for each, then each SDU interval one ISO data packet received on each BIS: --freq on BIS 1, --freq2 on
BIS 2. The planted problems below apply to BIS 2 only; the JSON then has "bis_handles" and "bis1_records".
--no-base: the periodic advertising report carries flags only (no BASE: the BISes have no configuration).

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


def send_sdu(c, planted, handle, i, frame, lost, truncate, received, advance_us):
    """ISO data packet with SDU `i` on `handle`, or what the run plants in its place (a lost SDU: status 2, no
    data; the truncated one: half its frame), noted in `planted`; returns its record."""
    status, data = (2, b"") if i in lost else (0, frame[: len(frame) // 2] if i == truncate else frame)
    load = struct.pack("<HH", i & 0xFFFF, len(data) | (status << 14)) + data
    r = c.add(b"\x05" + struct.pack("<HH", handle | 0x2000, len(load)) + load, received, False, advance_us=advance_us)
    planted["records"].append(r)
    for d in planted["dropped"]:
        if d.get("record") is None and d["sdu"] < i:
            d["record"] = r
    if i in lost:
        planted["lost"].append({"sdu": i, "record": r})
    if i == truncate:
        planted["truncated"] = {"sdu": i, "record": r}
    return r


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


def story_broadcast(c, args, bis_handles, advertiser, sync_handle=0x0001, big=0x00):
    """Periodic sync, the BASE, the BIG sync and the data paths; returns the BASE's record."""
    rate_code = {8000: 1, 16000: 3, 24000: 5, 32000: 6, 44100: 7, 48000: 8}[args.rate]
    c.command(0x2044, bytes([0x00, 0x01, 0x01]) + bytes(advertiser) + struct.pack("<HHB", 0, 100, 0))
    c.event(0x0F, bytes([0x00, 1]) + struct.pack("<H", 0x2044))
    le_meta(c, 0x0E, [0x00] + list(struct.pack("<H", sync_handle)) + [0x01, 0x01] + advertiser + [0x02, 0x60, 0x00, 0x00])
    level2 = bytes([2, 0x01, rate_code, 2, 0x02, 0 if args.frame_us == 7500 else 1, 3, 0x04]) + struct.pack("<H", args.octets)
    base = struct.pack("<I", 40000)[:3] + bytes([1, len(bis_handles), 0x06, 0, 0, 0, 0, len(level2)]) + level2 + bytes([0])
    for i in range(len(bis_handles)):
        level3 = bytes([5, 0x03]) + struct.pack("<I", 1 << i)          # Front Left, Front Right
        base += bytes([i + 1, len(level3)]) + level3
    ad = bytes([len(base) + 3, 0x16, 0x51, 0x18]) + base if not args.no_base else bytes([2, 0x01, 0x06])
    base_record = le_meta(c, 0x0F, list(struct.pack("<H", sync_handle)) + [0x7F, 0xC4, 0xFF, 0x00, len(ad)] + list(ad))
    c.command(0x206B, bytes([big]) + struct.pack("<H", sync_handle) + bytes([0]) + bytes(16) + bytes([0])
              + struct.pack("<H", 100) + bytes([len(bis_handles)]) + bytes(range(1, len(bis_handles) + 1)))
    c.event(0x0F, bytes([0x00, 1]) + struct.pack("<H", 0x206B))
    le_meta(c, 0x1D, [0x00, big] + list(struct.pack("<I", 20000)[:3]) + [2, 1, 0, 2] + list(struct.pack("<HH", args.octets, args.frame_us // 1250))
            + [len(bis_handles)] + [b for h in bis_handles for b in struct.pack("<H", h)])
    for h in bis_handles:
        c.command(0x206E, struct.pack("<H", h) + bytes([1, 0, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]))
        c.event(0x0E, bytes([1, 0x6E, 0x20, 0x00]) + struct.pack("<H", h))
    return base_record


def broadcast(args, drop, lost):
    """Two BISes of one BIG, received: BIS 1 clean, BIS 2 with the planted problems."""
    frames = [lc3_frames(args.freq, args.seconds, args.rate, args.frame_us, args.octets),
              lc3_frames(args.freq2, args.seconds, args.rate, args.frame_us, args.octets)]
    c = Capture()
    bis_handles, advertiser = [0x0010, 0x0011], [0x66, 0x55, 0x44, 0x33, 0x22, 0xC1]
    base_record = story_broadcast(c, args, bis_handles, advertiser)
    start = c.t + 5000
    planted = {"base_record": base_record, "bis_handles": bis_handles, "sdus": len(frames[0]), "records": [], "bis1_records": [],
               "dropped": [], "lost": [], "truncated": None}
    previous = None
    for i in range(len(frames[0])):
        at = start + i * args.frame_us
        load = struct.pack("<HH", i & 0xFFFF, len(frames[0][i])) + frames[0][i]
        r = c.add(b"\x05" + struct.pack("<HH", bis_handles[0] | 0x2000, len(load)) + load, True, False, advance_us=at - c.t)
        planted["bis1_records"].append(r)
        if i in drop:
            planted["dropped"].append({"sdu": i, "previous_record": previous})
            continue
        f = frames[1][i]
        previous = send_sdu(c, planted, bis_handles[1], i, f, lost, args.truncate, True, 100)
    c.command(0x206C, bytes([0x00]))                                   # LE BIG Terminate Sync: BIG 0
    c.event(0x0E, bytes([1, 0x6C, 0x20, 0x00, 0x00]))
    c.write(args.out)
    print(json.dumps(planted))


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
    p.add_argument("--broadcast", action="store_true")
    p.add_argument("--freq2", type=float, default=660)
    p.add_argument("--no-base", action="store_true", help="--broadcast: the periodic advertising carries no BASE")
    args = p.parse_args()
    drop = {int(x) for x in args.drop.split(",") if x}
    lost = {int(x) for x in args.lost.split(",") if x}
    if args.broadcast:
        broadcast(args, drop, lost)
        return
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
        previous = send_sdu(c, planted, cis_handle, i, f, lost, args.truncate, False, at - c.t)
    c.event(0x05, bytes([0x00]) + struct.pack("<H", cis_handle) + bytes([0x16]))
    c.write(args.out)
    print(json.dumps(planted))


if __name__ == "__main__":
    main()
