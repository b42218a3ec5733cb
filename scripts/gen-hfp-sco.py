#!/usr/bin/env python3
"""Make a btsnoop capture of an HFP voice stream over HCI SCO/eSCO carrying a known tone, with planted losses.

    python3 scripts/gen-hfp-sco.py OUT.btsnoop [--codec cvsd|cvsd-bits|msbc|lc3-swb] [--freq 1000] [--seconds 2] [--amplitude 16000]
        [--packet-bytes N] [--enhanced] [--no-negotiation] [--sent] [--flag PACKET:STATUS[,...]]
        [--gap PACKET:COUNT[,...]] [--lose-frames F[,...]] [--truncate-frame F] [--corrupt-frame F]

The capture is what the audio gateway's host (a phone) logs (H4 btsnoop): a BR/EDR connection, the HFP service
level connection's RFCOMM channel with the codec negotiation (+BCS from the gateway, AT+BCS from the hands-free),
the synchronous link set up (Setup Synchronous Connection with its voice setting, or with --enhanced the
Enhanced Setup Synchronous Connection with coding formats and the HCI data path) and completed with its air
mode, then SCO data packets of --packet-bytes bytes at the audio's own rate, received from the hands-free (or,
with --sent, sent to it).

--codec cvsd: CVSD air mode, linear input coding: HCI carries 16-bit PCM at 8 kHz (60-byte packets: 3.75 ms).
--codec cvsd-bits: transparent air mode, HFP codec 1: the host does CVSD, so HCI carries the 64 kbit/s bit
stream (8000 bytes a second, 60-byte packets: 7.5 ms). The tone is made at 64 kHz and encoded here by the
CVSD of Core 5.4 Vol 2 Part B 9.2 (J = K = 4, step 10 to 1280, step decay 1 - 1/1024, accumulator decay
1 - 1/32; bit 1 steps up), eight bits a byte, least significant first. With --enhanced the Enhanced Setup
names CVSD as the coding on the air and over HCI (8 bits, 8000 bytes a second).
--codec msbc: transparent air mode, HFP codec 2: the tone encoded by `sbcenc --msbc` (Debian sbc-tools) into
57-byte frames, each sent as H2 header (0x01 + 0x08/0x38/0xC8/0xF8) + frame + one pad byte = 60 bytes, the
byte stream cut into packets of --packet-bytes (24 makes frames span packets).
--codec lc3-swb: transparent air mode, HFP codec 3 (HFP 1.9 super-wideband speech): the tone made at 32 kHz and
encoded by liblc3 (through ctypes, as gen-lc3-iso.py does) into 58-byte frames of 7.5 ms (240 samples), each
sent as H2 header + frame = 60 bytes (no pad byte), cut into packets of --packet-bytes. With --enhanced the
Enhanced Setup names transparent data on the air and over HCI.

Planted problems (packet and frame numbers count from 0, before anything is dropped):
--flag PACKET:STATUS sets the packet status flag (1 possibly invalid, 2 no data: its bytes become zeros, 3
partially lost); --gap PACKET:COUNT drops COUNT packets from PACKET on while their time passes (an underrun);
--lose-frames drops mSBC frames from the byte stream (the H2 sequence skips them); --truncate-frame cuts that
frame to its first 28 bytes; --corrupt-frame spoils that frame's header CRC (the decoder refuses it; LC3-SWB:
the frame's 58 bytes all 0xFF, which liblc3 refuses).
Prints one JSON line with what was planted and where, for the tests to compare against.
"""

import argparse
import importlib.util
import json
import math
import os
import struct
import subprocess
import tempfile

EPOCH_DELTA = 0x00DCDDB30F2F8000  # btsnoop: microseconds from year 0 to 1970
H2 = [0x08, 0x38, 0xC8, 0xF8]


