/// A value bound to or read from a store. PostgreSQL's text results are turned into these by column type.
public enum SQLValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    public var description: String {
        switch self {
        case .null: return "NULL"
        case let .int(v): return String(v)
        case let .double(v): return String(v)
        case let .text(s): return s
        }
    }

    init(_ s: String?) { self = s.map { .text($0) } ?? .null }
    init(_ i: Int?) { self = i.map { .int(Int64($0)) } ?? .null }
    init(_ b: Bool) { self = .int(b ? 1 : 0) }
}

/// The store's tables, the same on SQLite and PostgreSQL (TEXT, BIGINT; booleans are 0/1 BIGINTs, times
/// ISO 8601 UTC text), versioned in `meta.schema_version`. docs/triage.md describes every column.
public enum TriageSchema {
    /// Raised when the tables change; a store of another version is refused (exit 2), never altered.
    public static let version = 1

    public enum ColumnType: Sendable { case text, int }

    public struct Table: Sendable {
        public var name: String
        public var columns: [(name: String, type: ColumnType, notNull: Bool)]
        /// Child tables: their key within the capture.
        public var key: [String]
        public var child: Bool { name != "captures" }

        public var columnNames: [String] { columns.map(\.name) }
    }

    static func t(_ n: String) -> (name: String, type: ColumnType, notNull: Bool) { (n, .text, false) }
    static func i(_ n: String) -> (name: String, type: ColumnType, notNull: Bool) { (n, .int, false) }
    static func T(_ n: String) -> (name: String, type: ColumnType, notNull: Bool) { (n, .text, true) }
    static func I(_ n: String) -> (name: String, type: ColumnType, notNull: Bool) { (n, .int, true) }

    public static let captures = Table(name: "captures", columns: [
        T("sha256"), T("path"), t("member"), T("file_sha256"), t("format"), i("link_type"), t("containers"),
        I("records"), t("first_time"), t("last_time"), i("duration_us"), T("status"), t("error"),
        t("controller_address"), i("controller_company"), t("controller_manufacturer"), i("controller_hci_version"),
        i("controller_subversion"), I("devices"), I("connections"), I("diagnoses"), I("errors"), I("warnings"),
        T("bletrace_version"), T("analysed_at"), I("analysis_ms"),
    ], key: ["sha256"])

    public static let diagnoses = Table(name: "diagnoses", columns: [
        T("sha256"), I("ordinal"), T("id"), T("severity"), I("count"), t("peer"), I("peer_count"), T("connections"),
        I("first_record"), I("last_record"), T("title"),
    ], key: ["sha256", "ordinal"])

    public static let devices = Table(name: "devices", columns: [
        T("sha256"), I("ordinal"), T("address"), T("address_type"), t("name"), T("transport"), I("connectable"),
        I("connected"), I("reports"), i("rssi_max"),
    ], key: ["sha256", "ordinal"])

    public static let connections = Table(name: "connections", columns: [
        T("sha256"), I("number"), I("handle"), t("peer"), t("peer_address_type"), t("role"), T("transport"),
        i("interval"), i("latency"), i("timeout"), i("mtu"), t("tx_phy"), t("rx_phy"), I("encrypted"), t("pairing"),
        t("pairing_method"), t("pairing_result"), i("pairing_failed_reason"), i("opened_record"), i("closed_record"),
        i("duration_us"), i("disconnect_reason"), t("disconnect_reason_name"),
    ], key: ["sha256", "number"])

    public static let deviceInformation = Table(name: "device_information", columns: [
        T("sha256"), T("peer"), t("device_name"), t("manufacturer"), t("model"), t("serial"), t("firmware_revision"),
        t("hardware_revision"), t("software_revision"),
    ], key: ["sha256", "peer"])

    public static let links = Table(name: "link_stats", columns: [
        T("sha256"), I("connection"), T("transport"), I("span_us"), I("tx_packets"), I("tx_bytes"), I("rx_packets"),
        I("rx_bytes"), I("latency_count"), i("latency_p50_us"), i("latency_p95_us"), i("latency_max_us"),
        I("tx_peak_bps"), I("rx_peak_bps"), i("tx_mean_bps"), i("rx_mean_bps"),
    ], key: ["sha256", "connection"])

    public static let findings = Table(name: "findings", columns: [
        T("sha256"), I("ordinal"), T("kind"), T("text"), t("peer"), I("count"), I("first_record"), I("last_record"),
    ], key: ["sha256", "ordinal"])

