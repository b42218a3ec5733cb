/// JSON of what a sniffer said about a packet: the `sniffer` layer (pseudo-header) and the `ll` layer
/// (access address, CRC, then the data PDU header or the advertising PDU).
extension LinkLayerFacts {
    /// Writes `sniffer` and `ll`; `extra` adds members at the end of `ll` (what the body adds).
    func writeLayers<S: FieldSink>(into s: inout S, _ extra: (inout S) -> Void = { _ in }) {
        if let info = sniffer {
            s.object("sniffer") { info.header.writeFields(into: &$0) }
        }
        guard let p = packet else { return }
        s.object("ll") { s in
            s.field("access_address", Int(p.accessAddress))
            s.field("channel_pdu", p.advertising ? "advertising" : "data")
            s.field("crc", p.crc.jsonName)
            if let v = p.crcValue { s.field("crc_value", Int(v)) }
            if p.trailing > 0 { s.field("trailing_bytes", p.trailing) }
            if let a = advertising { a.writeFields(into: &s) }
            if let d = data {
                s.field("llid", Int(d.header.llid))
                s.field("nesn", Int(d.header.nesn))
                s.field("sn", Int(d.header.sn))
                s.field("md", d.header.md)
                if d.header.cp { s.field("cte_info", true) }
                s.field("length", d.header.length)
                s.field("direction", d.direction.jsonName)
                if d.inferred { s.field("direction_inferred", true) }
                if d.decrypted { s.field("decrypted", true) }
            }
            extra(&s)
        }
    }
}

extension SnifferPseudoHeader {
    /// The members of the `sniffer` object.
    func writeFields<S: FieldSink>(into s: inout S) {
        switch self {
        case .none: break
        case let .phdr(rf, signal, noise, offenses, reference, flags):
            s.field("rf_channel", Int(rf))
            s.field("channel", SnifferHeader.channelIndex(rf: Int(rf)))
            if flags & 0x0002 != 0 { s.field("signal_dbm", Int(signal)) }
            if flags & 0x0004 != 0 { s.field("noise_dbm", Int(noise)) }
            if flags & 0x0020 != 0 { s.field("aa_offenses", Int(offenses)) }
            if flags & 0x0010 != 0 { s.field("reference_access_address", Int(reference)) }
            s.field("flags", Int(flags))
            s.field("dewhitened", flags & 0x0001 != 0)
            s.field("decrypted", flags & 0x0008 != 0)
            if flags & 0x0040 != 0 { s.field("channel_aliased", true) }
            let pduType = Int((flags >> 7) & 0x7)
            s.field("pdu_type", pduType)
            s.field("pdu_type_name", SnifferHeader.pduTypeName256(pduType))
            let crcChecked = flags & 0x0400 != 0
            s.field("crc_checked", crcChecked)
            if crcChecked { s.field("crc_valid", flags & 0x0800 != 0) }
            if flags & 0x1000 != 0 {
                s.field("mic_checked", true)
                s.field("mic_valid", flags & 0x2000 != 0)
            }
            s.field("phy", SnifferHeader.phyName(Int(flags >> 14)))
        case let .nordic(h):
            s.field("board", Int(h.board))
            s.field("header_version", Int(h.version))
            if let l = h.headerLength { s.field("header_length", Int(l)) }
            s.field("payload_length", h.payloadLength)
            s.field("packet_counter", Int(h.counter))
            s.field("packet_id", Int(h.packetID))
            s.field("flags", Int(h.flags))
            s.field("crc_ok", h.flags & 0x01 != 0)
            if h.advertising {
                if h.channel < 37 { s.field("aux_type", Int((h.flags >> 1) & 0x3)) }
                s.field("address_resolved", h.flags & 0x08 != 0)
            } else {
                s.field("direction", h.flags & 0x02 != 0 ? LLDirection.centralToPeripheral.jsonName : LLDirection.peripheralToCentral.jsonName)
                let encrypted = h.flags & 0x04 != 0
                s.field("encrypted", encrypted)
                if encrypted { s.field("mic_ok", h.flags & 0x08 != 0) }
            }
            s.field("phy", SnifferHeader.phyName(Int((h.flags >> 4) & 0x7)))
            if let ci = h.codingIndicator { s.field("coding", ci == 0 ? "S=8" : ci == 1 ? "S=2" : "reserved \(ci)") }
            s.field("channel", Int(h.channel))
            s.field("rssi", h.rssi)
            s.field("event_counter", Int(h.eventCounter))
            s.field(h.version >= 3 ? "timestamp_us" : "delta_time_us", Int(h.time))
        case let .ppi(f):
            s.field("ppi_field", "ubertooth_btle")
            s.field("version", Int(f.version))
            s.field("frequency_mhz", f.frequency)
            if let c = f.channel { s.field("channel", c) }
            s.field("clock_100ns", Int(f.clock100ns) | Int(f.clockHigh) << 32)
            s.field("rssi_max", f.rssiMax)
            s.field("rssi_min", f.rssiMin)
            s.field("rssi_avg", f.rssiAverage)
            s.field("rssi_count", f.rssiCount)
        }
    }
}

