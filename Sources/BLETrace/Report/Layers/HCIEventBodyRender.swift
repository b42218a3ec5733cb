/// Text and JSON of `HCIEventBody`: the same text and `hci` layer the HCI event decoder used to build.
extension HCIEventBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        if case let .le(sub, _) = params {
            b.append(string: HCIText.subeventName(sub))
        } else {
            b.append(string: HCIText.eventName(code))
        }
        let start = b.count
        b.append(string: ": ")
        let detail = b.count
        writeDetail(into: &b)
        if b.count == detail { b.removeSubrange(start...) }
    }

    func writeDetail(into b: inout TextBytes) {
        switch params {
        case let .disconnectionComplete(status, h, reason):
            if status == 0 {
                b.appendHandle(h)
                b.append(string: ", reason ")
                b.append(string: HCIText.status(reason))
            } else {
                b.appendFailed(status)
            }
        case let .connectionComplete(status, h, a, _, _):
            if status == 0 {
                b.append(string: a.description)
                b.append(string: ", ")
                b.appendHandle(h)
            } else {
                b.appendFailed(status)
            }
        case let .encryptionChange(status, h, enabled, keySize):
            b.appendHandle(h)
            if status == 0 {
                b.append(string: ", encryption ")
                switch enabled {
                case 0: b.append(string: "off")
                case 1: b.append(string: "on (AES-CCM)")
                case 2: b.append(string: "on (E0/AES-CCM BR/EDR)")
                default: b.append(string: "value "); b.append(decimal: Int(enabled))
                }
                if let k = keySize { b.append(string: ", key size "); b.append(decimal: Int(k)) }
            } else {
                b.append(string: ", ")
                b.appendFailed(status)
            }
        case let .encryptionKeyRefresh(status, h):
            b.appendHandle(h)
            b.append(string: ", ")
            b.append(string: HCIText.status(status))
        case let .remoteVersion(status, h, version, company, sub):
            if status == 0 {
                b.appendHandle(h)
                b.append(string: ", Bluetooth ")
                b.append(string: HCIEventDecoder.coreVersion(version))
                b.append(string: ", ")
                if let n = AssignedNumbers.companyName(company) { b.append(string: n) } else { b.append(hex: UInt64(company), width: 4) }
                b.append(string: ", subversion ")
                b.append(hex: UInt64(sub), width: 4)
            } else {
                b.appendFailed(status)
            }
        case let .commandComplete(c):
            b.append(string: HCIText.commandName(c.opcode))
            guard let status = c.status else { return }
            b.append(string: ": ")
            b.append(string: HCIText.status(status))
            HCIEventBody.writeReturnText(c.decoded, into: &b)
        case let .commandStatus(status, _, opcode):
            b.append(string: HCIText.commandName(opcode))
            b.append(string: ": ")
            b.append(string: status == 0 ? "Pending" : HCIText.status(status))
        case let .completedPackets(p):
            for k in 0..<p.count {
                let (h, n) = p.pair(k)
                if k > 0 { b.append(string: ", ") }
                b.append(hex: UInt64(h), width: 4)
                b.append(string: ": ")
                b.append(decimal: n)
            }
        case let .hardwareError(code):
            b.append(string: "code ")
            b.append(hex: UInt64(code), width: 2)
        case .dataBufferOverflow, .other:
            break
        case let .vendor(data):
            b.append(decimal: data.count)
            b.append(string: " bytes")
        case let .le(_, le):
            HCIEventBody.writeLEDetail(le, into: &b)
        case let .classic(c):
            c.writeDetail(into: &b)
        }
    }

    static func writeReturnText(_ r: CommandReturn, into b: inout TextBytes) {
        switch r {
        case .none:
            return
        case let .address(a):
            b.append(string: ", ")
            b.append(string: a.description)
        case let .localVersion(hci, _, company, _):
            b.append(string: ", HCI ")
            b.append(string: HCIEventDecoder.coreVersion(hci))
            b.append(string: ", ")
            if let n = AssignedNumbers.companyName(company) { b.append(string: n) } else { b.append(hex: UInt64(company), width: 4) }
        case let .leBufferSize(len, num):
            b.append(string: ", ")
            b.append(decimal: Int(num))
            b.append(string: " × ")
            b.append(decimal: Int(len))
            b.append(string: " bytes")
        case let .bufferSize(aclLength, scoLength, aclCount, scoCount):
            b.append(string: ", ACL ")
            b.append(decimal: Int(aclCount))
            b.append(string: " × ")
            b.append(decimal: Int(aclLength))
            b.append(string: " bytes, SCO ")
            b.append(decimal: Int(scoCount))
            b.append(string: " × ")
            b.append(decimal: Int(scoLength))
            b.append(string: " bytes")
        case let .txPower(p):
            b.append(string: ", ")
            b.append(decimal: Int(p))
            b.append(string: " dBm")
        case let .localName(raw):
            b.append(string: ", \"")
            b.append(string: HCIEventBody.localName(raw))
            b.append(UInt8(ascii: "\""))
        case let .iso(i):
            i.writeText(into: &b)
        }
    }

    static func localName(_ raw: ArraySlice<UInt8>) -> String {
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    static func writeLEDetail(_ le: LEMetaParams, into b: inout TextBytes) {
        switch le {
        case let .iso(i):
            i.writeDetail(into: &b)
        case let .connectionComplete(c):
            guard c.status == 0 else { b.appendFailed(c.status); return }
            b.appendHandle(c.handle)
            b.append(string: ", ")
            b.append(string: c.peer.description)
            b.append(string: " (")
            c.peerAddressType.write(into: &b)
            b.append(string: "), ")
            b.append(string: HCIText.role(c.role))
            b.appendConnectionParameters(c.interval, c.latency, c.timeout)
        case let .connectionUpdate(status, h, interval, latency, timeout):
            b.appendHandle(h)
            if status == 0 {
                b.appendConnectionParameters(interval, latency, timeout)
            } else {
                b.append(string: ", ")
                b.appendFailed(status)
            }
        case let .remoteFeatures(status, h, features):
            b.appendHandle(h)
            b.append(string: ", ")
            b.append(string: HCIText.status(status))
            b.append(string: ", features ")
            b.append(string: Hex.string(features))
            if status == 0 { HCIEventBody.appendFeatureNames(FeatureBits.le(features), into: &b) }
        case let .longTermKeyRequest(h, _, ediv):
            b.appendHandle(h)
            b.append(string: ", EDIV ")
            b.append(hex: UInt64(ediv), width: 4)
        case let .remoteConnectionParameterRequest(h, cmin, cmax, lat, to):
            b.appendHandle(h)
            b.append(string: ", interval ")
            b.append(string: Fmt.interval1250(Int(cmin)))
            b.append(string: "–")
            b.append(string: Fmt.interval1250(Int(cmax)))
            b.append(string: ", latency ")
            b.append(decimal: Int(lat))
            b.append(string: ", timeout ")
            b.append(string: Fmt.timeout10(Int(to)))
        case let .dataLengthChange(h, txO, txT, rxO, rxT):
            b.appendHandle(h)
            b.append(string: ", tx ")
            b.append(decimal: Int(txO))
            b.append(string: " octets/")
            b.append(decimal: Int(txT))
            b.append(string: " µs, rx ")
            b.append(decimal: Int(rxO))
            b.append(string: " octets/")
            b.append(decimal: Int(rxT))
            b.append(string: " µs")
        case let .phyUpdate(status, h, tx, rx):
            b.appendHandle(h)
            if status == 0 {
                b.append(string: ", tx ")
                b.append(string: HCIText.phy(tx))
                b.append(string: ", rx ")
                b.append(string: HCIText.phy(rx))
            } else {
                b.append(string: ", ")
                b.appendFailed(status)
            }
        case let .channelSelection(h, alg):
            b.appendHandle(h)
            b.append(string: ", algorithm #")
            b.append(decimal: Int(alg) + 1)
        case .other:
            break
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        s.key("hci")
        s.beginObject()
        s.field("event", Int(code))
        s.field("name", JSONNames.hciEvents[Int(code)])
        if case let .le(sub, _) = params {
            s.field("subevent", Int(sub))
            s.field("subevent_name", JSONNames.leSubevents[Int(sub)])
        }
        switch params {
        case .dataBufferOverflow, .hardwareError, .vendor, .disconnectionComplete, .connectionComplete, .encryptionChange,
             .encryptionKeyRefresh, .remoteVersion, .commandComplete, .commandStatus, .completedPackets:
            s.object("parameters") { writeParameters(into: &$0) }
        case let .classic(c):
            s.object("parameters") { c.writeParameters(into: &$0) }
        case let .other(data):
            if !data.isEmpty { s.object("parameters") { $0.field("parameters", hex: data) } }
        case let .le(sub, le):
            if case let .other(data) = le {
                if !data.isEmpty { s.object("parameters") { $0.field("parameters", hex: data) } }
            } else {
                s.object("parameters") { HCIEventBody.writeLEParameters(sub, le, into: &$0) }
            }
        }
        s.endObject()
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        switch params {
        case let .disconnectionComplete(status, h, reason):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .connectionComplete(status, h, a, link, enc):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("address", a.description)
            s.field("link_type", link)
            s.field("encryption", enc != 0)
        case let .encryptionChange(status, h, enabled, keySize):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("encryption_enabled", Int(enabled))
            if let k = keySize { s.field("key_size", k) }
        case let .encryptionKeyRefresh(status, h):
            s.writeStatus(status)
            s.field("handle", h)
        case let .remoteVersion(status, h, version, company, sub):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("version", version)
            s.field("version_name", HCIEventDecoder.coreVersion(version))
            s.field("company", Int(company))
            if let n = AssignedNumbers.companyName(company) { s.field("company_name", n) }
            s.field("subversion", Int(sub))
        case let .commandComplete(c):
            s.field("num_packets", c.credits)
            s.field("command_opcode", Int(c.opcode))
            s.field("command", HCIText.commandName(c.opcode))
            if let status = c.status {
                s.writeStatus(status)
                HCIEventBody.writeReturnFields(c.decoded, into: &s)
                if c.extra { s.field("return_parameters", hex: c.returned.dropFirst()) }
            }
        case let .commandStatus(status, credits, opcode):
            s.writeStatus(status)
            s.field("num_packets", credits)
            s.field("command_opcode", Int(opcode))
            s.field("command", HCIText.commandName(opcode))
        case let .completedPackets(p):
            s.list("handles") { s in
                for k in 0..<p.count {
                    let (h, n) = p.pair(k)
                    s.beginObject()
                    s.field("handle", Int(h))
                    s.field("count", n)
                    s.endObject()
                }
            }
        case let .hardwareError(code):
            s.field("hardware_code", code)
        case let .dataBufferOverflow(link):
            s.field("link_type", link)
        case let .vendor(data):
            s.field("data", hex: data)
        case .other, .le, .classic:
            break
        }
    }

    static func writeReturnFields<S: FieldSink>(_ r: CommandReturn, into s: inout S) {
        switch r {
        case .none: break
        case let .address(a):
            s.field("address", a.description)
        case let .localVersion(hci, lmp, company, sub):
            s.field("hci_version", hci)
            s.field("lmp_version", lmp)
            s.field("company", Int(company))
            s.field("subversion", Int(sub))
        case let .leBufferSize(len, num):
            s.field("le_acl_data_packet_length", Int(len))
            s.field("total_num_le_acl_data_packets", Int(num))
        case let .bufferSize(aclLength, scoLength, aclCount, scoCount):
            s.field("acl_data_packet_length", Int(aclLength))
            s.field("synchronous_data_packet_length", Int(scoLength))
            s.field("total_num_acl_data_packets", Int(aclCount))
            s.field("total_num_synchronous_data_packets", Int(scoCount))
        case let .txPower(p):
            s.field("tx_power", Int(p))
        case let .localName(raw):
            s.field("local_name", localName(raw))
        case let .iso(i):
            i.writeFields(into: &s)
        }
    }

    static func writeLEParameters<S: FieldSink>(_ sub: UInt8, _ le: LEMetaParams, into s: inout S) {
        switch le {
        case let .iso(i):
            i.writeParameters(into: &s)
        case let .connectionComplete(c):
            if sub == 0x29 {
                s.field("advertising_handle", c.advertisingHandle)
                s.field("sync_handle", Int(c.syncHandle))
            }
            s.writeStatus(c.status)
            s.field("handle", c.handle)
            s.field("role", HCIText.role(c.role))
            s.field("peer_address_type", c.peerAddressType.name)
            s.field("peer_address", c.peer.description)
            if c.localRPA.value != 0 { s.field("local_rpa", c.localRPA.description) }
            if c.peerRPA.value != 0 { s.field("peer_rpa", c.peerRPA.description) }
            s.field("interval", Int(c.interval))
            s.field("latency", Int(c.latency))
            s.field("timeout", Int(c.timeout))
            s.field("clock_accuracy", c.clockAccuracy)
        case let .connectionUpdate(status, h, interval, latency, timeout):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("interval", Int(interval))
            s.field("latency", Int(latency))
            s.field("timeout", Int(timeout))
        case let .remoteFeatures(status, h, features):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("features", hex: features)
            if status == 0 { s.list("feature_names") { s in for n in FeatureBits.le(features) { s.string(n) } } }
        case let .longTermKeyRequest(h, rand, ediv):
            s.field("handle", h)
            s.field("random", hex: rand)
            s.field("ediv", Int(ediv))
        case let .remoteConnectionParameterRequest(h, cmin, cmax, lat, to):
            s.field("handle", h)
            s.field("interval_min", Int(cmin))
            s.field("interval_max", Int(cmax))
            s.field("latency", Int(lat))
            s.field("timeout", Int(to))
        case let .dataLengthChange(h, txO, txT, rxO, rxT):
            s.field("handle", h)
            s.field("max_tx_octets", Int(txO))
            s.field("max_tx_time", Int(txT))
            s.field("max_rx_octets", Int(rxO))
            s.field("max_rx_time", Int(rxT))
        case let .phyUpdate(status, h, tx, rx):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("tx_phy", HCIText.phy(tx))
            s.field("rx_phy", HCIText.phy(rx))
        case let .channelSelection(h, alg):
            s.field("handle", h)
            s.field("algorithm", Int(alg) + 1)
        case let .other(data):
            if !data.isEmpty { s.field("parameters", hex: data) }
        }
    }
}

extension FieldSink {
    /// `status` and `status_name`.
    mutating func writeStatus(_ status: UInt8) {
        field("status", status)
        field("status_name", HCIText.status(status))
    }
}

extension TextBytes {
    /// "handle 0x0040"
    mutating func appendHandle(_ h: UInt16) {
        append(string: "handle ")
        append(hex: UInt64(h), width: 4)
    }

    /// "failed: <status name>"
    mutating func appendFailed(_ status: UInt8) {
        append(string: "failed: ")
        append(string: HCIText.status(status))
    }

    /// ", interval 30.00 ms, latency 0, timeout 4000 ms"
    mutating func appendConnectionParameters(_ interval: UInt16, _ latency: UInt16, _ timeout: UInt16) {
        append(string: ", interval ")
        append(string: Fmt.interval1250(Int(interval)))
        append(string: ", latency ")
        append(decimal: Int(latency))
        append(string: ", timeout ")
        append(string: Fmt.timeout10(Int(timeout)))
    }
}

extension HCIEventBody {
    /// " (name, name, …)" after a feature mask.
    static func appendFeatureNames(_ names: [String], into b: inout TextBytes) {
        guard !names.isEmpty else { return }
        b.append(string: " (")
        for (i, n) in names.enumerated() {
            if i > 0 { b.append(string: ", ") }
            b.append(string: n)
        }
        b.append(UInt8(ascii: ")"))
    }
}
