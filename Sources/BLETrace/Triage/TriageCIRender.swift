/// The triage store's captures for the tools around bletrace: JUnit XML and SARIF (as `analyze` writes them,
/// one suite or artifact per capture) and JSON Lines (one line per capture with its diagnoses, for log
/// pipelines).
public enum TriageCIRender {
    public enum Format: String, Sendable, CaseIterable { case junit, sarif, jsonl }

    public static func write(_ records: [TriageRecord], format: Format, failOn: DiagnosisSeverity = .error, to out: OutputWriter) {
        let sorted = TriageReport.inOrder(records)
        switch format {
        case .junit: JUnitReport.write(sorted.map(DiagnosedCapture.init(record:)), failOn: failOn, to: out)
        case .sarif: SARIFReport.write(sorted.map(DiagnosedCapture.init(record:)), to: out)
        case .jsonl:
            for r in sorted {
                JSONOut.object(line(r), to: out)
                out.write(byte: 0x0A)
            }
        }
    }

    /// One capture's line.
    public static func line(_ r: TriageRecord) -> Fields {
        let c = r.capture
        var f = Fields()
        f.add("file", c.path)
        f.add("member", c.member.map { .string($0) } ?? .null)
        f.add("sha256", c.sha256)
        f.add("status", c.status.rawValue)
        f.add("error", c.error.map { .string($0) } ?? .null)
        f.add("format", c.format.map { .string($0) } ?? .null)
        f.add("records", c.records)
        f.add("first_time", c.firstTime.map { .string($0) } ?? .null)
        f.add("last_time", c.lastTime.map { .string($0) } ?? .null)
        f.add("devices", c.devices)
        f.add("connections", c.connections)
        f.add("errors", c.errors)
        f.add("warnings", c.warnings)
        f.add("bletrace_version", c.bletraceVersion)
        f.add("analysed_at", c.analysedAt)
        // Who the peers were (the firmware a diagnosis goes with); serial numbers stay in the store.
        f.add("peers", .list(r.deviceInformation.map { i in
            var o = Fields()
            o.add("peer", i.peer)
            o.add("manufacturer", i.manufacturer.map { .string($0) } ?? .null)
            o.add("model", i.model.map { .string($0) } ?? .null)
            o.add("firmware_revision", i.firmwareRevision.map { .string($0) } ?? .null)
            return .object(o)
        }))
        f.add("diagnoses", .list(r.diagnoses.sorted { $0.ordinal < $1.ordinal }.map { d in
            var o = Fields()
            o.add("id", d.id)
            o.add("severity", d.severity)
            o.add("title", d.title)
            o.add("count", d.count)
            o.add("peer", d.peer.map { .string($0) } ?? .null)
            o.add("peer_count", d.peerCount)
            o.add("connections", .list(d.connections.split(separator: ",").compactMap { Int($0) }.map { .int($0) }))
            o.add("first_record", d.firstRecord)
            o.add("last_record", d.lastRecord)
            return .object(o)
        }))
        return f
    }
}
