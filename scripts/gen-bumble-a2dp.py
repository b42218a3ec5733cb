#!/usr/bin/env python3
"""Make a btsnoop capture of a real A2DP SBC stream with Bumble (PyPI `bumble`): two Bumble hosts on virtual
controllers joined by Bumble's local link, a BR/EDR connection, AVDTP discovery, configuration, Open and Start
done by Bumble's own AVDTP, and the media packetised by Bumble's SbcPacketSource from an SBC file (made by
`sbcenc` from a tone, as gen-a2dp-sbc.py makes it). The source host's HCI traffic is written as the capture.

    python3 scripts/gen-bumble-a2dp.py OUT.btsnoop [--freq 1000] [--seconds 1]

44.1 kHz joint stereo, 16 blocks, 8 subbands, loudness, bitpool 53. Prints one JSON line: the SBC frames made.

Bumble paces the packets in real time, so the capture takes as long as the audio.
"""

import argparse
import asyncio
import importlib.util
import json
import os
import subprocess
import tempfile

from bumble.a2dp import A2DP_SBC_CODEC_TYPE, SbcMediaCodecInformation, SbcPacketSource
from bumble.avdtp import AVDTP_AUDIO_MEDIA_TYPE, Listener, MediaCodecCapabilities, MediaPacketPump, Protocol
from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.device import Device, DeviceConfiguration
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink


def capabilities():
    return MediaCodecCapabilities(
        media_type=AVDTP_AUDIO_MEDIA_TYPE,
        media_codec_type=A2DP_SBC_CODEC_TYPE,
        media_codec_information=SbcMediaCodecInformation(
            sampling_frequency=SbcMediaCodecInformation.SamplingFrequency.SF_44100,
            channel_mode=SbcMediaCodecInformation.ChannelMode.JOINT_STEREO,
            block_length=SbcMediaCodecInformation.BlockLength.BL_16,
            subbands=SbcMediaCodecInformation.Subbands.S_8,
            allocation_method=SbcMediaCodecInformation.AllocationMethod.LOUDNESS,
            minimum_bitpool_value=2,
            maximum_bitpool_value=53,
        ),
    )


async def main(out_path, sbc_path):
    link = LocalLink()
    addresses = ["F0:F0:F0:F0:F0:F0", "F1:F1:F1:F1:F1:F1"]
    devices = []
    for i, a in enumerate(addresses):
        controller = Controller(f"C{i}", link=link, public_address=a)
        config = DeviceConfiguration()
        config.classic_enabled = True
        config.address = Address(a)
        d = Device(config=config, host=Host(controller, AsyncPipeSink(controller)))
        devices.append(d)
    source, sink = devices
    out = open(out_path, "wb")
    source.host.snooper = BtSnooper(out)
    for d in devices:
        await d.power_on()
    await sink.set_discoverable(True)
    await sink.set_connectable(True)

    listener = Listener.for_device(sink)
    listener.on("connection", lambda protocol: protocol.add_sink(capabilities()))

    connection = await source.connect(addresses[1], transport=PhysicalTransport.BR_EDR)
    protocol = await Protocol.connect(connection)
    sbc = open(sbc_path, "rb")

    async def read(n):
        return sbc.read(n)

    pump = MediaPacketPump(SbcPacketSource(read, protocol.l2cap_channel.peer_mtu).packets)
    local = protocol.add_source(capabilities(), pump)
    await protocol.discover_remote_endpoints()
    remote = protocol.find_remote_sink_by_codec(AVDTP_AUDIO_MEDIA_TYPE, A2DP_SBC_CODEC_TYPE)
    stream = await protocol.create_stream(local, remote)
    await stream.start()
    await pump.completed.wait()
    await stream.stop()
    await asyncio.sleep(0.1)
    out.close()


def tone_sbc(path, freq, seconds):
    """The tone through gen-a2dp-sbc.py's .au writer and sbcenc; returns the number of SBC frames."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gen_a2dp_sbc", os.path.join(here, "gen-a2dp-sbc.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with tempfile.TemporaryDirectory() as tmp:
        au = os.path.join(tmp, "tone.au")
        gen.tone_au(au, freq, seconds, 44100, 2, 16000)
        with open(path, "wb") as f:
            subprocess.run(["sbcenc", "-s", "8", "-B", "16", "-b", "53", "-j", au], stdout=f, check=True)
    with open(path, "rb") as f:
        return len(gen.split_frames(f.read()))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--freq", type=float, default=1000)
    ap.add_argument("--seconds", type=float, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sbc = os.path.join(tmp, "tone.sbc")
        frames = tone_sbc(sbc, a.freq, a.seconds)
        asyncio.run(main(a.out, sbc))
    print(json.dumps({"frames": frames}))
