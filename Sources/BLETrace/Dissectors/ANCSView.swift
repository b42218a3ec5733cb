/// The joined ANCS view: one record per notification UID (per iPhone) with what Notification Source said about
/// it, the attributes Data Source returned, the actions performed and its life from added to removed; plus the
/// app display names and the ANCS errors. Summary section `ancs`.
public final class ANCSViewLayer: AnalysisLayer {
    public struct Record: Sendable, Equatable {
        /// The iPhone (the GATT server).
        public var deviceKey: DeviceKey
        public var device: String { deviceKey.description }
        public var connection: Int
        public var uid: UInt32
        public var categoryID: UInt8 = 0
        public var flags: UInt8 = 0
        /// Attribute ID → value, in arrival order (latest kept).
        public var attributes: [Attribute] = []
        public var addedRecord: Int?
        public var added: Timestamp?
        public var modified: [Int] = []
        public var removedRecord: Int?
        public var removed: Timestamp?
        /// First record that mentioned the UID (a pre-existing notification may never be "added" in the capture).
        public var firstRecord: Int
        public var actions: [(record: Int, action: UInt8)] = []

        public struct Attribute: Sendable, Equatable {
            public var id: UInt8
            public var value: String
        }

        public static func == (a: Record, b: Record) -> Bool {
            a.deviceKey == b.deviceKey && a.uid == b.uid && a.categoryID == b.categoryID && a.flags == b.flags && a.attributes == b.attributes
                && a.addedRecord == b.addedRecord && a.removedRecord == b.removedRecord && a.modified == b.modified
                && a.actions.map(\.record) == b.actions.map(\.record) && a.actions.map(\.action) == b.actions.map(\.action)
        }

        public func attribute(_ id: UInt8) -> String? { attributes.first(where: { $0.id == id })?.value }
    }

    struct Key: Hashable {
        var device: DeviceKey
        var uid: UInt32
    }

    @exclusivity(unchecked) public private(set) var records: [Record] = []
    @exclusivity(unchecked) var index: [Key: Int] = [:]
    /// App identifier → display name (Get App Attributes).
    @exclusivity(unchecked) public private(set) var appNames: [(String, String)] = []
    @exclusivity(unchecked) public private(set) var errors: [(record: Int, code: UInt8, command: String?)] = []
    @exclusivity(unchecked) var dataSourceProblems = 0
    @exclusivity(unchecked) var seen = false
    /// Bound on the UIDs kept; later ones are counted only.
    static let maxRecords = 100_000
    @exclusivity(unchecked) var dropped = 0

    public init() {}

    public func attach(to pipeline: Pipeline) {}

    func value(_ d: Dissection, _ fact: SummaryFact?, _ ctx: ValueContext) {
        guard d.dissector == "ancs" else { return }
        seen = true
        guard case let .ancs(ev)? = fact else {
            if d.problem != nil { dataSourceProblems += 1 }
            return
        }
        observe(ev, ctx)
    }

    func record(_ device: DeviceKey, _ uid: UInt32, _ ctx: ValueContext) -> Int? {
        let k = Key(device: device, uid: uid)
        if let i = index[k] { return i }
        guard records.count < ANCSViewLayer.maxRecords else { dropped += 1; return nil }
        records.append(Record(deviceKey: device, connection: ctx.connection, uid: uid, firstRecord: ctx.record))
        index[k] = records.count - 1
        return records.count - 1
    }

    func observe(_ ev: ANCSEvent, _ ctx: ValueContext) {
        switch ev {
        case let .notification(n):
            guard let i = record(ctx.device, n.uid, ctx) else { return }
            // A removal carries no meaningful flags; keep what the addition or last modification said.
            if n.eventID != 2 || records[i].addedRecord == nil && records[i].modified.isEmpty {
                records[i].categoryID = n.categoryID
                records[i].flags = n.flags
            }
            switch n.eventID {
            case 0:
                // A UID added again after removal starts a new life.
                if records[i].removedRecord != nil {
                    records[i].removedRecord = nil
                    records[i].removed = nil
                }
                records[i].addedRecord = ctx.record
                records[i].added = ctx.time
            case 1: records[i].modified.append(ctx.record)
            case 2:
                records[i].removedRecord = ctx.record
                records[i].removed = ctx.time
            default: break
            }
        case let .command(c):
            if case let .performNotificationAction(uid, action) = c, let i = record(ctx.device, uid, ctx) {
                records[i].actions.append((ctx.record, action))
            }
        case let .response(r):
            if r.commandID == 1, let app = r.appIdentifier {
                for a in r.attributes where a.id == 0 {
                    if let j = appNames.firstIndex(where: { $0.0 == app }) { appNames[j].1 = a.value } else { appNames.append((app, a.value)) }
                }
                return
            }
            guard let uid = r.uid, let i = record(ctx.device, uid, ctx) else { return }
            for a in r.attributes {
                if let j = records[i].attributes.firstIndex(where: { $0.id == a.id }) {
                    records[i].attributes[j].value = a.value
                } else {
                    records[i].attributes.append(Record.Attribute(id: a.id, value: a.value))
                }
            }
        case let .error(code, command):
            if errors.count < 1000 { errors.append((ctx.record, code, command.map { $0.text })) }
        }
    }