    /// Parents first.
    public static let tables = [captures, diagnoses, devices, connections, deviceInformation, links, findings]

    /// Every table a store has: `meta` and `tables`.
    public static var tableNames: [String] { ["meta"] + tables.map(\.name) }

    /// The DDL, in order, for both back ends (`IF NOT EXISTS`: run when a table is missing, by several processes at once).
    public static var ddl: [String] {
        var out = ["CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"]
        for table in tables {
            var cols = table.columns.map { c in
                "\(c.name) \(c.type == .text ? "TEXT" : "BIGINT")\(c.notNull ? " NOT NULL" : "")"
            }
            if table.child {
                cols.append("PRIMARY KEY (\(table.key.joined(separator: ", ")))")
                cols.append("FOREIGN KEY (sha256) REFERENCES captures (sha256) ON DELETE CASCADE")
            } else {
                cols[0] += " PRIMARY KEY"
            }
            out.append("CREATE TABLE IF NOT EXISTS \(table.name) (\n  " + cols.joined(separator: ",\n  ") + "\n)")
        }
        out += [
            "CREATE INDEX IF NOT EXISTS diagnoses_id ON diagnoses (id)",
            "CREATE INDEX IF NOT EXISTS device_information_firmware ON device_information (firmware_revision)",
            "CREATE INDEX IF NOT EXISTS device_information_model ON device_information (model)",
            "CREATE INDEX IF NOT EXISTS captures_status ON captures (status)",
        ]
        return out
    }

    /// `INSERT INTO table (…) VALUES (?, …)`; PostgreSQL's placeholders are `$1`, `$2`, ….
    static func insert(_ table: Table, dollar: Bool) -> String {
        let marks = table.columns.indices.map { dollar ? "$\($0 + 1)" : "?" }
        return "INSERT INTO \(table.name) (\(table.columnNames.joined(separator: ", "))) VALUES (\(marks.joined(separator: ", ")))"
    }

    /// `SELECT every column FROM table ORDER BY its key`.
    static func select(_ table: Table) -> String {
        "SELECT \(table.columnNames.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))"
    }
}

// MARK: rows ↔ values

/// Reads a row's values in column order, checking each: a value of the wrong type is a `TriageStoreError`,
/// never a trap.
struct SQLRowReader {
    let values: [SQLValue]
    let table: String
    var i = 0

    init(_ values: [SQLValue], table: String) {
        self.values = values
        self.table = table
    }

    mutating func next() throws -> SQLValue {
        guard i < values.count else { throw TriageStoreError.badValue("\(table): row has \(values.count) columns, fewer than expected") }
        defer { i += 1 }
        return values[i]
    }

    mutating func text() throws -> String? {
        switch try next() {
        case .null: return nil
        case let .text(s): return s
        case let .int(v): return String(v)
        case let .double(v): return String(v)
        }
    }

    mutating func int() throws -> Int? {
        switch try next() {
        case .null: return nil
        case let .int(v): return Int(exactly: v)
        case let .double(v): return v.isFinite && v.rounded() == v && abs(v) < 9e18 ? Int(v) : nil
        case let .text(s):
            guard let v = Int(s) else { throw TriageStoreError.badValue("\(table): column \(i) holds '\(s)', not an integer") }
            return v
        }
    }

    mutating func requiredText() throws -> String {
        guard let s = try text() else { throw TriageStoreError.badValue("\(table): column \(i) is NULL") }
        return s
    }

    mutating func requiredInt() throws -> Int {
        guard let v = try int() else { throw TriageStoreError.badValue("\(table): column \(i) is NULL or not an integer") }
        return v
    }

    mutating func bool() throws -> Bool { try requiredInt() != 0 }
}

