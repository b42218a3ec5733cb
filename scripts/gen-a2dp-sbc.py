#!/usr/bin/env python3
"""Make a btsnoop capture of an A2DP stream carrying a known tone as real SBC frames, with planted losses.

    python3 scripts/gen-a2dp-sbc.py OUT.btsnoop [--freq 1000] [--seconds 2] [--rate 44100] [--mono]
        [--amplitude 16000] [--bitpool 53] [--frames-per-packet 5] [--lose SEQ[,SEQ...]] [--stall SEQ:MS[,...]]
        [--stray-frame SEQ] [--misconfigure] [--fragment N] [--reconfigure RATE [--reconfigure-bitpool B]
        [--reconfigure-via reconfigure|close] [--reject-first] [--reject-only]] [--start-mid-stream [--no-connection-complete]]

The tone is written as a Sun .au file, encoded with `sbcenc` (Debian sbc-tools) and cut into frames by their
headers. The capture is what the source's host sends (H4 btsnoop): a BR/EDR connection, an AVDTP signaling
channel (Discover, Get Capabilities, Set Configuration for the SBC configuration used, Open, Start), a media channel, then one RTP media packet
every frames-per-packet frame intervals, timestamped at the audio's own rate.

Planted problems: --lose drops the packets with those RTP sequence numbers (their time passes, their
sequence numbers are skipped); --stall delays the packet with sequence SEQ, and everything after it, by MS
milliseconds (the source stalled: an underrun); --stray-frame replaces that packet's first frame with a frame
whose bitpool is outside the negotiated range; --misconfigure negotiates 48 kHz while the frames are at the
tone's rate. --fragment N sends each frame in N packets instead (A2DP 1.4 4.3.4: media payload header with F,
S on the first and L on the last, the count of fragments left; every fragment of a frame has its timestamp;
--frames-per-packet is ignored, --lose then names fragments' sequence numbers and the JSON lists
"lost_frames", the frames a lost fragment spoiled, and "fragment_records").
--reconfigure RATE: after the --seconds of tone at --rate, the source changes the stream's configuration and
sends --seconds more of the tone at RATE (and --reconfigure-bitpool, default --bitpool): Suspend, Reconfigure
with the new SBC configuration, Start (AVDTP 1.3 8.9, 8.13, 8.15); with --reconfigure-via close: Close, the
media channel disconnected, Set Configuration, Open, a new media channel, Start. RTP sequence numbers go on;
timestamps start again at 0. --reject-first: before the change that is accepted, the source asks for 32 kHz and
the sink rejects it (Reconfigure or Set Configuration rejected: unsupported configuration): the
configuration in force does not change; --reject-only (with Suspend and Reconfigure): that rejected request is the
only one, so the stream goes on in its first configuration (give --reconfigure the same rate). The JSON then has "segments": for each configuration its rate, bitpool, packets,
frames, samples and first and last record.
--start-mid-stream: the capture begins while the stream plays, as a phone's log often does: after the
Connection Complete come the media packets, with no L2CAP channel setup and no AVDTP signaling before them
(with --reconfigure the change is made on that signaling channel, whose opening the capture does not hold
either). The JSON then also has "first_record", "last_record" and "frames" of the media.
--no-connection-complete (with --start-mid-stream): the log began after the link came up too, so the media
packets are the whole capture.
Prints one JSON line with what was planted, for the tests to compare against.
"""

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

EPOCH_DELTA = 0x00DCDDB30F2F8000  # btsnoop: microseconds from year 0 to 1970


def sbc_frame_length(h):
    freq = h[1] >> 6
    blocks = 4 * (((h[1] >> 4) & 3) + 1)
    mode = (h[1] >> 2) & 3
    subbands = 8 if h[1] & 1 else 4
    bitpool = h[2]
    channels = 1 if mode == 0 else 2
    if mode in (0, 1):
        bits = blocks * channels * bitpool
    elif mode == 2:
        bits = blocks * bitpool
    else:
        bits = subbands + blocks * bitpool
    return 4 + (4 * subbands * channels) // 8 + (bits + 7) // 8, blocks * subbands, freq


