/// The diagnoses of one capture as the CI reports (JUnit, SARIF) and `triage --format jsonl` hand them on:
/// made from an `analyze` run's summary or from a triage store's record, so that both commands write the
/// same reports. The texts are those of `DiagnosisText`; a stored capture keeps only the title.
public struct DiagnosedCapture: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// Read to its end.
        case ok
        /// Read up to damage: the diagnoses cover the part before it (`error` says where).
        case damaged
        /// Not read at all (`error` says why): no diagnoses.
        case failed
    }

    public struct Entry: Sendable, Equatable {
        public var id: String
        public var severity: DiagnosisSeverity
        public var title: String
        public var explanation: String?
        public var advice: String?
        public var count: Int
        public var peer: String?
        public var peerCount: Int
        public var connections: [Int]
        public var firstRecord: Int
        public var lastRecord: Int
        /// The records that show it, the decisive ones first (a stored capture keeps the first and last).
        public var evidence: [Int]

        /// "(3 times, records 12–480, connections #1, #2)", as the text summary writes it.
        public var scope: String {
            DiagnosisText.scope(count: count, first: firstRecord, last: lastRecord, connections: connections)
        }
    }

    /// The capture's path as given (a container's member in brackets after it).
    public var name: String
    /// The file that holds the capture.
    public var path: String
    public var status: Status
    public var error: String?
    public var records: Int
    /// Errors first, as the summary orders them.
    public var diagnoses: [Entry]

    /// The worst severity each id was found with.
    public var worst: [String: DiagnosisSeverity] {
        var out: [String: DiagnosisSeverity] = [:]
        for d in diagnoses where out[d.id].map({ d.severity > $0 }) ?? true { out[d.id] = d.severity }
        return out
    }

    /// From an `analyze` run (the summary the renderer was handed: redacted already under `--redact`).
    public init(summary s: Summary, redactor: Redactor? = nil) {
        path = s.capture.path
        name = s.capture.containers.isEmpty ? s.capture.path : s.capture.path + " [" + s.capture.containers.joined(separator: " › ") + "]"
        status = s.error == nil ? .ok : .damaged
        error = s.error?.description
        records = s.stats.records
        func r(_ text: String) -> String { redactor?.redact(text) ?? text }
        diagnoses = s.diagnoses.map { d in
            Entry(id: d.id.rawValue, severity: d.severity, title: r(DiagnosisText.title(d)),
                  explanation: r(DiagnosisText.explanation(d)), advice: r(DiagnosisText.advice(d)), count: d.count,
                  peer: d.peer?.description, peerCount: d.peerCount, connections: d.connections,
                  firstRecord: d.firstRecord, lastRecord: d.lastRecord, evidence: d.evidence)
        }
        if let e = error { error = r(e) }
    }

    /// From a triage store (its own redaction applied when it was written).
    public init(record t: TriageRecord) {
        path = t.capture.path
        name = t.capture.displayName
        switch t.capture.status {
        case .failed: status = .failed
        case .damaged: status = .damaged
        default: status = .ok
        }
        error = t.capture.error
        records = t.capture.records
        diagnoses = t.diagnoses.sorted { $0.ordinal < $1.ordinal }.map { d in
            let connections = d.connections.split(separator: ",").compactMap { Int($0.filter { $0 != " " && $0 != "#" }) }
            return Entry(id: d.id, severity: DiagnosisSeverity(name: d.severity) ?? .warning, title: d.title,
                         explanation: nil, advice: nil, count: d.count, peer: d.peer, peerCount: d.peerCount,
                         connections: connections, firstRecord: d.firstRecord, lastRecord: d.lastRecord,
                         evidence: d.firstRecord == d.lastRecord ? [d.firstRecord] : [d.firstRecord, d.lastRecord])
        }
    }

    /// Every diagnosis id a run checks, in the order `DiagnosisID` lists them, then any other id the
    /// captures hold (a store written by another version).
    public static func checkedIDs(_ captures: [DiagnosedCapture]) -> [String] {
        var ids = DiagnosisID.allCases.map(\.rawValue)
        var known = Set(ids)
        for c in captures {
            for d in c.diagnoses where known.insert(d.id).inserted { ids.append(d.id) }
        }
        return ids
    }
}
