import ArgumentParser
import BLETrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `analyze --write-capture FILE`: the file is created before decoding starts (a path that cannot be written
/// fails at once), filled after the run from a second read of the capture. A name ending in .pcapng writes
/// pcapng with the diagnoses and findings as packet comments.
struct CaptureFileOutput {
    let path: String
    let fd: Int32

    init(path: String, input: String) throws {
        if path == "-" {
            reportError("--write-capture: give a file name: standard output carries the report")
            throw ExitCode(2)
        }
        if input != "-", let a = realpath(input, nil) {
            defer { free(a) }
            if let b = realpath(path, nil) {
                defer { free(b) }
                if strcmp(a, b) == 0 {
                    reportError("--write-capture: \(path) is the capture being read; choose another file")
                    throw ExitCode(2)
                }
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            reportError("--write-capture: cannot create \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        self.path = path
        self.fd = fd
    }

    /// Copies the selected records from a fresh read of the capture; a note says what was written.
    func write(_ opened: OpenedCapture, result: AnalyzeRun.Result, quiet: Bool) throws {
        let out = OutputWriter(fd: fd)
        let comments = path.lowercased().hasSuffix(".pcapng") ? CaptureComments(summary: result.summary, redactor: result.redactor) : nil
        let (x, error) = CaptureExtract.copy(opened.reader, selected: result.selection, redactor: result.redactor,
                                             comments: comments, to: out)
        out.flush()
        close(fd)
        if let why = out.failureText {
            reportError("--write-capture: cannot write \(path): \(why)")
            throw ExitCode(2)
        }
        guard !quiet else { return }
        let what: String
        switch x.format {
        case .btsnoopH4: what = "btsnoop (H4)"
        case .btsnoopMonitor: what = "btsnoop (Linux monitor)"
        case let .pcap(linkType): what = "pcap (link type \(linkType))"
        case let .pcapng(linkType): what = "pcapng (link type \(linkType)) with comments on \(x.commented) record\(x.commented == 1 ? "" : "s")"
        }
        var note = "note: wrote \(x.written) record\(x.written == 1 ? "" : "s") to \(path) as \(what)"
        if x.leftOut > 0 { note += "; \(x.leftOut) record\(x.leftOut == 1 ? "" : "s") this format cannot hold (notes) left out" }
        if result.redactor != nil { note += "; redacted" + (x.format == .btsnoopH4 || x.format == .btsnoopMonitor || x.format == .pcapng(linkType: 201) || x.format == .pcapng(linkType: 254) ? "" : " (packets whose bytes changed keep their old CRC)") }
        if error != nil { note += "; the capture's damage ends it" }
        reportError(note)
    }
}