def split_frames(data):
    frames, i = [], 0
    while i + 4 <= len(data):
        if data[i] != 0x9C:
            raise SystemExit("sbcenc output lost sync at byte %d" % i)
        n, samples, freq = sbc_frame_length(data[i:i + 4])
        frames.append(data[i:i + n])
        i += n
    return frames


def tone_au(path, freq, seconds, rate, channels, amplitude):
    """The tone as a Sun .au file (16-bit big-endian linear PCM), the input sbcenc reads."""
    n = int(seconds * rate)
    out = bytearray()
    for i in range(n):
        v = int(round(amplitude * math.sin(2 * math.pi * freq * i / rate)))
        out += struct.pack(">h", v) * channels
    with open(path, "wb") as f:
        f.write(b".snd" + struct.pack(">IIIII", 24, len(out), 3, rate, channels) + bytes(out))


class Capture:
    def __init__(self):
        self.records = []
        self.t = 1_700_000_000_000_000

    def add(self, h4, received, command_or_event, advance_us=1000):
        self.t += advance_us
        flags = (1 if received else 0) | (2 if command_or_event else 0)
        self.records.append((self.t, flags, bytes(h4)))
        return len(self.records)

    def acl(self, handle, cid, payload, received=False, advance_us=1000):
        l2 = struct.pack("<HH", len(payload), cid) + bytes(payload)
        return self.add(b"\x02" + struct.pack("<HH", handle | 0x2000, len(l2)) + l2, received, False, advance_us)

    def write(self, path):
        with open(path, "wb") as f:
            f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
            for t, flags, data in self.records:
                f.write(struct.pack(">IIIIq", len(data), len(data), flags, 0, t + EPOCH_DELTA) + data)


def signal(code, ident, data):
    return bytes([code, ident]) + struct.pack("<H", len(data)) + bytes(data)


def configure(c, handle, local, remote, ident):
    """L2CAP configuration both ways (no options): the host's request and the peer's answer, then the peer's."""
    c.acl(handle, 1, signal(0x04, ident, struct.pack("<HH", remote, 0)))
    c.acl(handle, 1, signal(0x05, ident, struct.pack("<HHH", local, 0, 0)), received=True)
    c.acl(handle, 1, signal(0x04, ident + 1, struct.pack("<HH", local, 0)), received=True)
    c.acl(handle, 1, signal(0x05, ident + 1, struct.pack("<HHH", remote, 0, 0)))


def encode(tmp, name, freq, seconds, rate, mono, amplitude, bitpool):
    """The tone at `rate` through sbcenc: its SBC frames."""
    au, sbc = os.path.join(tmp, name + ".au"), os.path.join(tmp, name + ".sbc")
    tone_au(au, freq, seconds, rate, 1 if mono else 2, amplitude)
    with open(sbc, "wb") as f:
        subprocess.run(["sbcenc", "-s", "8", "-B", "16", "-b", str(bitpool)] + ([] if mono else ["-j"]) + [au], stdout=f, check=True)
    return split_frames(open(sbc, "rb").read())


def media_channel(c, handle, ident):
    """The media channel: local CID 0x0042, peer 0x01B4."""
    c.acl(handle, 1, signal(0x02, ident, struct.pack("<HH", 0x0019, 0x0042)))
    c.acl(handle, 1, signal(0x03, ident, struct.pack("<HHHH", 0x01B4, 0x0042, 0, 0)), received=True)
    configure(c, handle, 0x0042, 0x01B4, ident + 13)


