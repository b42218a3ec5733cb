/// Text and JSON of `NoteBody`: "label: text" and the `note` layer.
extension NoteBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout TextBytes) {
        b.append(string: label)
        switch content {
        case let .newIndex(type, bus, address, name):
            b.append(string: ": hci")
            b.append(decimal: Int(controller))
            // The name is the index's own ("hci0") unless the kernel named it otherwise: said once.
            let text = String(decoding: name, as: UTF8.self)
            if !text.isEmpty && text != "hci\(controller)" {
                b.append(UInt8(ascii: " "))
                b.append(string: text)
            }
            b.append(UInt8(ascii: " "))
            b.append(string: address.description)
            b.append(string: " (type ")
            b.append(decimal: Int(type))
            b.append(string: ", bus ")
            b.append(decimal: Int(bus))
            b.append(UInt8(ascii: ")"))
        case .deleteIndex:
            b.append(string: ": hci")
            b.append(decimal: Int(controller))
        case let .indexInfo(address, manufacturer):
            b.append(string: ": hci")
            b.append(decimal: Int(controller))
            b.append(UInt8(ascii: " "))
            b.append(string: address.description)
            b.append(string: ", manufacturer ")
            b.append(string: AssignedNumbers.companyName(manufacturer) ?? Hex.hex(manufacturer, width: 4))
        case let .controlOpen(o):
            b.append(string: ": ")
            b.append(string: o.formatName)
            b.append(string: " socket of ")
            b.append(string: o.process.isEmpty ? "an unnamed process" : String(decoding: o.process, as: UTF8.self))
            if o.flags & 1 != 0 { b.append(string: " (privileged)") }
            b.append(string: ", version ")
            b.append(decimal: Int(o.version))
            b.append(UInt8(ascii: "."))
            b.append(decimal: Int(o.revision))
            b.append(string: ", cookie ")
            b.append(hex: UInt64(o.cookie), width: 8)
        case let .controlClose(cookie):
            b.append(string: ": cookie ")
            b.append(hex: UInt64(cookie), width: 8)
        case let .controlMessage(cookie, opcode, parameters):
            b.append(string: ": opcode ")
            b.append(hex: UInt64(opcode), width: 4)
            b.append(string: ", cookie ")
            b.append(hex: UInt64(cookie), width: 8)
            if !parameters.isEmpty {
                b.append(string: ", ")
                b.append(decimal: parameters.count)
                b.append(string: " bytes: ")
                b.append(spacedHex: parameters, limit: 16)
            }
        case let .text(bytes):
            b.append(string: ": ")
            // As the text decodes (ill-formed UTF-8 becomes U+FFFD), with line breaks as spaces.
            let start = b.count
            b.append(string: String(decoding: bytes, as: UTF8.self))
            b.replace(0x0A, with: 0x20, from: start)
        case let .data(bytes):
            if !bytes.isEmpty {
                b.append(string: ", ")
                b.append(decimal: bytes.count)
                b.append(string: " bytes: ")
                b.append(spacedHex: bytes, limit: 16)
            }
        }
    }

    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {
        s.object("note") { s in
            s.field("source_type", Int(sourceType))
            s.field("label", label)
            switch content {
            case let .newIndex(type, bus, address, name):
                s.field("index", Int(controller))
                s.field("type", Int(type))
                s.field("bus", Int(bus))
                s.field("address", address.description)
                s.field("name", String(decoding: name, as: UTF8.self))
            case .deleteIndex:
                s.field("index", Int(controller))
            case let .indexInfo(address, manufacturer):
                s.field("index", Int(controller))
                s.field("address", address.description)
                s.field("manufacturer", Int(manufacturer))
                if let n = AssignedNumbers.companyName(manufacturer) { s.field("manufacturer_name", n) }
            case let .controlOpen(o):
                s.field("cookie", Int(o.cookie))
                s.field("format", Int(o.format))
                s.field("format_name", o.formatName)
                s.field("version", Int(o.version))
                s.field("revision", Int(o.revision))
                s.field("privileged", o.flags & 1 != 0)
                s.field("process", String(decoding: o.process, as: UTF8.self))
            case let .controlClose(cookie):
                s.field("cookie", Int(cookie))
            case let .controlMessage(cookie, opcode, parameters):
                s.field("cookie", Int(cookie))
                s.field("opcode", Int(opcode))
                s.field("parameters", hex: parameters)
            case let .text(bytes):
                s.field("text", String(decoding: bytes, as: UTF8.self))
            case let .data(bytes):
                s.field("data", hex: bytes)
            }
        }
    }
}
