import Foundation
import ZIPFoundation

/// A capture found inside a container (an Android bugreport zip or text).
public struct ContainedLog: Sendable {
    /// 1-based, as `--log N` selects it.
    public var index: Int
    /// Where it is: an entry path in the zip, or "btsnooz section of NAME".
    public var name: String
    public var size: Int
}

/// What `InputOpener.open` found.
public struct OpenedCapture {
    public var reader: RecordReader
    /// How the capture was unwrapped, outermost first: ["gzip"], ["bugreport zip", "FS/data/…/btsnoop_hci.log"], …
    public var containers: [String]
    /// Every log the container held (empty for a plain capture).
    public var logs: [ContainedLog]
    /// The log that was chosen (1-based), when there were several.
    public var chosenLog: Int?
}

/// Opens anything a user may point bletrace at: a capture file, standard input (`-`), a gzip-compressed capture,
/// an Android bugreport zip (btsnoop logs inside, or the btsnooz section of its main text), or bugreport text.
/// Formats are recognised from content, never from names.
public enum InputOpener {
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    public static func open(path: String, log: Int? = nil) throws -> OpenedCapture {
        let source: ByteSource = path == "-" ? FileSource(standardInput: ()) : try FileSource(path: path)
        return try open(source: source, path: path, log: log, depth: 0)
    }

    static func open(source: ByteSource, path: String?, log: Int?, depth: Int) throws -> OpenedCapture {
        let input = InputBuffer(source: source)
        let head = try input.peek(4096)
        // Nothing at all: an empty file, or a compressed stream cut short before its first byte of data.
        if head.isEmpty { throw input.sourceError ?? CaptureError.emptyFile }
        let magic = Array(head.prefix(4))
        if magic.count >= 2 && magic[0] == 0x1F && magic[1] == 0x8B {
            guard depth < 3 else { throw CaptureError.badHeader("gzip nested too deeply") }
            var inner = try open(source: try InflateSource(BufferedSource(input), gzip: true), path: nil, log: log, depth: depth + 1)
            inner.containers.insert("gzip", at: 0)
            return inner
        }
        if magic == zipMagic {
            return try openZip(input: input, path: path, log: log)
        }
        if let format = CaptureFile.detect(head) {
            let reader: RecordReader
            switch format {
            case .btsnoop: reader = try BTSnoopReader(input: input)
            case .packetLogger: reader = try PacketLoggerReader(input: input)
            case .pcap, .pcapng:
                if let p = path, p != "-", depth == 0 {
                    reader = try PcapReader(path: p, format: format)
                } else {
                    // libpcap reads files: spool standard input or decompressed data to a temporary file.
                    let tmp = try spool(BufferedSource(input))
                    defer { unlink(tmp) }
                    reader = try PcapReader(path: tmp, format: format)
                    // A stream cut short: libpcap reads what came before, then the reader ends with the cut.
                    if let e = input.sourceError { return OpenedCapture(reader: EndsInError(reader, e), containers: [], logs: [], chosenLog: nil) }
                }
            }
            return OpenedCapture(reader: reader, containers: [], logs: [], chosenLog: nil)
        }
        // A stream cut short within the bytes peeked, in no format known: the cut is the news, not a guess at text.
        if let e = input.sourceError { throw e }
        if looksLikeText(head) {
            return try openBugreportText(input: input, name: path ?? "text", log: log)
        }
        throw CaptureError.unknownFormat(magic: Array(head.prefix(8)))
    }

