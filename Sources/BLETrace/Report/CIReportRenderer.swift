/// `analyze --format junit|sarif`: nothing per event; at the end, the capture's diagnoses as a CI report
/// (`JUnitReport`, `SARIFReport`).
public final class CIReportRenderer: EventSink, RedactableOutput {
    public enum Kind: Sendable { case junit, sarif }

    let out: OutputWriter
    let kind: Kind
    /// JUnit: the least severe diagnosis that fails its test case (`--fail-on`, error by default).
    public var failOn: DiagnosisSeverity
    /// `--redact`: the summary comes redacted; the texts made from it are redacted again here.
    public var redactor: Redactor?
    public var readsSummaries: Bool { false }

    public init(out: OutputWriter, kind: Kind, failOn: DiagnosisSeverity = .error) {
        self.out = out
        self.kind = kind
        self.failOn = failOn
    }

    public func begin(_ capture: CaptureInfo) {}
    public func event(_ e: TraceEvent) {}

    public func end(_ summary: Summary) {
        let capture = DiagnosedCapture(summary: summary, redactor: redactor)
        switch kind {
        case .junit: JUnitReport.write([capture], failOn: failOn, to: out)
        case .sarif: SARIFReport.write([capture], to: out)
        }
    }
}