extension TriageRecord {
    /// The capture's row and each child table's rows, in `TriageSchema.tables` order.
    var rows: [(TriageSchema.Table, [[SQLValue]])] {
        let h = SQLValue.text(capture.sha256)
        let c = capture
        return [
            (TriageSchema.captures, [[
                h, SQLValue(c.path), SQLValue(c.member), SQLValue(c.fileSHA256), SQLValue(c.format), SQLValue(c.linkType),
                SQLValue(c.containers), SQLValue(c.records), SQLValue(c.firstTime), SQLValue(c.lastTime),
                SQLValue(c.durationMicros), SQLValue(c.status.rawValue), SQLValue(c.error), SQLValue(c.controllerAddress),
                SQLValue(c.controllerCompany), SQLValue(c.controllerManufacturer), SQLValue(c.controllerHCIVersion),
                SQLValue(c.controllerSubversion), SQLValue(c.devices), SQLValue(c.connections), SQLValue(c.diagnoses),
                SQLValue(c.errors), SQLValue(c.warnings), SQLValue(c.bletraceVersion), SQLValue(c.analysedAt),
                SQLValue(c.analysisMillis),
            ]]),
            (TriageSchema.diagnoses, diagnoses.map { d in
                [h, SQLValue(d.ordinal), SQLValue(d.id), SQLValue(d.severity), SQLValue(d.count), SQLValue(d.peer),
                 SQLValue(d.peerCount), SQLValue(d.connections), SQLValue(d.firstRecord), SQLValue(d.lastRecord), SQLValue(d.title)]
            }),
            (TriageSchema.devices, devices.map { d in
                [h, SQLValue(d.ordinal), SQLValue(d.address), SQLValue(d.addressType), SQLValue(d.name), SQLValue(d.transport),
                 SQLValue(d.connectable), SQLValue(d.connected), SQLValue(d.reports), SQLValue(d.rssiMax)]
            }),
            (TriageSchema.connections, connections.map { x in
                [h, SQLValue(x.number), SQLValue(x.handle), SQLValue(x.peer), SQLValue(x.peerAddressType), SQLValue(x.role),
                 SQLValue(x.transport), SQLValue(x.interval), SQLValue(x.latency), SQLValue(x.timeout), SQLValue(x.mtu),
                 SQLValue(x.txPHY), SQLValue(x.rxPHY), SQLValue(x.encrypted), SQLValue(x.pairing), SQLValue(x.pairingMethod),
                 SQLValue(x.pairingResult), SQLValue(x.pairingFailedReason), SQLValue(x.openedRecord), SQLValue(x.closedRecord),
                 SQLValue(x.durationMicros), SQLValue(x.disconnectReason), SQLValue(x.disconnectReasonName)]
            }),
            (TriageSchema.deviceInformation, deviceInformation.map { d in
                [h, SQLValue(d.peer), SQLValue(d.deviceName), SQLValue(d.manufacturer), SQLValue(d.model), SQLValue(d.serial),
                 SQLValue(d.firmwareRevision), SQLValue(d.hardwareRevision), SQLValue(d.softwareRevision)]
            }),
            (TriageSchema.links, links.map { l in
                [h, SQLValue(l.connection), SQLValue(l.transport), SQLValue(l.spanMicros), SQLValue(l.txPackets),
                 SQLValue(l.txBytes), SQLValue(l.rxPackets), SQLValue(l.rxBytes), SQLValue(l.latencyCount),
                 SQLValue(l.latencyP50Micros), SQLValue(l.latencyP95Micros), SQLValue(l.latencyMaxMicros),
                 SQLValue(l.txPeakBPS), SQLValue(l.rxPeakBPS), SQLValue(l.txMeanBPS), SQLValue(l.rxMeanBPS)]
            }),
            (TriageSchema.findings, findings.map { f in
                [h, SQLValue(f.ordinal), SQLValue(f.kind), SQLValue(f.text), SQLValue(f.peer), SQLValue(f.count),
                 SQLValue(f.firstRecord), SQLValue(f.lastRecord)]
            }),
        ]
    }

