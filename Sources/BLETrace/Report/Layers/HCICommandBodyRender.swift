/// Text and JSON of `HCICommandBody`: the same text and `hci` layer the HCI command decoder used to build.
extension HCICommandBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        b.append(string: HCIText.commandName(opcode))
        let start = b.count
        b.append(string: ": ")
        let detail = b.count
        writeDetail(into: &b)
        if b.count == detail { b.removeSubrange(start...) }
    }

    func writeDetail(into b: inout TextBytes) {
        switch params {
        case let .disconnect(h, reason):
            b.appendHandle(h)
            b.append(string: ", reason ")
            b.append(string: HCIText.status(reason))
        case let .handleOnly(h):
            b.appendHandle(h)
        case let .setRandomAddress(a):
            b.append(string: a.description)
        case let .setAdvertisingParameters(p):
            b.append(string: HCICommandDecoder.advParamType(p.type))
            b.append(string: ", interval ")
            b.appendRange625(Int(p.intervalMin), Int(p.intervalMax))
        case let .advertisingData(_, data):
            ADDescriptions.writeText(data, rssi: nil, into: &b)
        case let .advertisingEnable(v):
            b.append(string: HCIText.enabled(v))
        case let .scanParameters(type, interval, window, _, _):
            HCICommandBody.writeScan(type, interval, window, into: &b)
        case let .scanEnable(v, dup), let .extendedScanEnable(v, dup, _, _):
            b.append(string: HCIText.enabled(v))
            b.append(string: dup == 0 ? ", duplicates kept" : ", duplicates filtered")
        case let .createConnection(c):
            HCICommandBody.writePeer(c.filter, c.peerAddressType, c.peer, into: &b)
            b.appendConnectionRange(Int(c.intervalMin), Int(c.intervalMax), Int(c.latency), Int(c.timeout))
        case let .extendedCreateConnection(c):
            HCICommandBody.writePeer(c.filter, c.peerAddressType, c.peer, into: &b)
            if let first = c.connections.first {
                b.appendConnectionRange(first.intervalMin, first.intervalMax, first.latency, first.timeout)
            }
        case let .extendedScanParameters(_, _, phys, perPHY):
            var c = ByteCursor(perPHY)
            if phys & 0x07 != 0, let type = try? c.u8(), let interval = try? c.u16le(), let window = try? c.u16le() {
                HCICommandBody.writeScan(type, interval, window, into: &b)
            }
        case let .extendedAdvertisingParameters(set, props, minI, maxI):
            b.append(string: "set ")
            b.append(decimal: Int(set))
            b.append(string: ", properties ")
            b.append(hex: UInt64(props), width: 4)
            b.append(string: ", interval ")
            b.appendRange625(Int(minI), Int(maxI))
        case let .extendedAdvertisingData(set, _, _, data):
            b.append(string: "set ")
            b.append(decimal: Int(set))
            b.append(string: ": ")
            ADDescriptions.writeText(data, rssi: nil, into: &b)
        case let .extendedAdvertisingEnable(v, sets):
            let n = sets.count / 4
            b.append(string: HCIText.enabled(v))
            b.append(string: ", ")
            b.append(decimal: n)
            b.append(string: n == 1 ? " set" : " sets")
        case let .connectionUpdate(h, cmin, cmax, lat, to):
            b.appendHandle(h)
            b.appendConnectionRange(Int(cmin), Int(cmax), Int(lat), Int(to))
        case let .enableEncryption(h, _, ediv, _):
            b.appendHandle(h)
            b.append(string: ", EDIV ")
            b.append(hex: UInt64(ediv), width: 4)
        case let .longTermKeyReply(h, _):
            b.appendHandle(h)
        case let .setDataLength(h, octets, time):
            b.appendHandle(h)
            b.append(string: ", ")
            b.append(decimal: Int(octets))
            b.append(string: " octets, ")
            b.append(decimal: Int(time))
            b.append(string: " µs")
        case let .setPHY(h, _, tx, rx):
            b.appendHandle(h)
            b.append(string: ", tx ")
            b.append(hex: UInt64(tx), width: 2)
            b.append(string: ", rx ")
            b.append(hex: UInt64(rx), width: 2)
        case let .classic(c):
            c.writeDetail(into: &b)
        case let .iso(i):
            i.writeDetail(into: &b)
        case .other:
            break
        }
    }

    /// "active, interval 60.000 ms, window 30.000 ms"
    static func writeScan(_ type: UInt8, _ interval: UInt16, _ window: UInt16, into b: inout TextBytes) {
        b.append(string: type == 1 ? "active" : "passive")
        b.append(string: ", interval ")
        b.append(string: Fmt.interval625(Int(interval)))
        b.append(string: ", window ")
        b.append(string: Fmt.interval625(Int(window)))
    }

    /// "C4:7C:8D:6A:11:22 (public)" or "filter accept list"
    static func writePeer(_ filter: UInt8, _ type: UInt8, _ peer: BDAddr, into b: inout TextBytes) {
        if filter != 0 { b.append(string: "filter accept list"); return }
        b.append(string: peer.description)
        b.append(string: " (")
        b.append(string: AddressType(hci: type, address: peer).name)
        b.append(UInt8(ascii: ")"))
    }

    static func phyName(_ bit: Int) -> String { bit == 0 ? "LE 1M" : bit == 1 ? "LE 2M" : "LE Coded" }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        s.key("hci")
        s.beginObject()
        s.field("opcode", Int(opcode))
        s.field("ogf", Int(opcode >> 10))
        s.field("ocf", Int(opcode & 0x3FF))
        s.field("name", HCIText.commandName(opcode))
        if case let .other(data) = params {
            if !data.isEmpty { s.object("parameters") { $0.field("parameters", hex: data) } }
        } else {
            s.object("parameters") { writeParameters(into: &$0) }
        }
        s.endObject()
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        switch params {
        case let .disconnect(h, reason):
            s.field("handle", h)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .handleOnly(h):
            s.field("handle", h)
        case let .setRandomAddress(a):
            s.field("address", a.description)
        case let .setAdvertisingParameters(p):
            s.field("interval_min", Int(p.intervalMin))
            s.field("interval_max", Int(p.intervalMax))
            s.field("type", p.type)
            s.field("type_name", HCICommandDecoder.advParamType(p.type))
            s.field("own_address_type", p.ownAddressType)
            s.field("peer_address_type", p.peerAddressType)
            s.field("peer_address", p.peer.description)
            s.field("channel_map", p.channelMap)
            s.field("filter_policy", p.filter)
        case let .advertisingData(n, data):
            s.field("data_length", Int(n))
            s.field("data", hex: data)
            s.key("ad")
            s.value(ADDescriptions.fields(data, rssi: nil))
        case let .advertisingEnable(v):
            s.field("enable", v != 0)
        case let .scanParameters(type, interval, window, own, filter):
            s.field("scan_type", type == 1 ? "active" : "passive")
            s.field("interval", Int(interval))
            s.field("window", Int(window))
            s.field("own_address_type", own)
            s.field("filter_policy", filter)
        case let .scanEnable(v, dup):
            s.field("enable", v != 0)
            s.field("filter_duplicates", dup != 0)
        case let .createConnection(c):
            s.field("scan_interval", Int(c.scanInterval))
            s.field("scan_window", Int(c.scanWindow))
            s.field("filter_policy", c.filter)
            s.field("peer_address_type", c.peerAddressType)
            s.field("peer_address", c.peer.description)
            s.field("own_address_type", c.ownAddressType)
            s.field("interval_min", Int(c.intervalMin))
            s.field("interval_max", Int(c.intervalMax))
            s.field("latency", Int(c.latency))
            s.field("timeout", Int(c.timeout))
        case let .extendedCreateConnection(c):
            s.field("filter_policy", c.filter)
            s.field("own_address_type", c.ownAddressType)
            s.field("peer_address_type", c.peerAddressType)
            s.field("peer_address", c.peer.description)
            s.field("initiating_phys", c.phys)
            s.list("phys") { s in
                for x in c.connections {
                    s.beginObject()
                    s.field("phy", HCICommandBody.phyName(x.bit))
                    s.field("scan_interval", x.scanInterval)
                    s.field("scan_window", x.scanWindow)
                    s.field("interval_min", x.intervalMin)
                    s.field("interval_max", x.intervalMax)
                    s.field("latency", x.latency)
                    s.field("timeout", x.timeout)
                    s.endObject()
                }
            }
        case let .extendedScanParameters(own, filter, phys, perPHY):
            s.field("own_address_type", own)
            s.field("filter_policy", filter)
            s.field("scanning_phys", phys)
            s.list("phys") { s in
                var c = ByteCursor(perPHY)
                for _ in 0..<3 {
                    guard let type = try? c.u8(), let interval = try? c.u16le(), let window = try? c.u16le() else { break }
                    s.beginObject()
                    s.field("scan_type", type == 1 ? "active" : "passive")
                    s.field("interval", Int(interval))
                    s.field("window", Int(window))
                    s.endObject()
                }
            }
        case let .extendedScanEnable(v, dup, duration, period):
            s.field("enable", v != 0)
            s.field("filter_duplicates", Int(dup))
            s.field("duration", Int(duration))
            s.field("period", Int(period))
        case let .extendedAdvertisingParameters(set, props, minI, maxI):
            s.field("advertising_handle", set)
            s.field("properties", Int(props))
            s.field("interval_min", Int(minI))
            s.field("interval_max", Int(maxI))
        case let .extendedAdvertisingData(set, op, frag, data):
            s.field("advertising_handle", set)
            s.field("operation", op)
            s.field("fragment_preference", frag)
            s.field("data", hex: data)
            s.key("ad")
            s.value(ADDescriptions.fields(data, rssi: nil))
        case let .extendedAdvertisingEnable(v, sets):
            s.field("enable", v != 0)
            s.list("sets") { s in
                var c = ByteCursor(sets)
                while let h = try? c.u8(), let dur = try? c.u16le(), let maxEv = try? c.u8() {
                    s.beginObject()
                    s.field("advertising_handle", Int(h))
                    s.field("duration", Int(dur))
                    s.field("max_events", Int(maxEv))
                    s.endObject()
                }
            }
        case let .connectionUpdate(h, cmin, cmax, lat, to):
            s.field("handle", h)
            s.field("interval_min", Int(cmin))
            s.field("interval_max", Int(cmax))
            s.field("latency", Int(lat))
            s.field("timeout", Int(to))
        case let .enableEncryption(h, rand, ediv, ltk):
            s.field("handle", h)
            s.field("random", hex: rand)
            s.field("ediv", Int(ediv))
            s.field("ltk", hex: ltk)
        case let .longTermKeyReply(h, ltk):
            s.field("handle", h)
            s.field("ltk", hex: ltk)
        case let .setDataLength(h, octets, time):
            s.field("handle", h)
            s.field("tx_octets", Int(octets))
            s.field("tx_time", Int(time))
        case let .setPHY(h, all, tx, rx):
            s.field("handle", h)
            s.field("all_phys", all)
            s.field("tx_phys", tx)
            s.field("rx_phys", rx)
        case let .classic(c):
            c.writeParameters(into: &s)
        case let .iso(i):
            i.writeParameters(into: &s)
        case .other:
            break
        }
    }
}

extension TextBytes {
    /// "100.000 ms–200.000 ms" (0.625 ms units)
    mutating func appendRange625(_ lo: Int, _ hi: Int) {
        append(string: Fmt.interval625(lo))
        append(string: "–")
        append(string: Fmt.interval625(hi))
    }

    /// ", interval 30.00 ms–50.00 ms, latency 0, timeout 4000 ms"
    mutating func appendConnectionRange(_ cmin: Int, _ cmax: Int, _ latency: Int, _ timeout: Int) {
        append(string: ", interval ")
        append(string: Fmt.interval1250(cmin))
        append(string: "–")
        append(string: Fmt.interval1250(cmax))
        append(string: ", latency ")
        append(decimal: latency)
        append(string: ", timeout ")
        append(string: Fmt.timeout10(timeout))
    }
}