    static func looksLikeText(_ head: ArraySlice<UInt8>) -> Bool {
        head.prefix(512).allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 != 0x7F) }
    }

    // MARK: bugreport text

    static func openBugreportText(input: InputBuffer, name: String, log: Int?) throws -> OpenedCapture {
        let sections = BTSnooz.sections(inText: AnySequence(LineSequence(source: BufferedSource(input))))
        guard !sections.isEmpty else {
            throw CaptureError.badHeader("\(name) is text without a btsnooz section (\(BTSnooz.beginMarker) … \(BTSnooz.endMarker))")
        }
        let logs = sections.enumerated().map { ContainedLog(index: $0.offset + 1, name: "btsnooz section \($0.offset + 1) of \(name)", size: $0.element.count) }
        let pick = try choose(log, among: logs)
        let btsnoop = try BTSnooz.toBTSnoop(sections[pick - 1])
        return OpenedCapture(reader: try BTSnoopReader(input: InputBuffer(source: MemorySource(btsnoop))),
                             containers: ["bugreport text", logs[pick - 1].name], logs: logs, chosenLog: pick)
    }

    static func choose(_ log: Int?, among logs: [ContainedLog]) throws -> Int {
        let pick = log ?? 1
        guard pick >= 1 && pick <= logs.count else {
            throw CaptureError.noSuchLog(requested: pick, count: logs.count)
        }
        return pick
    }

    // MARK: bugreport zip

    /// Entries that hold Bluetooth logs: btsnoop files under `FS/data/misc/bluetooth/logs/` (and anywhere with
    /// btsnoop/btsnooz/.cfa in the name), then the main bugreport text's btsnooz section.
    static func isLogEntry(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasSuffix("/") { return false }
        return lower.contains("btsnoop") || lower.contains("btsnooz") || lower.hasSuffix(".cfa")
            || (lower.contains("bluetooth/logs/") && !lower.hasSuffix(".txt"))
    }

    static func isMainText(_ name: String) -> Bool {
        let base = (name as NSString).lastPathComponent.lowercased()
        return base.hasPrefix("bugreport") && base.hasSuffix(".txt")
    }

    struct Found: Error {}

    /// Whether a text entry holds a btsnooz section: read in chunks until the begin marker shows.
    static func holdsBTSnooz(_ archive: Archive, _ entry: Entry) -> Bool {
        let marker = Array(BTSnooz.beginMarker.utf8)
        var tail: [UInt8] = []
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: true) { data in
                let chunk = tail + [UInt8](data)
                if chunk.contains(bytes: marker) { throw Found() }
                tail = Array(chunk.suffix(marker.count - 1))
            }
        } catch is Found {
            return true
        } catch {
            return false
        }
        return false
    }

    static func openZip(input: InputBuffer, path: String?, log: Int?) throws -> OpenedCapture {
        var zipPath = path ?? "-"
        var cleanup: String? = nil
        if zipPath == "-" {
            zipPath = try spool(BufferedSource(input))
            cleanup = zipPath
        }
        defer { if let c = cleanup { unlink(c) } }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read)
        } catch Archive.ArchiveError.missingEndOfCentralDirectoryRecord {
            throw CaptureError.badHeader("not a complete zip archive (its end of central directory is missing): the file may be truncated")
        } catch {
            throw CaptureError.badHeader("zip archive cannot be read: \(error)")
        }
        var logs: [ContainedLog] = []
        var sources: [(entry: Entry, btsnooz: Bool)] = []
        for entry in archive where entry.type == .file && isLogEntry(entry.path) {
            logs.append(ContainedLog(index: logs.count + 1, name: entry.path, size: Int(entry.uncompressedSize)))
            sources.append((entry, false))
        }
        for entry in archive where entry.type == .file && isMainText(entry.path) && holdsBTSnooz(archive, entry) {
            logs.append(ContainedLog(index: logs.count + 1, name: "btsnooz section of \(entry.path)", size: Int(entry.uncompressedSize)))
            sources.append((entry, true))
        }
        guard !logs.isEmpty else {
            throw CaptureError.badHeader("zip archive holds no Bluetooth log (no btsnoop file, no bugreport text with a btsnooz section)")
        }
        let pick = try choose(log, among: logs)
        let (entry, isText) = sources[pick - 1]
        let tmp = NSTemporaryDirectory() + "bletrace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        do {
            _ = try archive.extract(entry, to: URL(fileURLWithPath: tmp), skipCRC32: false)
        } catch {
            unlink(tmp)
            throw CaptureError.badHeader("cannot extract \(entry.path) from the zip: \(error)")
        }
        defer { unlink(tmp) }
        var inner: OpenedCapture
        if isText {
            let input = InputBuffer(source: try FileSource(path: tmp))
            inner = try openBugreportText(input: input, name: entry.path, log: nil)
            inner.containers = ["bugreport zip", logs[pick - 1].name]
        } else {
            inner = try open(source: try FileSource(path: tmp), path: tmp, log: nil, depth: 0)
            inner.containers = ["bugreport zip", entry.path] + inner.containers
        }
        inner.logs = logs
        inner.chosenLog = pick
        return inner
    }

    /// Copies a source into a temporary file and returns its path.
    /// Copies standard input to a temporary file and returns its path (the caller removes it), for runs
    /// that read their input twice (`--redact`, `--device NAME`).
    public static func spoolStandardInput() throws -> String {
        try spool(FileSource(standardInput: ()))
    }

    static func spool(_ source: ByteSource) throws -> String {
        let path = NSTemporaryDirectory() + "bletrace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).spool"
        guard let f = fopen(path, "wb") else { throw CaptureError.cannotOpen(path: path, reason: "cannot create a temporary file") }
        defer { fclose(f) }
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buf.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            let w = buf.withUnsafeBytes { fwrite($0.baseAddress, 1, n, f) }
            if w != n { unlink(path); throw CaptureError.cannotOpen(path: path, reason: "short write to a temporary file") }
        }
        return path
    }
}

/// Lines of text from a byte source, without holding the whole text.
struct LineSequence: Sequence, IteratorProtocol {
    let source: ByteSource
    var buffer: [UInt8] = []
    var start = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var done = false

    init(source: ByteSource) { self.source = source }

    mutating func next() -> Substring? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                return Substring(line)
            }
            if done {
                if start >= buffer.count { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return Substring(line)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let n = (try? chunk.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
            if n == 0 { done = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        }
    }
}

/// A reader whose records are another's, ending with an error instead of a clean end: a pcap spooled from a
/// compressed stream that was cut short.
final class EndsInError: RecordReader {
    let inner: RecordReader
    let error: Error
    init(_ inner: RecordReader, _ error: Error) { self.inner = inner; self.error = error }
    var format: CaptureFormat { inner.format }
    var linkType: Int { inner.linkType }
    var position: Int { inner.position }
    func next() throws -> Record? {
        if let r = try inner.next() { return r }
        throw error
    }
}
