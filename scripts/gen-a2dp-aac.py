#!/usr/bin/env python3
"""Make a btsnoop capture of an A2DP stream carrying a known tone as real AAC frames, with planted losses.

    python3 scripts/gen-a2dp-aac.py OUT.btsnoop [--freq 1000] [--seconds 2] [--rate 44100] [--mono]
        [--bitrate 128000] [--framing latm|latm-out-of-band|adts] [--mux-version 0|1] [--mux-every N]
        [--subframes N] [--mtu BYTES] [--lose SEQ[,SEQ...]] [--negotiate-rate RATE] [--first-sequence N]
        [--ms-timestamps]

The tone is made and encoded by ffmpeg's native AAC encoder (AAC LC, ADTS output), then cut into access units by
the ADTS headers. The capture is what the source's host sends (H4 btsnoop), as scripts/gen-a2dp-sbc.py writes it:
a BR/EDR connection, AVDTP signaling (Discover, Get Capabilities, Set Configuration for MPEG-2,4 AAC, Open,
Start), a media channel, then one RTP packet per AudioMuxElement, timestamped in samples at the audio's rate.

--framing latm (default) sends RFC 3016 AudioMuxElements with muxConfigPresent 1: a StreamMuxConfig (audioMuxVersion
--mux-version) in every --mux-every-th element, useSameStreamMux in the others; latm-out-of-band sends them with
muxConfigPresent 0 (no StreamMuxConfig); adts sends the ADTS frames as they are. --subframes N puts N access
units in each element (numSubFrames N-1; ADTS: N frames per packet). --mtu splits an element longer than that
many payload bytes over several packets, one timestamp, the RTP marker bit on the last (and on every whole one).
--lose drops the packets with those RTP sequence numbers; a lost fragment spoils its element.
--negotiate-rate negotiates another sampling rate than the frames carry (a configuration mismatch).
--ms-timestamps stamps packets in milliseconds instead of samples (as Bumble's AAC packet source does).
Prints one JSON line with what was planted, for the tests to compare against: "frames" (access units sent in
whole elements), "frames_made", "packets", "lost" (sequence numbers), "lost_frames" (access units spoiled),
"lost_records_after" (the first record after each run of lost packets), "fragment_records", "elements",
"fragmented_elements" (elements sent whole in several packets).
"""

import argparse
import importlib.util
import json
import os
import struct
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gen_a2dp_sbc", os.path.join(here, "gen-a2dp-sbc.py"))
sbc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sbc)

RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
A2DP_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]


