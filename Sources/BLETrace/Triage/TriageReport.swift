/// What a triage found, from stored records only (so `--report` prints the same from the store): one line per
/// capture, and per diagnosis id the captures that have it, broken down by the peers' firmware revision and
/// model where the captures read them from Device Information.
public struct TriageReport: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var file: String
        public var member: String?
        public var sha256: String
        public var status: TriageStatus
        public var records: Int
        public var devices: Int
        public var connections: Int
        /// (id, count), in the capture's order (errors first).
        public var diagnoses: [(id: String, count: Int)]
        public var error: String?

        public static func == (a: Line, b: Line) -> Bool {
            a.file == b.file && a.member == b.member && a.sha256 == b.sha256 && a.status == b.status && a.records == b.records
                && a.devices == b.devices && a.connections == b.connections && a.error == b.error
                && a.diagnoses.map { "\($0.id)=\($0.count)" } == b.diagnoses.map { "\($0.id)=\($0.count)" }
        }

        public var name: String { member.map { file + " [" + $0 + "]" } ?? file }
    }

    /// "firmware 1.4.3: 29 of 40": of the captures with this value, how many have the diagnosis.
    public struct Share: Sendable, Equatable {
        public var value: String
        public var having: Int
        public var of: Int
    }

    public struct Aggregate: Sendable, Equatable {
        public var id: String
        /// The most severe the diagnosis was in any capture.
        public var severity: String
        /// Captures that have it, of the captures analysed.
        public var captures: Int
        public var of: Int
        /// Occurrences summed over the captures.
        public var occurrences: Int
        public var byFirmware: [Share]
        public var byModel: [Share]
    }

    public var lines: [Line]
    public var aggregates: [Aggregate]
    /// Captures analysed (read whole or up to damage), damaged, and failed (not analysed).
    public var analysed: Int
    public var damaged: Int
    public var failed: Int

    /// A capture's diagnoses by id, in the order they first appear, with the counts of one id added up (a
    /// diagnosis is one per peer: `weak_security` on two peers is `weak_security×2`).
    static func byID(_ list: [TriageDiagnosis]) -> [(id: String, count: Int)] {
        var out: [(id: String, count: Int)] = []
        for d in list.sorted(by: { $0.ordinal < $1.ordinal }) {
            if let i = out.firstIndex(where: { $0.id == d.id }) { out[i].count += d.count } else { out.append((d.id, d.count)) }
        }
        return out
    }

    /// The report's order: by path, member, hash.
    static func inOrder(_ records: [TriageRecord]) -> [TriageRecord] {
        records.sorted { ($0.capture.path, $0.capture.member ?? "", $0.capture.sha256) < ($1.capture.path, $1.capture.member ?? "", $1.capture.sha256) }
    }

    public init(_ records: [TriageRecord]) {
        let sorted = TriageReport.inOrder(records)
        lines = sorted.map { r in
            Line(file: r.capture.path, member: r.capture.member, sha256: r.capture.sha256, status: r.capture.status,
                 records: r.capture.records, devices: r.capture.devices, connections: r.capture.connections,
                 diagnoses: TriageReport.byID(r.diagnoses), error: r.capture.error)
        }
        let read = sorted.filter { $0.capture.status != .failed }
        analysed = read.count
        damaged = sorted.filter { $0.capture.status == .damaged }.count
        failed = sorted.count - analysed
        aggregates = TriageReport.aggregate(read)
    }

    static let severityRank = ["info": 0, "warning": 1, "error": 2]

    static func aggregate(_ read: [TriageRecord]) -> [Aggregate] {
        // Per capture: its firmware revisions and models (all peers), and per peer.
        struct Known {
            var firmware = Set<String>(), model = Set<String>()
            var firmwareOf: [String: String] = [:], modelOf: [String: String] = [:]
        }
        let known: [Known] = read.map { r in
            var k = Known()
            for d in r.deviceInformation {
                if let f = d.firmwareRevision?.trimmed, !f.isEmpty { k.firmware.insert(f); k.firmwareOf[d.peer] = f }
                if let m = d.model?.trimmed, !m.isEmpty { k.model.insert(m); k.modelOf[d.peer] = m }
            }
            return k
        }
        var firmwareTotal: [String: Int] = [:], modelTotal: [String: Int] = [:]
        for k in known {
            for f in k.firmware { firmwareTotal[f, default: 0] += 1 }
            for m in k.model { modelTotal[m, default: 0] += 1 }
        }
        struct Acc {
            var captures = 0, occurrences = 0, severity = 0
            var firmware: [String: Int] = [:], model: [String: Int] = [:]
        }
        var acc: [String: Acc] = [:]
        for (r, k) in zip(read, known) {
            var ids: [String: (count: Int, severity: Int, firmware: Set<String>, model: Set<String>)] = [:]
            for d in r.diagnoses {
                var e = ids[d.id] ?? (0, 0, [], [])
                e.count += d.count
                e.severity = max(e.severity, severityRank[d.severity] ?? 0)
                // The diagnosis' peer's firmware and model when its card has them; else every peer's of the capture.
                if let p = d.peer, let f = k.firmwareOf[p] { e.firmware.insert(f) } else { e.firmware.formUnion(k.firmware) }
                if let p = d.peer, let m = k.modelOf[p] { e.model.insert(m) } else { e.model.formUnion(k.model) }
                ids[d.id] = e
            }
            for (id, e) in ids {
                var a = acc[id] ?? Acc()
                a.captures += 1
                a.occurrences += e.count
                a.severity = max(a.severity, e.severity)
                for f in e.firmware { a.firmware[f, default: 0] += 1 }
                for m in e.model { a.model[m, default: 0] += 1 }
                acc[id] = a
            }
        }
        func shares(_ having: [String: Int], _ totals: [String: Int]) -> [Share] {
            having.map { Share(value: $0.key, having: $0.value, of: totals[$0.key] ?? $0.value) }
                .sorted { ($1.having, $0.of, $0.value) < ($0.having, $1.of, $1.value) }
        }
        let names = ["info", "warning", "error"]
        return acc.map { id, a in
            Aggregate(id: id, severity: names[min(max(a.severity, 0), 2)], captures: a.captures, of: read.count,
                      occurrences: a.occurrences, byFirmware: shares(a.firmware, firmwareTotal), byModel: shares(a.model, modelTotal))
        }.sorted { ($1.captures, severityRank[$1.severity] ?? 0, $0.id) < ($0.captures, severityRank[$0.severity] ?? 0, $1.id) }
    }

    /// "link_lost: 31 of 120 captures; firmware 1.4.3: 29 of 40, firmware 1.4.2: 2 of 80; model TH-1: 31 of 120".
    public static func sentence(_ a: Aggregate) -> String {
        var s = "\(a.id): \(a.captures) of \(a.of) capture\(a.of == 1 ? "" : "s")"
        if !a.byFirmware.isEmpty { s += "; " + a.byFirmware.map { "firmware \($0.value): \($0.having) of \($0.of)" }.joined(separator: ", ") }
        if !a.byModel.isEmpty { s += "; " + a.byModel.map { "model \($0.value): \($0.having) of \($0.of)" }.joined(separator: ", ") }
        return s
    }

    /// A capture's diagnoses: "link_lost×2, att_error×1", or "-".
    public static func diagnosisList(_ l: Line) -> String {
        l.diagnoses.isEmpty ? "-" : l.diagnoses.map { "\($0.id)×\($0.count)" }.joined(separator: ", ")
    }

    /// The captures with a diagnosis at or above `severity` (`--fail-on`), in the report's order, each with
    /// its first such diagnosis.
    public static func matches(_ records: [TriageRecord], atLeast severity: DiagnosisSeverity) -> [(capture: String, id: String)] {
        var out: [(String, String)] = []
        for r in inOrder(records) {
            if let d = r.diagnoses.first(where: { (DiagnosisSeverity(name: $0.severity) ?? .info) >= severity }) {
                out.append((r.capture.displayName, d.id))
            }
        }
        return out
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " || s.last == "\0" { s = s.dropLast() }
        return String(s)
    }
}