class Capture:
    def __init__(self):
        self.records = []
        self.t = 1_700_000_000_000_000

    def add(self, h4, received, command_or_event, advance_us=1000):
        self.t += advance_us
        flags = (1 if received else 0) | (2 if command_or_event else 0)
        self.records.append((self.t, flags, bytes(h4)))
        return len(self.records)

    def command(self, opcode, params):
        return self.add(b"\x01" + struct.pack("<HB", opcode, len(params)) + bytes(params), False, True)

    def event(self, code, params):
        return self.add(b"\x04" + bytes([code, len(params)]) + bytes(params), True, True)

    def acl(self, handle, cid, payload, received=False):
        l2 = struct.pack("<HH", len(payload), cid) + bytes(payload)
        return self.add(b"\x02" + struct.pack("<HH", handle | 0x2000, len(l2)) + l2, received, False)

    def sco(self, handle, status, data, received, at):
        return self.add(b"\x03" + struct.pack("<HB", handle | (status << 12), len(data)) + bytes(data), received, False,
                        advance_us=at - self.t)

    def write(self, path):
        with open(path, "wb") as f:
            f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
            for t, flags, data in self.records:
                f.write(struct.pack(">IIIIq", len(data), len(data), flags, 0, t + EPOCH_DELTA) + data)


def signal(code, ident, data):
    return bytes([code, ident]) + struct.pack("<H", len(data)) + bytes(data)


def rfcomm_uih(dlci, text, initiator):
    """An RFCOMM UIH frame on `dlci` carrying `text` (the FCS is not checked by readers of logs)."""
    info = text.encode()
    address = (dlci << 2) | (2 if initiator else 0) | 1
    return bytes([address, 0xEF, (len(info) << 1) | 1]) + info + b"\x00"


def tone(freq, seconds, rate, amplitude):
    n = int(seconds * rate)
    return [int(round(amplitude * math.sin(2 * math.pi * freq * i / rate))) for i in range(n)]


def cvsd_bytes(samples):
    """64 kHz samples encoded as CVSD bits (Core 5.4 Vol 2 Part B 9.2), packed least significant bit first."""
    step_min, step_max, beta, h = 10.0, 1280.0, 1 - 1 / 1024, 1 - 1 / 32
    estimate, step, history = 0.0, step_min, 0b1010
    out, byte = bytearray(), 0
    for i, x in enumerate(samples):
        b = 1 if x >= estimate else 0
        history = ((history << 1) | b) & 0xF
        step = min(step + step_min, step_max) if history in (0, 0xF) else max(step * beta, step_min)
        y = estimate + (step if b else -step)
        y = min(y, 32767.0) if y >= 0 else max(y, -32768.0)
        estimate = h * y
        byte |= b << (i % 8)
        if i % 8 == 7:
            out.append(byte)
            byte = 0
    return bytes(out)


def msbc_frames(samples):
    """The samples (16 kHz) encoded by sbcenc --msbc: a list of 57-byte frames."""
    with tempfile.TemporaryDirectory() as tmp:
        au, out = os.path.join(tmp, "tone.au"), os.path.join(tmp, "tone.msbc")
        pcm = b"".join(struct.pack(">h", v) for v in samples)
        with open(au, "wb") as f:
            f.write(b".snd" + struct.pack(">IIIII", 24, len(pcm), 3, 16000, 1) + pcm)
        with open(out, "wb") as f:
            subprocess.run(["sbcenc", "--msbc", au], stdout=f, check=True)
        data = open(out, "rb").read()
    frames = [data[i:i + 57] for i in range(0, len(data) - 56, 57)]
    if not frames or any(f[0] != 0xAD for f in frames):
        raise SystemExit("sbcenc --msbc did not write 57-byte mSBC frames")
    return frames


def lc3_swb_frames(samples_args):
    """The tone encoded by liblc3 as LC3-SWB: 58-byte frames of 7.5 ms at 32 kHz (gen-lc3-iso.py's encoder)."""
    spec = importlib.util.spec_from_file_location("gen_lc3_iso", os.path.join(os.path.dirname(__file__), "gen-lc3-iso.py"))
    lc3 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lc3)
    freq, seconds, amplitude = samples_args
    return lc3.lc3_frames(freq, seconds, 32000, 7500, 58, amplitude)


