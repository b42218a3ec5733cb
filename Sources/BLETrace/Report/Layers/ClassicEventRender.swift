/// Text and JSON parameters of the BR/EDR HCI events (`ClassicEventParams`).
extension ClassicEventParams {
    func writeDetail(into b: inout TextBytes) {
        func addr(_ a: BDAddr) { b.append(string: a.description) }
        func outcome(_ status: UInt8) {
            b.append(string: ", ")
            b.append(string: status == 0 ? "success" : "failed: " + HCIText.status(status))
        }
        switch self {
        case let .inquiryComplete(status):
            if status != 0 { b.appendFailed(status) }
        case let .inquiryResult(list):
            for (i, r) in list.enumerated() {
                if i > 0 { b.append(string: "; ") }
                addr(r.address)
                b.append(string: ", class ")
                b.append(string: ClassicNames.classOfDevice(r.classOfDevice))
                if let rssi = r.rssi {
                    b.append(string: ", RSSI ")
                    b.append(decimal: Int(rssi))
                    b.append(string: " dBm")
                }
                if let eir = r.eir, !eir.isEmpty {
                    b.append(string: ": ")
                    ADDescriptions.writeText(eir, rssi: r.rssi.map(Int.init), into: &b)
                }
            }
        case let .connectionRequest(a, cod, link):
            addr(a)
            b.append(string: ", class ")
            b.append(string: ClassicNames.classOfDevice(cod))
            b.append(string: ", ")
            b.append(string: ClassicNames.linkType(link))
        case let .authenticationComplete(status, h):
            b.appendHandle(h)
            outcome(status)
        case let .remoteNameComplete(status, a, name):
            addr(a)
            if status == 0 {
                b.append(string: " \"")
                b.append(string: String(decoding: name, as: UTF8.self))
                b.append(UInt8(ascii: "\""))
            } else {
                outcome(status)
            }
        case let .remoteFeatures(status, h, page, maxPage, features):
            b.appendHandle(h)
            guard status == 0 else { outcome(status); return }
            if maxPage > 0 || page > 0 {
                b.append(string: ", page ")
                b.append(decimal: Int(page))
                b.append(string: " of ")
                b.append(decimal: Int(maxPage))
            }
            b.append(string: ", features ")
            b.append(string: Hex.string(Array(features)))
            HCIEventBody.appendFeatureNames(FeatureBits.lmp(features, page: Int(page)), into: &b)
        case let .roleChange(status, a, role):
            addr(a)
            if status == 0 {
                b.append(string: ", now ")
                b.append(string: HCIText.role(role))
            } else {
                outcome(status)
            }
        case let .modeChange(status, h, mode, interval):
            b.appendHandle(h)
            guard status == 0 else { outcome(status); return }
            b.append(string: ", ")
            b.append(string: ClassicNames.mode(mode))
            if mode != 0 {
                b.append(string: ", interval ")
                b.append(string: ClassicNames.slots(interval))
            }
        case let .pinCodeRequest(a), let .linkKeyRequest(a), let .ioCapabilityRequest(a), let .userPasskeyRequest(a):
            addr(a)
        case let .linkKeyNotification(a, key, keyType):
            addr(a)
            b.append(string: ", ")
            b.append(string: ClassicNames.keyType(keyType))
            b.append(string: ", key ")
            b.append(string: Hex.string(Array(key)))
        case let .synchronousConnectionComplete(status, h, a, link, _, _, _, _, air):
            addr(a)
            guard status == 0 else { outcome(status); return }
            b.append(string: ", ")
            b.appendHandle(h)
            b.append(string: ", ")
            b.append(string: ClassicNames.linkType(link))
            b.append(string: ", air mode ")
            b.append(string: ClassicNames.airMode(air))
        case let .synchronousConnectionChanged(status, h, interval, _, _, _):
            b.appendHandle(h)
            guard status == 0 else { outcome(status); return }
            b.append(string: ", interval ")
            b.append(decimal: Int(interval))
            b.append(string: " slots")
        case let .sniffSubrating(status, h, tx, rx, _, _):
            b.appendHandle(h)
            guard status == 0 else { outcome(status); return }
            b.append(string: ", max latency TX ")
            b.append(string: ClassicNames.slots(tx))
            b.append(string: ", RX ")
            b.append(string: ClassicNames.slots(rx))
        case let .ioCapabilityResponse(a, io, oob, auth):
            addr(a)
            b.append(string: ", ")
            b.append(string: ClassicNames.ioCapability(io))
            b.append(string: oob == 0 ? ", no OOB data" : ", OOB data present")
            b.append(string: ", ")
            b.append(string: ClassicNames.authenticationRequirements(auth))
        case let .userConfirmationRequest(a, value):
            addr(a)
            b.append(string: ", value ")
            b.append(string: ClassicEventParams.sixDigits(value))
        case let .simplePairingComplete(status, a):
            addr(a)
            outcome(status)
        case let .userPasskeyNotification(a, passkey):
            addr(a)
            b.append(string: ", passkey ")
            b.append(string: ClassicEventParams.sixDigits(passkey))
        }
    }