extension LLAdvertisingPDU {
    /// The PDU's members of the `ll` object (after the access address and CRC).
    func writeFields<S: FieldSink>(into s: inout S) {
        s.field("pdu_type", Int(type))
        s.field("pdu", name)
        s.field("tx_add", txAdd ? "random" : "public")
        s.field("rx_add", rxAdd ? "random" : "public")
        s.field("chsel", chSel ? 2 : 1)
        s.field("length", length)
        func addr(_ key: StaticString, _ typeKey: StaticString, _ a: BDAddr?, random: Bool, _ s: inout S) {
            guard let a = a else { return }
            s.field(key, a.description)
            s.field(typeKey, LLAdvertisingPDU.addressType(a, random: random).name)
        }
        switch type {
        case 3:
            addr("scan_address", "scan_address_type", scanA, random: txAdd, &s)
            addr("adv_address", "adv_address_type", advA, random: rxAdd, &s)
        case 5:
            addr("init_address", "init_address_type", initA, random: txAdd, &s)
            addr("adv_address", "adv_address_type", advA, random: rxAdd, &s)
        default:
            addr("adv_address", "adv_address_type", advA, random: txAdd, &s)
            addr("target_address", "target_address_type", targetA, random: rxAdd, &s)
        }
        if let k = connect {
            s.object("ll_data") { s in
                s.field("access_address", Int(k.accessAddress))
                s.field("crc_init", Int(k.crcInit))
                s.field("window_size", k.windowSize)
                s.field("window_offset", k.windowOffset)
                s.field("interval", k.interval)
                s.field("latency", k.latency)
                s.field("timeout", k.timeout)
                s.field("channel_map", hex: k.channelMap)
                s.field("used_channels", k.usedChannels)
                s.field("hop", k.hop)
                s.field("sca", k.sca)
                s.field("sca_ppm", LLAdvertisingPDU.sca(k.sca))
            }
        }
        if let x = extended {
            s.field("adv_mode", x.advMode)
            s.field("adv_mode_name", ["non-connectable non-scannable", "connectable", "scannable", "reserved"][x.advMode & 3])
            s.object("extended_header") { s in
                s.field("flags", Int(x.flags))
                if let v = x.cteInfo { s.field("cte_info", Int(v)) }
                if let d = x.did, let sid = x.sid {
                    s.object("adi") { s in
                        s.field("did", d)
                        s.field("sid", sid)
                    }
                }
                if let a = x.auxPtr {
                    s.object("aux_ptr") { s in
                        s.field("channel", a.channel)
                        s.field("clock_accuracy", a.clockAccuracy == 1 ? "0–50 ppm" : "51–500 ppm")
                        s.field("offset_units_us", a.offsetUnits)
                        s.field("offset_us", a.offsetMicros)
                        s.field("phy", SnifferHeader.phyName(a.phy))
                    }
                }
                if let v = x.syncInfo { s.field("sync_info", hex: v) }
                if let t = x.txPower { s.field("tx_power", t) }
                if !x.acad.isEmpty { s.field("acad", hex: x.acad) }
            }
        }
        switch type {
        case 0, 2, 4, 6, 7, 8: s.field("adv_data", hex: advData)
        default: break
        }
    }

    static func addressType(_ a: BDAddr, random: Bool) -> AddressType { random ? AddressType.randomKind(a) : .public }

    /// "11:22:33:44:55:66 (public)", or "?" for no address.
    static func writeTyped(_ a: BDAddr?, random: Bool, into b: inout TextBytes) {
        guard let a = a else { b.append(UInt8(ascii: "?")); return }
        b.append(string: a.description)
        b.append(string: " (")
        b.append(string: addressType(a, random: random).name)
        b.append(UInt8(ascii: ")"))
    }

    /// The event's text for a PDU that carries no advertising report: "LL SCAN_REQ a → b", "LL CONNECT_IND …".
    func writeText(into b: inout TextBytes) {
        switch type {
        case 3:
            b.append(string: "LL ")
            b.append(string: name)
            b.append(UInt8(ascii: " "))
            LLAdvertisingPDU.writeTyped(scanA, random: txAdd, into: &b)
            b.append(string: " → ")
            LLAdvertisingPDU.writeTyped(advA, random: rxAdd, into: &b)
        case 5:
            guard let k = connect, let adv = advA, let ini = initA else { return }
            b.append(string: "LL ")
            b.append(string: name)
            b.append(UInt8(ascii: " "))
            LLAdvertisingPDU.writeTyped(ini, random: txAdd, into: &b)
            b.append(string: " → ")
            LLAdvertisingPDU.writeTyped(adv, random: rxAdd, into: &b)
            b.append(string: ", AA ")
            b.append(hex: UInt64(k.accessAddress), width: 8)
            b.append(string: ", interval ")
            b.append(string: Fmt.interval1250(k.interval))
            b.append(string: ", latency ")
            b.append(decimal: k.latency)
            b.append(string: ", timeout ")
            b.append(string: Fmt.timeout10(k.timeout))
            b.append(string: ", ")
            b.append(decimal: k.usedChannels)
            b.append(string: " channels, hop ")
            b.append(decimal: k.hop)
            b.append(string: ", SCA ")
            b.append(string: LLAdvertisingPDU.sca(k.sca))
        default:
            b.append(string: "LL ")
            b.append(string: name)
            if let a = advA {
                b.append(UInt8(ascii: " "))
                LLAdvertisingPDU.writeTyped(a, random: txAdd, into: &b)
            }
            if let x = extended {
                if let sid = x.sid, let did = x.did {
                    b.append(string: ", SID ")
                    b.append(decimal: sid)
                    b.append(string: " DID ")
                    b.append(decimal: did)
                }
                if let p = x.auxPtr {
                    b.append(string: ", AuxPtr channel ")
                    b.append(decimal: p.channel)
                    b.append(string: " +")
                    b.append(decimal: p.offsetMicros)
                    b.append(string: " µs ")
                    b.append(string: SnifferHeader.phyName(p.phy))
                }
            }
            if let t = targetA {
                b.append(string: " → ")
                LLAdvertisingPDU.writeTyped(t, random: rxAdd, into: &b)
            }
        }
    }
}
