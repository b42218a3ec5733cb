/// The non-HCI records formats carry (PacketLogger notes, btmon system notes, index events), as a `NoteBody`.
enum Notes {
    static func describe(_ r: Record, _ e: inout TraceEvent) {
        let monitor = isMonitor(r)
        func body(_ c: NoteBody.Content) -> EventBody {
            .note(NoteBody(c, sourceType: r.sourceType, monitor: monitor, controller: r.controller))
        }
        if monitor && r.sourceType == 0 && r.data.count >= 16 {
            // New Index: type, bus, address, name.
            var c = ByteCursor(r.data)
            if let type = try? c.u8(), let bus = try? c.u8(), let addr = try? c.address(), let raw = try? c.bytes(8) {
                e.body = body(.newIndex(type: type, bus: bus, address: addr, name: raw.prefix(while: { $0 != 0 })))
                return
            }
        }
        if monitor && r.sourceType == 1 {
            e.body = body(.deleteIndex)
            return
        }
        if monitor, let c = MonitorRecords.content(r) {
            e.body = body(c)
            return
        }
        // PacketLogger's LMP and configuration records are binary whatever their bytes look like.
        if r.origin == .packetLogger && PacketLoggerReader.RecordType.binary.contains(UInt8(truncatingIfNeeded: r.sourceType)) {
            e.body = body(.data(r.data))
            return
        }
        // Printable: well-formed UTF-8 with no control characters but line feed and tab; anything else is shown
        // as bytes, never as text full of U+FFFD.
        let text = r.data.prefix(while: { $0 != 0 })
        let printable = !text.isEmpty && text.allSatisfy { $0 >= 0x20 || $0 == 0x0A || $0 == 0x09 }
            && (text.allSatisfy { $0 < 0x80 } || String(validating: text, as: UTF8.self) != nil)
        e.body = body(printable ? .text(text) : .data(r.data))
    }

    static func isMonitor(_ r: Record) -> Bool { r.origin == .linuxMonitor }
}
