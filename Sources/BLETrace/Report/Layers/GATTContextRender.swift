/// Text and JSON of a `GATTLocation`: "handle 0x0003 Battery Level (Battery)" and the `gatt` object, with
/// names from the assigned-number tables.
enum GATTContextRender {
    static func name(_ u: BLEUUID, _ kind: (UInt16) -> String?) -> String { GATTNaming.name(u, kind: kind) ?? u.description }

    /// "handle 0x0003 Battery Level (Battery)" style text, copied from the memo of the buffer's output
    /// (`GATTRenderMemo`) when the buffer has one and it made this text before.
    static func writeHandle(_ h: UInt16, _ loc: GATTLocation?, into b: inout TextBytes) {
        guard let loc, let memo = b.memo else {
            makeHandle(h, loc, into: &b)
            return
        }
        if let made = memo.text.find(h, loc, byHandle: true) {
            b.append(contentsOf: made)
            return
        }
        let start = b.count
        makeHandle(h, loc, into: &b)
        b.withBytes { memo.text.remember(h, loc, UnsafeBufferPointer(rebasing: $0[start...])) }
    }

    /// `writeHandle` of a location given as the database's shared entry: the memo knows it by reference.
    static func writeHandle(_ h: UInt16, ref: GATTLocationRef?, into b: inout TextBytes) {
        guard let ref, let memo = b.memo else {
            writeHandle(h, ref?.location, into: &b)
            return
        }
        if let made = memo.text.find(h, ref: ref, byHandle: true) {
            b.append(contentsOf: made)
            return
        }
        let start = b.count
        makeHandle(h, ref.location, into: &b)
        b.withBytes { memo.text.remember(h, ref.location, UnsafeBufferPointer(rebasing: $0[start...]), ref: ref) }
    }

    /// "handle 0x000E".
    static func writeHandleNumber(_ h: UInt16, into b: inout TextBytes) {
        b.append(string: "handle ")
        b.append(hex: UInt64(h), width: 4)
    }

    /// `writeHandle`'s text, made.
    static func makeHandle(_ h: UInt16, _ loc: GATTLocation?, into b: inout TextBytes) {
        writeHandleNumber(h, into: &b)
        guard let loc else { return }
        let svc = loc.service.flatMap { $0.uuid }
        func service() {
            if let s = svc {
                b.append(string: " (")
                b.append(string: name(s, AssignedNumbers.serviceName))
                b.append(UInt8(ascii: ")"))
            }
        }
        let ch = loc.characteristic?.uuid
        switch loc.role {
        case .serviceDeclaration:
            b.append(string: " service declaration")
            service()
        case .include:
            b.append(string: " include")
            service()
        case .characteristicDeclaration:
            b.append(string: " declaration of ")
            b.append(string: ch.map { name($0, AssignedNumbers.characteristicName) } ?? "characteristic")
            service()
        case .value:
            b.append(UInt8(ascii: " "))
            b.append(string: ch.map { name($0, AssignedNumbers.characteristicName) } ?? "characteristic value")
            service()
        case .descriptor:
            b.append(UInt8(ascii: " "))
            b.append(string: loc.descriptor?.uuid.map { name($0, AssignedNumbers.descriptorName) } ?? "descriptor")
            if let c = ch {
                b.append(string: " of ")
                b.append(string: name(c, AssignedNumbers.characteristicName))
            }
            service()
        case .unknown:
            service()
        }
    }

    /// `GATTNaming.label`'s text ("2A19 Battery Level"), written in place.
    static func writeLabel(_ u: BLEUUID, kind: (UInt16) -> String?, into b: inout TextBytes) {
        u.withText { b.append(contentsOf: $0) }
        if let n = GATTNaming.name(u, kind: kind) {
            b.append(UInt8(ascii: " "))
            b.append(string: n)
        }
    }

    static func writeUUID<S: FieldSink>(_ u: BLEUUID?, role: GATTNameRole, into s: inout S) {
        guard let u else { return }
        s.uuidAndName(u, role: role)
    }

    /// The `gatt` object's members; the caller writes it only for a non-empty location.
    static func writeFields<S: FieldSink>(_ loc: GATTLocation, into s: inout S) {
        if let svc = loc.service {
            s.object("service") { s in
                writeUUID(svc.uuid, role: .service, into: &s)
                s.field("start", Int(svc.start))
                s.field("end", Int(svc.end))
            }
        }
        if let c = loc.characteristic {
            s.object("characteristic") { s in
                writeUUID(c.uuid, role: .characteristic, into: &s)
                s.field("handle", Int(c.handle))
                s.field("value_handle", Int(c.valueHandle))
            }
        }
        if let d = loc.descriptor {
            s.object("descriptor") { s in
                writeUUID(d.uuid, role: .descriptor, into: &s)
                s.field("handle", Int(d.handle))
            }
        }
        if loc.role != .unknown { s.field("role", loc.role.rawValue) }
    }

    /// `writeMember` of a location given as the database's shared entry.
    static func writeMember<S: FieldSink>(ref: GATTLocationRef?, into s: inout S) {
        guard let ref, !ref.location.isEmpty else { return }
        s.gattMember(ref: ref)
    }

    /// A `gatt` member of the current object, when the location says something.
    static func writeMember<S: FieldSink>(_ loc: GATTLocation?, into s: inout S) {
        guard let loc, !loc.isEmpty else { return }
        s.gattMember(loc)
    }

    /// "of Battery Level (Battery, handle 0x000E)", or "of handle 0x000E": what a finding is about.
    static func target(handle: UInt16?, _ loc: GATTLocation?) -> String {
        TextBytes.string { writeTarget(handle: handle, loc, into: &$0) }
    }

    /// `target`, written in place.
    static func writeTarget(handle: UInt16?, _ loc: GATTLocation?, into b: inout TextBytes) {
        let known = loc.map { !$0.isEmpty } ?? false
        let ch = known ? loc?.characteristic?.uuid : nil
        let desc = known ? loc?.descriptor?.uuid : nil
        let svc = known ? loc?.service?.uuid : nil
        guard desc != nil || ch != nil || svc != nil else {
            if let h = handle {
                b.append(string: "of ")
                writeHandleNumber(h, into: &b)
            }
            return
        }
        b.append(string: "of ")
        if let d = desc {
            b.append(string: name(d, AssignedNumbers.descriptorName))
            if let c = ch {
                b.append(string: " of ")
                b.append(string: name(c, AssignedNumbers.characteristicName))
            }
        } else if let c = ch {
            b.append(string: name(c, AssignedNumbers.characteristicName))
        } else if let s = svc {
            b.append(string: "service ")
            b.append(string: name(s, AssignedNumbers.serviceName))
        }
        if let s = svc, desc != nil || ch != nil {
            b.append(string: " (")
            b.append(string: name(s, AssignedNumbers.serviceName))
            if let h = handle {
                b.append(string: ", ")
                writeHandleNumber(h, into: &b)
            }
            b.append(UInt8(ascii: ")"))
        } else if let h = handle {
            b.append(string: " (")
            writeHandleNumber(h, into: &b)
            b.append(UInt8(ascii: ")"))
        }
    }
}