    /// Rebuilds records from every table's rows (each in `TriageSchema.select` order). Rows of a capture the
    /// `captures` table lacks are ignored; a value of the wrong type throws.
    static func assemble(_ tables: [String: [[SQLValue]]]) throws -> [TriageRecord] {
        var records: [TriageRecord] = []
        var index: [String: Int] = [:]
        for values in tables["captures"] ?? [] {
            var r = SQLRowReader(values, table: "captures")
            let sha = try r.requiredText(), path = try r.requiredText(), member = try r.text(), file = try r.requiredText()
            let format = try r.text(), linkType = try r.int(), containers = try r.text(), records_ = try r.requiredInt()
            let first = try r.text(), last = try r.text(), duration = try r.int()
            let statusText = try r.requiredText()
            guard let status = TriageStatus(rawValue: statusText) else {
                throw TriageStoreError.badValue("captures: status '\(statusText)' is not one of ok, damaged, failed")
            }
            let error = try r.text()
            var c = TriageCapture(sha256: sha, path: path, member: member, fileSHA256: file, status: status, bletraceVersion: "", analysedAt: "")
            c.format = format; c.linkType = linkType; c.containers = containers; c.records = records_
            c.firstTime = first; c.lastTime = last; c.durationMicros = duration; c.error = error
            c.controllerAddress = try r.text(); c.controllerCompany = try r.int(); c.controllerManufacturer = try r.text()
            c.controllerHCIVersion = try r.int(); c.controllerSubversion = try r.int()
            c.devices = try r.requiredInt(); c.connections = try r.requiredInt(); c.diagnoses = try r.requiredInt()
            c.errors = try r.requiredInt(); c.warnings = try r.requiredInt()
            c.bletraceVersion = try r.requiredText(); c.analysedAt = try r.requiredText(); c.analysisMillis = try r.requiredInt()
            index[sha] = records.count
            records.append(TriageRecord(capture: c))
        }
        func each(_ table: TriageSchema.Table, _ body: (inout SQLRowReader, Int) throws -> Void) throws {
            for values in tables[table.name] ?? [] {
                var r = SQLRowReader(values, table: table.name)
                guard let sha = try r.text(), let at = index[sha] else { continue }
                try body(&r, at)
            }
        }
        try each(TriageSchema.diagnoses) { r, at in
            records[at].diagnoses.append(TriageDiagnosis(
                ordinal: try r.requiredInt(), id: try r.requiredText(), severity: try r.requiredText(), count: try r.requiredInt(),
                peer: try r.text(), peerCount: try r.requiredInt(), connections: try r.requiredText(), firstRecord: try r.requiredInt(),
                lastRecord: try r.requiredInt(), title: try r.requiredText()))
        }
        try each(TriageSchema.devices) { r, at in
            records[at].devices.append(TriageDevice(
                ordinal: try r.requiredInt(), address: try r.requiredText(), addressType: try r.requiredText(), name: try r.text(),
                transport: try r.requiredText(), connectable: try r.bool(), connected: try r.bool(), reports: try r.requiredInt(),
                rssiMax: try r.int()))
        }
        try each(TriageSchema.connections) { r, at in
            records[at].connections.append(TriageConnection(
                number: try r.requiredInt(), handle: try r.requiredInt(), peer: try r.text(), peerAddressType: try r.text(),
                role: try r.text(), transport: try r.requiredText(), interval: try r.int(), latency: try r.int(), timeout: try r.int(),
                mtu: try r.int(), txPHY: try r.text(), rxPHY: try r.text(), encrypted: try r.bool(), pairing: try r.text(),
                pairingMethod: try r.text(), pairingResult: try r.text(), pairingFailedReason: try r.int(),
                openedRecord: try r.int(), closedRecord: try r.int(), durationMicros: try r.int(), disconnectReason: try r.int(),
                disconnectReasonName: try r.text()))
        }
        try each(TriageSchema.deviceInformation) { r, at in
            records[at].deviceInformation.append(TriageDeviceInformation(
                peer: try r.requiredText(), deviceName: try r.text(), manufacturer: try r.text(), model: try r.text(),
                serial: try r.text(), firmwareRevision: try r.text(), hardwareRevision: try r.text(), softwareRevision: try r.text()))
        }
        try each(TriageSchema.links) { r, at in
            records[at].links.append(TriageLink(
                connection: try r.requiredInt(), transport: try r.requiredText(), spanMicros: try r.requiredInt(),
                txPackets: try r.requiredInt(), txBytes: try r.requiredInt(), rxPackets: try r.requiredInt(), rxBytes: try r.requiredInt(),
                latencyCount: try r.requiredInt(), latencyP50Micros: try r.int(), latencyP95Micros: try r.int(),
                latencyMaxMicros: try r.int(), txPeakBPS: try r.requiredInt(), rxPeakBPS: try r.requiredInt(),
                txMeanBPS: try r.int(), rxMeanBPS: try r.int()))
        }
        try each(TriageSchema.findings) { r, at in
            records[at].findings.append(TriageFinding(
                ordinal: try r.requiredInt(), kind: try r.requiredText(), text: try r.requiredText(), peer: try r.text(),
                count: try r.requiredInt(), firstRecord: try r.requiredInt(), lastRecord: try r.requiredInt()))
        }
        return records
    }
}