def reconfigured(c, a, handle, ident, first_sequence, start):
    """The stream suspended (or closed), configured anew at --reconfigure, started again; then its packets."""
    rate, bitpool = a.reconfigure, a.reconfigure_bitpool or a.bitpool
    with tempfile.TemporaryDirectory() as tmp:
        frames = encode(tmp, "second", a.freq, a.seconds, rate, a.mono, a.amplitude, bitpool)
    config = sbc_config(rate, a.mono, bitpool, False)
    codec = bytes([0x07, 0x06, 0x00, 0x00]) + config
    c.t = max(c.t, int(start))
    unsupported = bytes([0x07, 0x06, 0x00, 0x00]) + sbc_config(32000, a.mono, bitpool, False)
    if a.reconfigure_via == "reconfigure":
        c.acl(handle, 0x01B3, bytes([0x50, 0x09, 0x04]), advance_us=20_000)          # Suspend
        c.acl(handle, 0x0041, bytes([0x52, 0x09]), received=True)
        if a.reject_first or a.reject_only:
            c.acl(handle, 0x01B3, bytes([0x90, 0x05, 0x04]) + unsupported)         # Reconfigure, rejected
            c.acl(handle, 0x0041, bytes([0x93, 0x05, 0x07, 0x29]), received=True)
        if not a.reject_only:
            c.acl(handle, 0x01B3, bytes([0x60, 0x05, 0x04]) + codec)               # Reconfigure
            c.acl(handle, 0x0041, bytes([0x62, 0x05]), received=True)
    else:
        c.acl(handle, 0x01B3, bytes([0x50, 0x08, 0x04]), advance_us=20_000)          # Close
        c.acl(handle, 0x0041, bytes([0x52, 0x08]), received=True)
        c.acl(handle, 1, signal(0x06, ident, struct.pack("<HH", 0x01B4, 0x0042)))   # media channel disconnected
        c.acl(handle, 1, signal(0x07, ident, struct.pack("<HH", 0x01B4, 0x0042)), received=True)
        if a.reject_first:
            c.acl(handle, 0x01B3, bytes([0x90, 0x03, 0x04, 0x04, 0x01, 0x00]) + unsupported)  # Set Configuration, rejected
            c.acl(handle, 0x0041, bytes([0x93, 0x03, 0x07, 0x29]), received=True)
        c.acl(handle, 0x01B3, bytes([0x60, 0x03, 0x04, 0x04, 0x01, 0x00]) + codec)  # Set Configuration
        c.acl(handle, 0x0041, bytes([0x62, 0x03]), received=True)
        c.acl(handle, 0x01B3, bytes([0x70, 0x06, 0x04]))                           # Open
        c.acl(handle, 0x0041, bytes([0x72, 0x06]), received=True)
        media_channel(c, handle, ident + 1)
    c.acl(handle, 0x01B3, bytes([0x80, 0x07, 0x04]))                               # Start
    c.acl(handle, 0x0041, bytes([0x82, 0x07]), received=True)
    n = a.frames_per_packet
    packet_us = n * 128 * 1_000_000 / rate
    start = c.t + 10_000
    segment = {"rate": rate, "bitpool": bitpool, "packets": 0, "frames": 0, "first_record": None, "last_record": None}
    for k in range(0, len(frames) // n):
        seq = (first_sequence + k) & 0xFFFF
        chunk = frames[k * n:(k + 1) * n]
        rtp = struct.pack(">BBHII", 0x80, 0x60, seq, k * n * 128, 1)
        r = c.acl(handle, 0x01B4, rtp + bytes([len(chunk)]) + b"".join(chunk), advance_us=int(start + k * packet_us) - c.t)
        segment["first_record"] = segment["first_record"] or r
        segment["last_record"] = r
        segment["packets"] += 1
        segment["frames"] += len(chunk)
    segment["samples"] = segment["frames"] * 128
    return segment


def sbc_config(rate, mono, bitpool, misconfigure):
    freq_bit = {16000: 0x80, 32000: 0x40, 44100: 0x20, 48000: 0x10}[48000 if misconfigure else rate]
    mode_bit = 0x08 if mono else 0x01          # mono, or joint stereo
    b1 = 0x10 | 0x04 | 0x01                    # 16 blocks, 8 subbands, loudness
    return bytes([freq_bit | mode_bit, b1, 2, bitpool])


def setup(c, a, handle):
    """The AVDTP signaling channel, discovery, Set Configuration, Open, the media channel and Start."""
    # AVDTP signaling channel: local CID 0x0041, peer 0x01B3.
    c.acl(handle, 1, signal(0x02, 7, struct.pack("<HH", 0x0019, 0x0041)))
    c.acl(handle, 1, signal(0x03, 7, struct.pack("<HHHH", 0x01B3, 0x0041, 0, 0)), received=True)
    configure(c, handle, 0x0041, 0x01B3, 20)
    # Discover (one audio sink end-point, SEID 1) and its capabilities: SBC, every option, bitpool 2..53.
    c.acl(handle, 0x01B3, bytes([0x00, 0x01]))
    c.acl(handle, 0x0041, bytes([0x02, 0x01, 0x04, 0x08]), received=True)
    c.acl(handle, 0x01B3, bytes([0x10, 0x02, 0x04]))
    c.acl(handle, 0x0041, bytes([0x12, 0x02, 0x01, 0x00, 0x07, 0x06, 0x00, 0x00, 0xFF, 0xFF, 0x02, max(53, a.bitpool)]), received=True)
    config = sbc_config(a.rate, a.mono, a.bitpool, a.misconfigure)
    c.acl(handle, 0x01B3, bytes([0x20, 0x03, 0x04, 0x04, 0x01, 0x00, 0x07, 0x06, 0x00, 0x00]) + config)
    c.acl(handle, 0x0041, bytes([0x22, 0x03]), received=True)
    c.acl(handle, 0x01B3, bytes([0x30, 0x06, 0x04]))
    c.acl(handle, 0x0041, bytes([0x32, 0x06]), received=True)
    # Media channel: local 0x0042, peer 0x01B4.
    media_channel(c, handle, 9)
    c.acl(handle, 0x01B3, bytes([0x40, 0x07, 0x04]))
    c.acl(handle, 0x0041, bytes([0x42, 0x07]), received=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--freq", type=float, default=1000)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--amplitude", type=int, default=16000, help="peak sample value (0: digital silence)")
    ap.add_argument("--rate", type=int, default=44100, choices=[16000, 32000, 44100, 48000])
    ap.add_argument("--mono", action="store_true")
    ap.add_argument("--bitpool", type=int, default=53)
    ap.add_argument("--frames-per-packet", type=int, default=5)
    ap.add_argument("--lose", default="")
    ap.add_argument("--stall", default="")
    ap.add_argument("--stray-frame", type=int, default=None)
    ap.add_argument("--misconfigure", action="store_true")
    ap.add_argument("--first-sequence", type=int, default=100)
    ap.add_argument("--fragment", type=int, default=0)
    ap.add_argument("--reconfigure", type=int, default=None, choices=[16000, 32000, 44100, 48000])
    ap.add_argument("--reconfigure-bitpool", type=int, default=None)
    ap.add_argument("--reconfigure-via", choices=["reconfigure", "close"], default="reconfigure")
    ap.add_argument("--reject-first", action="store_true")
    ap.add_argument("--reject-only", action="store_true")
    ap.add_argument("--start-mid-stream", action="store_true")
    ap.add_argument("--no-connection-complete", action="store_true")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wav, sbc = os.path.join(tmp, "tone.au"), os.path.join(tmp, "tone.sbc")
        tone_au(wav, a.freq, a.seconds, a.rate, 1 if a.mono else 2, a.amplitude)
        args = ["sbcenc", "-s", "8", "-B", "16", "-b", str(a.bitpool)] + ([] if a.mono else ["-j"]) + [wav]
        with open(sbc, "wb") as f:
            subprocess.run(args, stdout=f, check=True)
        frames = split_frames(open(sbc, "rb").read())
        stray = None
        if a.stray_frame is not None:
            # The same tone at a bitpool outside the negotiated range (2..bitpool).
            with open(os.path.join(tmp, "stray.sbc"), "wb") as f:
                subprocess.run(["sbcenc", "-s", "8", "-B", "16", "-b", str(a.bitpool + 10)] + ([] if a.mono else ["-j"]) + [wav],
                               stdout=f, check=True)
            stray = split_frames(open(os.path.join(tmp, "stray.sbc"), "rb").read())

    lose = {int(x) for x in a.lose.split(",") if x}
    stalls = {int(k): int(v) for k, v in (x.split(":") for x in a.stall.split(",") if x)}
    c = Capture()
    handle = 0x000C
    peer = bytes([0xCC, 0xBB, 0xAA, 0x66, 0x1B, 0x00])
    if not a.no_connection_complete:
        c.add(b"\x04\x03\x0B\x00" + struct.pack("<H", handle) + peer + b"\x01\x00", True, True)
    if not a.start_mid_stream:
        setup(c, a, handle)
    if a.fragment > 1:
        fragmented(c, a, handle, frames, lose)
        return
    n = a.frames_per_packet
    samples_per_frame = 128
    packet_us = n * samples_per_frame * 1_000_000 / a.rate
    start = c.t + 10_000
    delay = 0
    planted = {"lost": [], "stalls": [], "stray": [], "packets": 0, "frames_per_packet": [], "records": {}}
    for k in range(0, len(frames) // n):
        seq = (a.first_sequence + k) & 0xFFFF
        if seq in stalls:
            delay += stalls[seq] * 1000
        if seq in lose:
            planted["lost"].append(seq)
            continue
        chunk = frames[k * n:(k + 1) * n]
        if stray is not None and seq == a.stray_frame:
            chunk = [stray[k * n]] + chunk[1:]
        rtp = struct.pack(">BBHII", 0x80, 0x60, seq, k * n * samples_per_frame, 1)
        payload = rtp + bytes([len(chunk)]) + b"".join(chunk)
        when = int(start + k * packet_us + delay)
        r = c.acl(handle, 0x01B4, payload, advance_us=when - c.t)
        planted["records"][seq] = r
        if seq in stalls:
            planted["stalls"].append({"sequence": seq, "record": r, "ms": stalls[seq]})
        if stray is not None and seq == a.stray_frame:
            planted["stray"].append(r)
        planted["packets"] += 1
        planted["frames_per_packet"].append(len(chunk))
    if a.reconfigure:
        first = {"rate": a.rate, "bitpool": a.bitpool, "packets": planted["packets"], "frames": sum(planted["frames_per_packet"]),
                 "first_record": min(planted["records"].values()), "last_record": max(planted["records"].values())}
        first["samples"] = first["frames"] * samples_per_frame
        end = start + (len(frames) // n) * packet_us + delay
        planted["segments"] = [first, reconfigured(c, a, handle, 11, (a.first_sequence + len(frames) // n) & 0xFFFF, end)]
    c.write(a.out)
    planted["frame_bytes"] = len(frames[0])
    # Each run of lost packets is found at the first packet after it.
    after = []
    for s in sorted(planted["lost"]):
        if (s + 1) & 0xFFFF not in lose and (s + 1) & 0xFFFF in planted["records"]:
            after.append(planted["records"][(s + 1) & 0xFFFF])
    planted["lost_records_after"] = after
    if a.start_mid_stream:
        planted["first_record"] = min(planted["records"].values())
        planted["last_record"] = max(planted["records"].values())
        planted["frames"] = sum(planted["frames_per_packet"])
    del planted["records"]
    print(json.dumps(planted))


def fragmented(c, a, handle, frames, lose):
    """Each frame in --fragment packets, sent over its frame interval; lost fragments spoil their frame."""
    n = a.fragment
    frame_us = 128 * 1_000_000 / a.rate
    start = c.t + 10_000
    planted = {"lost": [], "lost_frames": [], "packets": 0, "frames": len(frames), "fragment_records": [], "lost_records_after": []}
    seq = a.first_sequence
    pending_after = False
    for k, f in enumerate(frames):
        size = -(-len(f) // n)
        parts = [f[i:i + size] for i in range(0, len(f), size)]
        for j, part in enumerate(parts):
            s = seq & 0xFFFF
            seq += 1
            if s in lose:
                planted["lost"].append(s)
                if k not in planted["lost_frames"]:
                    planted["lost_frames"].append(k)
                pending_after = True
                continue
            mph = 0x80 | (0x40 if j == 0 else 0) | (0x20 if j == len(parts) - 1 else 0) | (len(parts) - j)
            rtp = struct.pack(">BBHII", 0x80, 0x60, s, k * 128, 1)
            when = int(start + k * frame_us + j * frame_us / len(parts))
            r = c.acl(handle, 0x01B4, rtp + bytes([mph]) + part, advance_us=when - c.t)
            planted["fragment_records"].append(r)
            planted["packets"] += 1
            if pending_after:
                planted["lost_records_after"].append(r)
                pending_after = False
    c.write(a.out)
    planted["frame_bytes"] = len(frames[0])
    print(json.dumps(planted))


if __name__ == "__main__":
    main()
