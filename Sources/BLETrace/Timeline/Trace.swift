/// The library's front door: read a capture and receive its typed events, in record order.
///
///     let summary = try Trace.read(path: "btsnoop_hci.log") { event in
///         if case let .att(att) = event.body { … }
///     }
///
/// Every record yields one event; a request's event arrives once its response is known. The same path
/// as the command line: any format bletrace reads (btsnoop, PacketLogger, pcap, pcapng, gzip, bugreport).
public enum Trace {
    /// Reads `path` and calls `body` with each event. Returns the summary (with `error` set when the file was
    /// damaged part-way: the events before the damage have been delivered). Throws `CaptureError` when the file
    /// cannot be opened or is not a capture.
    @discardableResult
    public static func read(path: String, options: DecodeOptions = DecodeOptions(),
                            _ body: @escaping (TraceEvent) -> Void) throws -> Summary {
        let opened = try InputOpener.open(path: path)
        return read(opened.reader, path: path, containers: opened.containers, options: options, body)
    }

    /// Reads an opened capture (`CaptureFile.open(bytes:)` for one in memory) and calls `body` with each event.
    @discardableResult
    public static func read(_ reader: RecordReader, path: String = "", containers: [String] = [],
                            options: DecodeOptions = DecodeOptions(), _ body: @escaping (TraceEvent) -> Void) -> Summary {
        let analyzer = Analyzer(options: options, sink: EventCallback(body))
        return analyzer.run(reader, path: path, containers: containers)
    }
}

/// A sink that hands each event to a closure (`event.summary` holds the text).
public final class EventCallback: EventSink {
    let body: (TraceEvent) -> Void
    public init(_ body: @escaping (TraceEvent) -> Void) { self.body = body }
    public func begin(_ capture: CaptureInfo) {}
    public func event(_ e: TraceEvent) { body(e) }
    public func end(_ summary: Summary) {}
    public var readsSummaries: Bool { true }
}
