/// Text and JSON parameters of the BR/EDR HCI commands (`ClassicCommandParams`).
extension ClassicCommandParams {
    func writeDetail(into b: inout TextBytes) {
        func addr(_ a: BDAddr) { b.append(string: a.description) }
        switch self {
        case let .inquiry(lap, length, responses):
            b.append(string: lap == 0x9E8B33 ? "GIAC" : lap == 0x9E8B00 ? "LIAC" : "LAP " + Hex.hex(lap, width: 6))
            b.append(string: ", ")
            b.append(string: Fmt.fixed(Int(length) * 128, scale: 100))
            b.append(string: " s")
            if responses > 0 {
                b.append(string: ", up to ")
                b.append(decimal: Int(responses))
                b.append(string: " responses")
            }
        case let .createConnection(a, _, roleSwitch):
            addr(a)
            if roleSwitch != 0 { b.append(string: ", role switch allowed") }
        case let .acceptConnection(a, role):
            addr(a)
            b.append(string: ", local ")
            b.append(string: HCIText.role(role))
        case let .rejectConnection(a, reason):
            addr(a)
            b.append(string: ", ")
            b.append(string: HCIText.status(reason))
        case let .linkKeyReply(a, key):
            addr(a)
            b.append(string: ", key ")
            b.append(string: Hex.string(Array(key)))
        case let .pinCodeReply(a, length, _):
            addr(a)
            b.append(string: ", PIN of ")
            b.append(decimal: Int(length))
            b.append(string: length == 1 ? " digit" : " digits")
        case let .addressOnly(a):
            addr(a)
        case let .setConnectionEncryption(h, enable):
            b.appendHandle(h)
            b.append(string: enable != 0 ? ", on" : ", off")
        case let .remoteNameRequest(a, _, _):
            addr(a)
        case let .readRemoteExtendedFeatures(h, page):
            b.appendHandle(h)
            b.append(string: ", page ")
            b.append(decimal: Int(page))
        case let .synchronousConnection(h, a, tx, _, latency, voice, _, _):
            if let h { b.appendHandle(h) }
            if let a { addr(a) }
            b.append(string: ", ")
            b.append(decimal: Int(tx) * 8 / 1000)
            b.append(string: " kbit/s, max latency ")
            b.append(string: latency == 0xFFFF ? "any" : "\(latency) ms")
            b.append(string: ", voice setting ")
            b.append(hex: UInt64(voice), width: 4)
        case let .ioCapabilityReply(a, io, oob, auth):
            addr(a)
            b.append(string: ", ")
            b.append(string: ClassicNames.ioCapability(io))
            b.append(string: oob == 0 ? ", no OOB data" : ", OOB data present")
            b.append(string: ", ")
            b.append(string: ClassicNames.authenticationRequirements(auth))
        case let .userPasskeyReply(a, passkey):
            addr(a)
            b.append(string: ", passkey ")
            b.append(string: ClassicEventParams.sixDigits(passkey))
        case let .sniffMode(h, maxI, minI, _, _):
            b.appendHandle(h)
            b.append(string: ", interval ")
            b.append(string: ClassicNames.slots(minI))
            b.append(string: "–")
            b.append(string: ClassicNames.slots(maxI))
        case let .switchRole(a, role):
            addr(a)
            b.append(string: ", local ")
            b.append(string: HCIText.role(role))
        case let .sniffSubrating(h, latency, _, _):
            b.appendHandle(h)
            b.append(string: ", max latency ")
            b.append(string: ClassicNames.slots(latency))
        case let .writeLocalName(name):
            b.append(UInt8(ascii: "\""))
            b.append(string: String(decoding: name, as: UTF8.self))
            b.append(UInt8(ascii: "\""))
        case let .writeScanEnable(v):
            b.append(string: ["no scans", "inquiry scan", "page scan", "inquiry and page scan"][Int(v & 3)])
        case let .writeClassOfDevice(cod):
            b.append(string: ClassicNames.classOfDevice(cod))
        }
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        switch self {
        case let .inquiry(lap, length, responses):
            s.field("lap", Int(lap))
            s.field("inquiry_length", length)
            s.field("num_responses", responses)
        case let .createConnection(a, packets, roleSwitch):
            s.field("address", a.description)
            s.field("packet_type", packets)
            s.field("allow_role_switch", roleSwitch != 0)
        case let .acceptConnection(a, role):
            s.field("address", a.description)
            s.field("role", HCIText.role(role))
        case let .rejectConnection(a, reason):
            s.field("address", a.description)
            s.field("reason", reason)
            s.field("reason_name", HCIText.status(reason))
        case let .linkKeyReply(a, key):
            s.field("address", a.description)
            s.field("link_key", hex: key)
        case let .pinCodeReply(a, length, _):
            s.field("address", a.description)
            s.field("pin_length", length)
        case let .addressOnly(a), let .remoteNameRequest(a, _, _):
            s.field("address", a.description)
        case let .setConnectionEncryption(h, enable):
            s.field("handle", h)
            s.field("encryption_enable", enable != 0)
        case let .readRemoteExtendedFeatures(h, page):
            s.field("handle", h)
            s.field("page", page)
        case let .synchronousConnection(h, a, tx, rx, latency, voice, effort, packets):
            if let h { s.field("handle", h) }
            if let a { s.field("address", a.description) }
            s.field("tx_bandwidth", Int(tx))
            s.field("rx_bandwidth", Int(rx))
            s.field("max_latency", latency)
            s.field("voice_setting", voice)
            s.field("retransmission_effort", effort)
            s.field("packet_type", packets)
        case let .ioCapabilityReply(a, io, oob, auth):
            s.field("address", a.description)
            s.field("io_capability", io)
            s.field("io_capability_name", ClassicNames.ioCapability(io))
            s.field("oob_data_present", oob)
            s.field("authentication_requirements", auth)
            s.field("authentication_requirements_name", ClassicNames.authenticationRequirements(auth))
        case let .userPasskeyReply(a, passkey):
            s.field("address", a.description)
            s.field("passkey", Int(passkey))
        case let .sniffMode(h, maxI, minI, attempt, timeout):
            s.field("handle", h)
            s.field("max_interval", maxI)
            s.field("min_interval", minI)
            s.field("attempt", attempt)
            s.field("timeout", timeout)
        case let .switchRole(a, role):
            s.field("address", a.description)
            s.field("role", HCIText.role(role))
        case let .sniffSubrating(h, latency, remote, local):
            s.field("handle", h)
            s.field("max_latency", latency)
            s.field("min_remote_timeout", remote)
            s.field("min_local_timeout", local)
        case let .writeLocalName(name):
            s.field("local_name", String(decoding: name, as: UTF8.self))
        case let .writeScanEnable(v):
            s.field("scan_enable", v)
        case let .writeClassOfDevice(cod):
            s.field("class_of_device", Int(cod))
            s.field("major_device_class", ClassicNames.majorDeviceClass(cod))
            if let m = ClassicNames.minorDeviceClass(cod) { s.field("minor_device_class", m) }
        }
    }
}
