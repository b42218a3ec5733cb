/// Text and JSON of `SignalingBody`.
extension SignalingBody: LayerBody {
    public func writeText(_ e: TraceEvent, into b: inout [UInt8]) {}
    public func writeLayers<S: FieldSink>(_ e: TraceEvent, into s: inout S) {}
}