class Bits:
    def __init__(self):
        self.value, self.count = 0, 0

    def put(self, v, n):
        self.value = (self.value << n) | (v & ((1 << n) - 1))
        self.count += n

    def latm_value(self, v):
        n = max(1, (v.bit_length() + 7) // 8)
        self.put(n - 1, 2)
        self.put(v, 8 * n)

    def bytes(self):
        pad = (8 - self.count % 8) % 8
        return (self.value << pad).to_bytes((self.count + pad) // 8, "big")


def adts_frames(data):
    """(header, raw access unit) per ADTS frame."""
    out, i = [], 0
    while i + 7 <= len(data):
        if data[i] != 0xFF or data[i + 1] & 0xF0 != 0xF0:
            raise SystemExit("ffmpeg's ADTS output lost sync at byte %d" % i)
        header = 7 if data[i + 1] & 1 else 9
        length = ((data[i + 3] & 3) << 11) | (data[i + 4] << 3) | (data[i + 5] >> 5)
        out.append((data[i:i + header], data[i + header:i + length]))
        i += length
    return out


def audio_specific_config(b, rate, channels):
    b.put(2, 5)                      # audioObjectType: AAC LC
    b.put(RATES.index(rate), 4)
    b.put(channels, 4)
    b.put(0, 3)                      # GASpecificConfig: frameLengthFlag, dependsOnCoreCoder, extensionFlag


def stream_mux_config(b, rate, channels, version, subframes):
    b.put(version, 1)
    if version == 1:
        b.put(0, 1)                  # audioMuxVersionA
        b.latm_value(0xFF)           # taraBufferFullness
    b.put(1, 1)                      # allStreamsSameTimeFraming
    b.put(subframes - 1, 6)
    b.put(0, 4)                      # numProgram
    b.put(0, 3)                      # numLayer
    if version == 1:
        asc = Bits()
        audio_specific_config(asc, rate, channels)
        b.latm_value(asc.count)
        b.put(asc.value, asc.count)
    else:
        audio_specific_config(b, rate, channels)
    b.put(0, 3)                      # frameLengthType
    b.put(0xFF, 8)                   # latmBufferFullness
    b.put(0, 1)                      # otherDataPresent
    b.put(0, 1)                      # crcCheckPresent


def latm_element(units, in_band, with_config, rate, channels, version):
    b = Bits()
    if in_band:
        b.put(0 if with_config else 1, 1)
        if with_config:
            stream_mux_config(b, rate, channels, version, len(units))
    for u in units:
        n = len(u)
        while n >= 255:
            b.put(255, 8)
            n -= 255
        b.put(n, 8)
        for byte in u:
            b.put(byte, 8)
    return b.bytes()


def aac_config(rate, mono, bitrate):
    field = 0x800 >> A2DP_RATES.index(rate)
    return bytes([0x80, field >> 4, ((field & 0xF) << 4) | (0x08 if mono else 0x04),
                  0x80 | ((bitrate >> 16) & 0x7F), (bitrate >> 8) & 0xFF, bitrate & 0xFF])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--freq", type=float, default=1000)
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--rate", type=int, default=44100, choices=[16000, 22050, 24000, 32000, 44100, 48000])
    ap.add_argument("--mono", action="store_true")
    ap.add_argument("--bitrate", type=int, default=128000)
    ap.add_argument("--framing", default="latm", choices=["latm", "latm-out-of-band", "adts"])
    ap.add_argument("--mux-version", type=int, default=0, choices=[0, 1])
    ap.add_argument("--mux-every", type=int, default=1)
    ap.add_argument("--subframes", type=int, default=1)
    ap.add_argument("--mtu", type=int, default=0)
    ap.add_argument("--lose", default="")
    ap.add_argument("--negotiate-rate", type=int, default=None, choices=A2DP_RATES)
    ap.add_argument("--first-sequence", type=int, default=100)
    ap.add_argument("--ms-timestamps", action="store_true")
    a = ap.parse_args()
    channels = 1 if a.mono else 2

    with tempfile.TemporaryDirectory() as tmp:
        adts = os.path.join(tmp, "tone.aac")
        subprocess.run(["ffmpeg", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
                        "sine=frequency=%g:sample_rate=%d:duration=%g" % (a.freq, a.rate, a.seconds),
                        "-ac", str(channels), "-c:a", "aac", "-b:a", str(a.bitrate), "-f", "adts", adts], check=True)
        frames = adts_frames(open(adts, "rb").read())

    lose = {int(x) for x in a.lose.split(",") if x}
    c = sbc.Capture()
    handle = 0x000C
    peer = bytes([0xCC, 0xBB, 0xAA, 0x66, 0x1B, 0x00])
    c.add(b"\x04\x03\x0B\x00" + struct.pack("<H", handle) + peer + b"\x01\x00", True, True)
    c.acl(handle, 1, sbc.signal(0x02, 7, struct.pack("<HH", 0x0019, 0x0041)))
    c.acl(handle, 1, sbc.signal(0x03, 7, struct.pack("<HHHH", 0x01B3, 0x0041, 0, 0)), received=True)
    sbc.configure(c, handle, 0x0041, 0x01B3, 20)
    # Discover (one audio sink, SEID 1), its capabilities (AAC: MPEG-2/4 AAC LC, 44.1 and 48 kHz, 1 or 2
    # channels, VBR), then Set Configuration for one of each.
    c.acl(handle, 0x01B3, bytes([0x00, 0x01]))
    c.acl(handle, 0x0041, bytes([0x02, 0x01, 0x04, 0x08]), received=True)
    c.acl(handle, 0x01B3, bytes([0x10, 0x02, 0x04]))
    caps = bytes([0xC0, 0x01, 0x8C, 0x80 | 0x03, 0xE8, 0x00])
    c.acl(handle, 0x0041, bytes([0x12, 0x02, 0x01, 0x00, 0x07, 0x08, 0x00, 0x02]) + caps, received=True)
    config = aac_config(a.negotiate_rate or a.rate, a.mono, a.bitrate)
    c.acl(handle, 0x01B3, bytes([0x20, 0x03, 0x04, 0x04, 0x01, 0x00, 0x07, 0x08, 0x00, 0x02]) + config)
    c.acl(handle, 0x0041, bytes([0x22, 0x03]), received=True)
    c.acl(handle, 0x01B3, bytes([0x30, 0x06, 0x04]))
    c.acl(handle, 0x0041, bytes([0x32, 0x06]), received=True)
    c.acl(handle, 1, sbc.signal(0x02, 9, struct.pack("<HH", 0x0019, 0x0042)))
    c.acl(handle, 1, sbc.signal(0x03, 9, struct.pack("<HHHH", 0x01B4, 0x0042, 0, 0)), received=True)
    sbc.configure(c, handle, 0x0042, 0x01B4, 22)
    c.acl(handle, 0x01B3, bytes([0x40, 0x07, 0x04]))
    c.acl(handle, 0x0041, bytes([0x42, 0x07]), received=True)

    n = a.subframes
    element_us = n * 1024 * 1_000_000 / a.rate
    start = c.t + 10_000
    seq = a.first_sequence
    planted = {"frames_made": len(frames), "frames": 0, "packets": 0, "elements": 0, "lost": [], "lost_frames": [],
               "lost_records_after": [], "fragment_records": [], "fragmented_elements": 0, "framing": a.framing, "rate": a.rate,
               "negotiated_rate": a.negotiate_rate or a.rate}
    after_loss = False
    for k in range(0, len(frames) // n):
        units = frames[k * n:(k + 1) * n]
        if a.framing == "adts":
            body = b"".join(h + u for h, u in units)
        else:
            body = latm_element([u for _, u in units], a.framing == "latm", k % a.mux_every == 0, a.rate, channels, a.mux_version)
        size = a.mtu if a.mtu > 0 else len(body)
        parts = [body[i:i + size] for i in range(0, len(body), size)]
        spoiled = False
        for j, part in enumerate(parts):
            s = seq & 0xFFFF
            seq += 1
            if s in lose:
                planted["lost"].append(s)
                spoiled = True
                after_loss = True
                continue
            marker = 0x80 if j == len(parts) - 1 else 0
            stamp = k * n * 1024 * 1000 // a.rate if a.ms_timestamps else k * n * 1024
            rtp = struct.pack(">BBHII", 0x80, marker | 0x60, s, stamp & 0xFFFFFFFF, 1)
            when = int(start + k * element_us + j * element_us / len(parts))
            r = c.acl(handle, 0x01B4, rtp + part, advance_us=when - c.t)
            planted["packets"] += 1
            if len(parts) > 1:
                planted["fragment_records"].append(r)
            if after_loss:
                planted["lost_records_after"].append(r)
                after_loss = False
        planted["elements"] += 1
        if spoiled:
            planted["lost_frames"] += list(range(k * n, (k + 1) * n))
        else:
            planted["frames"] += n
            planted["fragmented_elements"] += 1 if len(parts) > 1 else 0
    c.write(a.out)
    print(json.dumps(planted))


if __name__ == "__main__":
    main()