    static func sixDigits(_ v: UInt32) -> String {
        let s = String(v)
        return s.count >= 6 ? s : String(repeating: "0", count: 6 - s.count) + s
    }

    func writeParameters<S: FieldSink>(into s: inout S) {
        func cod(_ c: UInt32, into s: inout S) {
            s.field("class_of_device", Int(c))
            s.field("major_device_class", ClassicNames.majorDeviceClass(c))
            if let m = ClassicNames.minorDeviceClass(c) { s.field("minor_device_class", m) }
            s.list("service_classes") { l in for n in ClassicNames.serviceClassNames(c) { l.string(n) } }
        }
        switch self {
        case let .inquiryComplete(status):
            s.writeStatus(status)
        case let .inquiryResult(list):
            s.list("responses") { l in
                for r in list {
                    l.beginObject()
                    l.field("address", r.address.description)
                    l.field("page_scan_repetition_mode", r.pageScanRepetitionMode)
                    cod(r.classOfDevice, into: &l)
                    l.field("clock_offset", r.clockOffset)
                    if let rssi = r.rssi { l.field("rssi", Int(rssi)) }
                    if let eir = r.eir {
                        l.key("eir")
                        l.value(ADDescriptions.fields(eir, rssi: r.rssi.map(Int.init)))
                    }
                    l.endObject()
                }
            }
        case let .connectionRequest(a, c, link):
            s.field("address", a.description)
            cod(c, into: &s)
            s.field("link_type", link)
            s.field("link_type_name", ClassicNames.linkType(link))
        case let .authenticationComplete(status, h):
            s.writeStatus(status)
            s.field("handle", h)
        case let .remoteNameComplete(status, a, name):
            s.writeStatus(status)
            s.field("address", a.description)
            if status == 0 { s.field("name", String(decoding: name, as: UTF8.self)) }
        case let .remoteFeatures(status, h, page, maxPage, features):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("page", page)
            s.field("max_page", maxPage)
            s.field("features", hex: features)
            if status == 0 { s.list("feature_names") { s in for n in FeatureBits.lmp(features, page: Int(page)) { s.string(n) } } }
        case let .roleChange(status, a, role):
            s.writeStatus(status)
            s.field("address", a.description)
            s.field("role", HCIText.role(role))
        case let .modeChange(status, h, mode, interval):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("mode", mode)
            s.field("mode_name", ClassicNames.mode(mode))
            s.field("interval", interval)
        case let .pinCodeRequest(a), let .linkKeyRequest(a), let .ioCapabilityRequest(a), let .userPasskeyRequest(a):
            s.field("address", a.description)
        case let .linkKeyNotification(a, key, keyType):
            s.field("address", a.description)
            s.field("link_key", hex: key)
            s.field("key_type", keyType)
            s.field("key_type_name", ClassicNames.keyType(keyType))
        case let .synchronousConnectionComplete(status, h, a, link, interval, window, rx, tx, air):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("address", a.description)
            s.field("link_type", link)
            s.field("link_type_name", ClassicNames.linkType(link))
            s.field("transmission_interval", interval)
            s.field("retransmission_window", window)
            s.field("rx_packet_length", rx)
            s.field("tx_packet_length", tx)
            s.field("air_mode", air)
            s.field("air_mode_name", ClassicNames.airMode(air))
        case let .synchronousConnectionChanged(status, h, interval, window, rx, tx):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("transmission_interval", interval)
            s.field("retransmission_window", window)
            s.field("rx_packet_length", rx)
            s.field("tx_packet_length", tx)
        case let .sniffSubrating(status, h, tx, rx, remote, local):
            s.writeStatus(status)
            s.field("handle", h)
            s.field("max_tx_latency", tx)
            s.field("max_rx_latency", rx)
            s.field("min_remote_timeout", remote)
            s.field("min_local_timeout", local)
        case let .ioCapabilityResponse(a, io, oob, auth):
            s.field("address", a.description)
            s.field("io_capability", io)
            s.field("io_capability_name", ClassicNames.ioCapability(io))
            s.field("oob_data_present", oob)
            s.field("authentication_requirements", auth)
            s.field("authentication_requirements_name", ClassicNames.authenticationRequirements(auth))
        case let .userConfirmationRequest(a, value):
            s.field("address", a.description)
            s.field("numeric_value", Int(value))
        case let .simplePairingComplete(status, a):
            s.writeStatus(status)
            s.field("address", a.description)
        case let .userPasskeyNotification(a, passkey):
            s.field("address", a.description)
            s.field("passkey", Int(passkey))
        }
    }
}