def story(c, a, acl, sco_handle, peer):
    """Connection, HFP codec negotiation over RFCOMM, the synchronous link's setup and completion."""
    c.event(0x03, b"\x00" + struct.pack("<H", acl) + peer + b"\x01\x00")
    if a.no_negotiation:
        c.event(0x2C, b"\x00" + struct.pack("<H", sco_handle) + peer + bytes([0x02, 12, 2]) + struct.pack("<HH", 60, 60)
                + bytes([0x02 if a.codec == "cvsd" else 0x03]))
        return
    # RFCOMM on PSM 3: local CID 0x0040, peer 0x0070; no configuration options.
    c.acl(acl, 1, signal(0x02, 3, struct.pack("<HH", 0x0003, 0x0040)))
    c.acl(acl, 1, signal(0x03, 3, struct.pack("<HHHH", 0x0070, 0x0040, 0, 0)), received=True)
    c.acl(acl, 1, signal(0x04, 4, struct.pack("<HH", 0x0070, 0)))
    c.acl(acl, 1, signal(0x05, 4, struct.pack("<HHH", 0x0040, 0, 0)), received=True)
    c.acl(acl, 1, signal(0x04, 5, struct.pack("<HH", 0x0040, 0)), received=True)
    c.acl(acl, 1, signal(0x05, 5, struct.pack("<HHH", 0x0070, 0, 0)))
    codec = {"msbc": 2, "lc3-swb": 3}.get(a.codec, 1)
    c.acl(acl, 0x0070, rfcomm_uih(2, "\r\n+BCS: %d\r\n" % codec, True))
    c.acl(acl, 0x0040, rfcomm_uih(2, "AT+BCS=%d\r" % codec, False), received=True)
    c.acl(acl, 0x0070, rfcomm_uih(2, "\r\nOK\r\n", True))
    transparent = a.codec != "cvsd"
    if a.enhanced:
        air = bytes([{"msbc": 0x05, "lc3-swb": 0x03}.get(a.codec, 0x02), 0, 0, 0, 0])  # mSBC, transparent or CVSD on the air
        # Over HCI: transparent (mSBC, LC3-SWB), CVSD bits, or linear PCM.
        host = bytes([{"msbc": 0x03, "lc3-swb": 0x03, "cvsd-bits": 0x02}.get(a.codec, 0x04), 0, 0, 0, 0])
        p = struct.pack("<H", acl) + struct.pack("<II", 8000, 8000) + air + air + struct.pack("<HH", 60 if transparent else 60, 60)
        p += struct.pack("<II", 8000 if transparent else 16000, 8000 if transparent else 16000) + host + host
        p += struct.pack("<HH", 8 if transparent else 16, 8 if transparent else 16)
        p += bytes([0 if transparent else 2, 0 if transparent else 2, 0, 0, 0, 0, 0, 0])   # PCM format, MSB, HCI data path, unit
        p += struct.pack("<HHB", 13, 0x0380 | 0x0008, 2)
        c.command(0x043D, p)
        c.event(0x0F, b"\x00\x01" + struct.pack("<H", 0x043D))
    else:
        voice = 0x0063 if transparent else 0x0060
        c.command(0x0428, struct.pack("<HIIHHBH", acl, 8000, 8000, 13, voice, 2, 0x0380 | 0x0008))
        c.event(0x0F, b"\x00\x01" + struct.pack("<H", 0x0428))
    c.event(0x2C, b"\x00" + struct.pack("<H", sco_handle) + peer + bytes([0x02, 12, 2]) + struct.pack("<HH", 60, 60)
            + bytes([0x03 if transparent else 0x02]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--codec", choices=["cvsd", "cvsd-bits", "msbc", "lc3-swb"], default="cvsd")
    ap.add_argument("--freq", type=float, default=1000)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--amplitude", type=int, default=16000)
    ap.add_argument("--packet-bytes", type=int, default=60)
    ap.add_argument("--enhanced", action="store_true")
    ap.add_argument("--no-negotiation", action="store_true", help="only the Synchronous Connection Complete")
    ap.add_argument("--sent", action="store_true", help="the host's own voice, sent to the controller")
    ap.add_argument("--flag", default="")
    ap.add_argument("--gap", default="")
    ap.add_argument("--lose-frames", default="")
    ap.add_argument("--truncate-frame", type=int, default=None)
    ap.add_argument("--corrupt-frame", type=int, default=None)
    a = ap.parse_args()

    flags = {int(k): int(v) for k, v in (x.split(":") for x in a.flag.split(",") if x)}
    gaps = {int(k): int(v) for k, v in (x.split(":") for x in a.gap.split(",") if x)}
    lose = {int(x) for x in a.lose_frames.split(",") if x}
    acl, sco_handle = 0x000B, 0x0101
    peer = bytes([0x56, 0x34, 0x12, 0x70, 0x1B, 0x00])
    c = Capture()
    story(c, a, acl, sco_handle, peer)

    planted = {"codec": a.codec, "flags": [], "gaps": [], "lost_frames": [], "truncated": [], "corrupt": []}
    # The byte stream, and for each byte the frame it belongs to (-1 for PCM).
    if a.codec == "cvsd":
        rate = 8000
        samples = tone(a.freq, a.seconds, rate, a.amplitude)
        stream = b"".join(struct.pack("<h", v) for v in samples)
        owner = [-1] * len(stream)
        bytes_per_second = 16000
        planted["samples"] = len(samples)
    elif a.codec == "cvsd-bits":
        rate = 8000
        stream = cvsd_bytes(tone(a.freq, a.seconds, 64000, a.amplitude))
        owner = [-1] * len(stream)
        bytes_per_second = 8000
        planted["samples"] = len(stream)
    else:
        swb = a.codec == "lc3-swb"
        rate = 32000 if swb else 16000
        frames = lc3_swb_frames((a.freq, a.seconds, a.amplitude)) if swb else msbc_frames(tone(a.freq, a.seconds, rate, a.amplitude))
        planted["frames"] = len(frames)
        planted["samples"] = len(frames) * (240 if swb else 120)
        stream, owner = bytearray(), []
        for i, f in enumerate(frames):
            if i in lose:
                continue
            f = bytearray(f)
            if a.corrupt_frame == i:
                if swb:
                    f = bytearray(b"\xff" * 58)   # no LC3 frame: liblc3 refuses it
                else:
                    f[4] ^= 0xFF            # the first scale factors: the header CRC no longer matches
            h = bytes([0x01, H2[i % 4]]) + bytes(f) + (b"" if swb else b"\x00")
            if a.truncate_frame == i:
                h = h[:30]
            stream += h
            owner += [i] * len(h)
        bytes_per_second = 8000
    n = a.packet_bytes
    packet_us = n * 1_000_000 / bytes_per_second
    start = c.t + 20_000
    frame_record = {}
    records = []
    k = 0
    dropped = 0
    while k * n < len(stream):
        if k in gaps:
            planted["gaps"].append({"packet": k + gaps[k], "packets": gaps[k], "ms": gaps[k] * packet_us / 1000})
            dropped = gaps[k]
        chunk = bytearray(stream[k * n:(k + 1) * n])
        if dropped > 0:
            dropped -= 1
            k += 1
            records.append(None)
            continue
        status = flags.get(k, 0)
        if status == 2:
            chunk = bytearray(len(chunk))
        r = c.sco(sco_handle, status, chunk, not a.sent, int(start + k * packet_us))
        records.append(r)
        if status:
            planted["flags"].append({"packet": k, "record": r, "status": status})
        for j in range(k * n, min(len(stream), (k + 1) * n)):
            if owner[j] >= 0 and owner[j] not in frame_record:
                frame_record[owner[j]] = r
        k += 1
    for g in planted["gaps"]:
        g["record"] = records[g["packet"]] if g["packet"] < len(records) else None
    if a.codec in ("msbc", "lc3-swb"):
        # Each run of lost frames is found at the first frame after it.
        for f in sorted(lose):
            if f + 1 not in lose:
                nxt = f + 1
                planted["lost_frames"].append({"frame": f, "record_after": frame_record.get(nxt)})
        if a.truncate_frame is not None:
            planted["truncated"].append(frame_record.get(a.truncate_frame))
        if a.corrupt_frame is not None:
            planted["corrupt"].append(frame_record.get(a.corrupt_frame))
    planted["packets"] = sum(1 for r in records if r is not None)
    planted["packet_us"] = packet_us
    planted["rate"] = rate
    planted["sco_handle"] = sco_handle
    c.write(a.out)
    print(json.dumps(planted))


if __name__ == "__main__":
    main()
