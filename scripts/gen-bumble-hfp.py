#!/usr/bin/env python3
"""Make a btsnoop capture of HFP voice with Bumble (PyPI `bumble`): two Bumble hosts on virtual controllers joined
by Bumble's local link, a BR/EDR connection, Bumble's own HFP service level connection over RFCOMM (AT+BRSF,
AT+BAC, indicators …), the gateway's codec negotiation (+BCS / AT+BCS for mSBC), the eSCO link set up by the
gateway with Bumble's Enhanced Setup Synchronous Connection parameters for mSBC T2 (linear PCM at 16 kHz over
HCI: the controller would encode mSBC), then a tone sent by the gateway's host as HCI SCO data, 60-byte packets
every 1.875 ms. The gateway's HCI traffic is written as the capture.

    python3 scripts/gen-bumble-hfp.py OUT.btsnoop [--freq 1000] [--seconds 1]

What a Bumble capture can and cannot show: Bumble's virtual controller does not carry SCO data over its link
(it drops the host's SCO packets), and its Synchronous Connection Complete reports air mode 0x00 whatever was
asked; so the capture holds the sent direction only, and the Enhanced Setup command is what says how the bytes
are coded. Prints one JSON line: the samples sent and the packets.
"""

import argparse
import asyncio
import json
import logging
import math
import struct

from bumble import hci, hfp, rfcomm
from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.device import Device, DeviceConfiguration
from bumble.hci import Address
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper
from bumble.transport.common import AsyncPipeSink


def hf_configuration():
    return hfp.HfConfiguration(
        supported_hf_features=[hfp.HfFeature.CODEC_NEGOTIATION, hfp.HfFeature.ESCO_S4_SETTINGS_SUPPORTED],
        supported_hf_indicators=[],
        supported_audio_codecs=[hfp.AudioCodec.CVSD, hfp.AudioCodec.MSBC],
    )


def ag_configuration():
    return hfp.AgConfiguration(
        supported_ag_features=[hfp.AgFeature.CODEC_NEGOTIATION, hfp.AgFeature.ESCO_S4_SETTINGS_SUPPORTED],
        supported_ag_indicators=[
            hfp.AgIndicatorState.call(),
            hfp.AgIndicatorState.callsetup(),
            hfp.AgIndicatorState.service(),
        ],
        supported_hf_indicators=[],
        supported_ag_call_hold_operations=[],
        supported_audio_codecs=[hfp.AudioCodec.CVSD, hfp.AudioCodec.MSBC],
    )


async def main(out_path, freq, seconds):
    link = LocalLink()
    addresses = ["F0:F0:F0:F0:F0:F0", "F1:F1:F1:F1:F1:F1"]
    devices = []
    for i, a in enumerate(addresses):
        controller = Controller(f"C{i}", link=link, public_address=a)
        config = DeviceConfiguration()
        config.classic_enabled = True
        config.address = Address(a)
        devices.append(Device(config=config, host=Host(controller, AsyncPipeSink(controller))))
    ag_device, hf_device = devices
    out = open(out_path, "wb")
    ag_device.host.snooper = BtSnooper(out)
    for d in devices:
        await d.power_on()
    await hf_device.set_discoverable(True)
    await hf_device.set_connectable(True)

    # The hands-free listens on RFCOMM and runs its side of HFP once the gateway opens the channel.
    hf_ready = asyncio.get_running_loop().create_future()

    def on_dlc(dlc):
        hf = hfp.HfProtocol(dlc, hf_configuration())
        asyncio.create_task(hf.run())
        hf_ready.set_result(hf)

    server = rfcomm.Server(hf_device)
    channel = server.listen(on_dlc)

    # The HF accepts the gateway's eSCO request.
    def on_sco_request(connection, link_type):
        params = hfp.ESCO_PARAMETERS[hfp.DefaultCodecParameters.ESCO_MSBC_T2]
        asyncio.create_task(hf_device.send_command(
            hci.HCI_Enhanced_Accept_Synchronous_Connection_Request_Command(
                bd_addr=connection.peer_address, **params.asdict())))

    hf_device.on("sco_request", on_sco_request)

    connection = await ag_device.connect(addresses[1], transport=PhysicalTransport.BR_EDR)
    multiplexer = await rfcomm.Client(connection).start()
    dlc = await multiplexer.open_dlc(channel)
    ag = hfp.AgProtocol(dlc, ag_configuration())
    slc = asyncio.get_running_loop().create_future()
    ag.once("slc_complete", lambda: slc.set_result(None))
    await hf_ready
    await asyncio.wait_for(slc, 10)
    await ag.negotiate_codec(hfp.AudioCodec.MSBC)

    sco = asyncio.get_running_loop().create_future()
    ag_device.once("sco_connection", sco.set_result)
    params = hfp.ESCO_PARAMETERS[hfp.DefaultCodecParameters.ESCO_MSBC_T2]
    await ag_device.send_command(
        hci.HCI_Enhanced_Setup_Synchronous_Connection_Command(connection_handle=connection.handle, **params.asdict()))
    sco_link = await asyncio.wait_for(sco, 10)

    # 16 kHz 16-bit PCM (what the parameters put on HCI): 30 samples a packet, one every 1.875 ms.
    rate, per_packet = 16000, 30
    samples = [int(round(16000 * math.sin(2 * math.pi * freq * i / rate))) for i in range(int(seconds * rate))]
    loop = asyncio.get_running_loop()
    start = loop.time()
    packets = 0
    for k in range(0, len(samples) - per_packet + 1, per_packet):
        ag_device.host.send_sco_sdu(sco_link.handle, b"".join(struct.pack("<h", v) for v in samples[k:k + per_packet]))
        packets += 1
        delay = start + (packets * per_packet / rate) - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
    await asyncio.sleep(0.05)
    out.close()
    return {"samples": packets * per_packet, "packets": packets, "rate": rate, "sco_handle": sco_link.handle}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--freq", type=float, default=1000)
    ap.add_argument("--seconds", type=float, default=1)
    a = ap.parse_args()
    # The virtual controller warns about every SCO packet it drops.
    logging.getLogger("bumble.controller").setLevel(logging.ERROR)
    print(json.dumps(asyncio.run(main(a.out, a.freq, a.seconds))))