    public func summary() -> SummarySection? {
        guard seen else { return nil }
        var list: [FieldValue] = []
        var text: [String] = ["  ANCS:        \(records.count) notification\(records.count == 1 ? "" : "s")"
            + (errors.isEmpty ? "" : ", \(errors.count) error\(errors.count == 1 ? "" : "s")")]
        for r in records {
            var f = Fields()
            f.add("device", r.device)
            f.add("connection", r.connection)
            f.add("uid", Int(r.uid))
            f.add("category_id", Int(r.categoryID))
            f.add("category", ANCS.categoryName(r.categoryID))
            f.add("flags", DissectorText.list(ANCS.flagList(r.flags)))
            for a in r.attributes { f.add(ANCS.attributeKey(a.id, command: 0), a.value) }
            if let app = r.attribute(0), let name = appNames.first(where: { $0.0 == app })?.1 { f.add("app_name", name) }
            f.add("first_record", r.firstRecord)
            f.add("added_record", r.addedRecord.map { .int($0) } ?? .null)
            f.add("added", r.added.map { .string($0.iso8601) } ?? .null)
            f.add("modified_records", .list(r.modified.map { .int($0) }))
            f.add("removed_record", r.removedRecord.map { .int($0) } ?? .null)
            f.add("removed", r.removed.map { .string($0.iso8601) } ?? .null)
            if let a = r.added, let b = r.removed { f.add("lifetime_us", Int(b.micros - a.micros)) }
            f.add("actions", .list(r.actions.map { .object(["record": .int($0.record), "action": .string(ANCS.actionName($0.action))]) }))
            list.append(.object(f))

            var line = "    UID \(r.uid) \(ANCS.categoryName(r.categoryID))"
            let fl = ANCS.flagList(r.flags)
            if !fl.isEmpty { line += " [" + fl.joined(separator: ", ") + "]" }
            if let app = r.attribute(0) { line += " " + app }
            let shown = r.attributes.filter { (1...3).contains($0.id) }.map { "\"\($0.value)\"" }
            if !shown.isEmpty { line += ": " + shown.joined(separator: " / ") }
            if let d = r.attribute(5) { line += ", " + d }
            var life: [String] = []
            if let a = r.addedRecord { life.append("added #\(a)") } else { life.append("first seen #\(r.firstRecord)") }
            if !r.modified.isEmpty { life.append("modified ×\(r.modified.count)") }
            for a in r.actions.prefix(5) { life.append("\(ANCS.actionName(a.action)) action #\(a.record)") }
            if r.actions.count > 5 { life.append("\(r.actions.count - 5) more actions") }
            if let x = r.removedRecord {
                var s = "removed #\(x)"
                if let a = r.added, let b = r.removed { s += " after \(Fmt.seconds(micros: b.micros - a.micros).prefix(while: { $0 != "." })) s" }
                life.append(s)
            }
            line += " (" + life.joined(separator: ", ") + ")"
            text.append(line)
        }
        for e in errors.prefix(20) {
            text.append("    error #\(e.record): \(Hex.hex(e.code, width: 2)) \(ANCS.errorName(e.code) ?? "")" + (e.command.map { " for " + $0 } ?? ""))
        }
        var f = Fields()
        f.add("notifications", .list(list))
        f.add("apps", .list(appNames.map { .object(["app_identifier": .string($0.0), "display_name": .string($0.1)]) }))
        f.add("errors", .list(errors.map { e in
            var o = Fields()
            o.add("record", e.record)
            o.add("error", Int(e.code))
            o.add("error_name", ANCS.errorName(e.code) ?? "")
            if let c = e.command { o.add("command", c) }
            return .object(o)
        }))
        f.add("data_source_problems", dataSourceProblems)
        if dropped > 0 { f.add("dropped", dropped) }
        return SummarySection(name: "ancs", value: .object(f), text: text)
    }
}
