import Foundation
import Testing
@testable import BLETrace

/// Captures made by scripts/gen-a2dp-sbc.py from a known tone (real SBC frames from sbcenc), decoded through
/// libsbc into WAV: the tone's frequency and the stream's duration come back, every planted loss is found
/// where it was put, and the frames per packet equal tshark's SBC dissector's.
enum AudioFixtures {
    static let sbcenc = ["/usr/bin/sbcenc", "/usr/local/bin/sbcenc"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// The first python3 on PATH (where pip put Bumble), else the system's.
    static let python: String? = {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { String($0) + "/python3" }
        return (path + ["/usr/bin/python3", "/usr/local/bin/python3"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static var canGenerate: Bool { sbcenc != nil && python != nil }
    static var canDecode: Bool { canGenerate && (try? SBCLibrary.shared.get()) != nil }

    struct Planted {
        var path: String
        var lost: [Int]
        var lostRecordsAfter: [Int]
        var stalls: [(sequence: Int, record: Int, ms: Int)]
        var stray: [Int]
        var packets: Int
    }

    /// Runs `scripts/<script>` with a new temporary capture path and `args`; returns the path and what the
    /// generator planted (the JSON it prints).
    static func run(_ script: String, _ args: [String], prefix: String) throws -> (path: String, planted: [String: Any]) {
        let path = NSTemporaryDirectory() + prefix + UUID().uuidString + ".btsnoop"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python ?? "/usr/bin/python3")
        p.arguments = [TestSupport.packageRoot.appendingPathComponent("scripts/" + script).path, path] + args
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = (env["PATH"].map { $0 + ":" } ?? "") + "/usr/bin:/usr/local/bin"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let j = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw GenerationFailed()
        }
        return (path, j)
    }

    /// Runs the SBC generator with `args` into a temporary capture.
    static func generate(_ args: [String]) throws -> Planted {
        let (path, j) = try run("gen-a2dp-sbc.py", args, prefix: "bletrace-audio-")
        let stalls = (j["stalls"] as? [[String: Int]] ?? []).map { ($0["sequence"] ?? 0, $0["record"] ?? 0, $0["ms"] ?? 0) }
        return Planted(path: path, lost: j["lost"] as? [Int] ?? [], lostRecordsAfter: (j["lost_records_after"] as? [Int?] ?? []).compactMap { $0 },
                       stalls: stalls, stray: j["stray"] as? [Int] ?? [], packets: j["packets"] as? Int ?? 0)
    }

    struct GenerationFailed: Error {}

    /// `bletrace audio` on the capture, stream 1 into a WAV; returns the run and the WAV's samples.
    static func decode(_ path: String) throws -> (AudioRun.Result, WAV) {
        let wav = path + ".wav"
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let r = AudioRun.run(try InputOpener.open(path: path), path: path, format: .text, output: .stream(1, path: wav), out: OutputWriter(fd: devNull))
        return (r, try WAV(path: wav))
    }
}

/// A 16-bit PCM WAV file read back.
struct WAV {
    var rate: Int
    var channels: Int
    var samples: [Int16]

    init(path: String) throws {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        guard b.count >= 44, b[0..<4] == [0x52, 0x49, 0x46, 0x46][...], u32(4) == b.count - 8 else { throw AudioFixtures.GenerationFailed() }
        channels = Int(b[22]) | Int(b[23]) << 8
        rate = u32(24)
        let n = u32(40)
        samples = stride(from: 44, to: 44 + n - 1, by: 2).map { Int16(bitPattern: UInt16(b[$0]) | UInt16(b[$0 + 1]) << 8) }
    }

    /// Channel `c`'s samples from frame `from`, `count` of them.
    func channel(_ c: Int, from: Int, count: Int) -> [Double] {
        (from..<(from + count)).map { Double(samples[$0 * channels + c]) }
    }

    /// The frequency with the most power (Goertzel, 100 Hz to 5 kHz in 5 Hz steps).
    static func dominant(_ x: [Double], rate: Int) -> Double {
        var best = (f: 0.0, p: -1.0)
        for f in stride(from: 100.0, through: 5000.0, by: 5.0) {
            let w = 2 * Double.pi * f / Double(rate), k = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0
            for v in x { let s = v + k * s1 - s2; s2 = s1; s1 = s }
            let p = s1 * s1 + s2 * s2 - k * s1 * s2
            if p > best.p { best = (f, p) }
        }
        return best.f
    }

    /// The frequency from the rising zero crossings (interpolated), for a pure tone.
    static func crossings(_ x: [Double], rate: Int) -> Double? {
        var first: Double?, last = 0.0, n = 0
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            let t = Double(i - 1) + (-x[i - 1]) / (x[i] - x[i - 1])
            if first == nil { first = t } else { n += 1 }
            last = t
        }
        guard let f = first, n > 0 else { return nil }
        return Double(n) * Double(rate) / (last - f)
    }
}

@Suite("A2DP audio end to end: tone in, tone out", .serialized)
struct A2DPAudioEndToEndTests {
    @Test("1 kHz stereo at 44.1 kHz with planted losses, a stall and a stray frame", .enabled(if: AudioFixtures.canDecode))
    func tone() throws {
        let g = try AudioFixtures.generate(["--freq", "1000", "--seconds", "1.5", "--lose", "150,151,200", "--stall", "180:150",
                                            "--stray-frame", "190"])
        let (r, wav) = try AudioFixtures.decode(g.path)
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1 && r.unavailable == nil && r.failures.isEmpty)
        #expect(wav.rate == 44_100 && wav.channels == 2)
        // Dominant frequency within 2 % of the tone, before the first gap (packet 150 starts at 50 × 640 samples).
        let clean = wav.channel(0, from: 2048, count: 8192)
        let f = WAV.dominant(clean, rate: wav.rate)
        let z = try #require(WAV.crossings(wav.channel(0, from: 2048, count: 28_000), rate: wav.rate))
        #expect(abs(f - 1000) <= 20 && abs(z - 1000) <= 20, "Goertzel \(f) Hz, zero crossings \(z) Hz")
        // Duration: every packet slot (lost ones too) of 640 samples, plus the 150 ms stall.
        let slots = g.packets + g.lost.count
        let expected = slots * 640 + 150 * 44_100 / 1000
        #expect(abs(wav.samples.count / 2 - expected) <= 64, "\(wav.samples.count / 2) frames, expected \(expected)")
        // The lost packets' time is silence in the file, in its place.
        #expect(wav.channel(0, from: 50 * 640 + 10, count: 1260).allSatisfy { $0 == 0 })
        #expect(wav.channel(0, from: 49 * 640, count: 600).contains { abs($0) > 8000 })
        // Every planted loss found at its record, and nothing else.
        let lost = s.dropouts.filter { if case .lost = $0.kind { return true }; return false }
        #expect(lost.map(\.kind) == [.lost(packets: 2), .lost(packets: 1)] && lost.map(\.record) == g.lostRecordsAfter)
        let underruns = s.dropouts.filter { $0.kind == .underrun }
        #expect(underruns.map(\.record) == g.stalls.map(\.record) && underruns.allSatisfy { abs($0.durationMicros - 150_000) < 3000 })
        #expect(s.dropoutCount == 3 && s.lostPackets == 3)
        #expect(s.mismatchRecords == g.stray && s.mismatch?.bitpool == 63)
        #expect(s.decodedFrames == s.frames && s.decodeErrors == 0 && s.payloadErrors == 0)
        // Level: a sine of peak 16000 is 16000 / √2 RMS, -9.2 dBFS.
        let level = try #require(s.level)
        let rms = try #require(AudioLevel.dBFS(level.rms))
        // The peak: the tone's 16000 with SBC's quantisation error on top (a little more at a stray frame's bitpool).
        #expect(abs(rms - -9.2) < 0.5, "\(rms) dBFS")
        #expect(level.peak > 15_000 && level.peak < 20_000 && level.clipped == 0 && level.silences == 0, "peak \(level.peak), \(level.silences) silences")
        // The audio diagnoses: the dropouts (a warning) and the mismatch.
        let ids = r.summary.diagnoses.map(\.id).filter { $0.rawValue.hasPrefix("audio_") }
        #expect(Set(ids) == [.audioDropout, .audioConfigMismatch])
    }

    @Test("16 kHz mono, clean: the tone, no dropout, no diagnosis", .enabled(if: AudioFixtures.canDecode))
    func clean() throws {
        let g = try AudioFixtures.generate(["--freq", "440", "--seconds", "1", "--rate", "16000", "--mono", "--bitpool", "32",
                                            "--frames-per-packet", "4"])
        let (r, wav) = try AudioFixtures.decode(g.path)
        let s = try #require(r.streams.first)
        #expect(wav.rate == 16_000 && wav.channels == 1 && wav.samples.count == g.packets * 4 * 128)
        let z = try #require(WAV.crossings(wav.channel(0, from: 512, count: 12_000), rate: 16_000))
        #expect(abs(WAV.dominant(wav.channel(0, from: 512, count: 8192), rate: 16_000) - 440) <= 8.8 && abs(z - 440) <= 8.8)
        #expect(s.dropoutCount == 0 && s.mismatchedFrames == 0 && s.underruns == 0 && s.latePackets == 0)
        #expect(!r.summary.diagnoses.contains { $0.id.rawValue.hasPrefix("audio_") })
    }

    @Test("digital silence is a silent stream", .enabled(if: AudioFixtures.canDecode))
    func silence() throws {
        let g = try AudioFixtures.generate(["--amplitude", "0", "--seconds", "0.5"])
        let (r, _) = try AudioFixtures.decode(g.path)
        let s = try #require(r.streams.first)
        #expect(s.level?.silent == true)
        #expect(r.summary.diagnoses.filter { $0.id.rawValue.hasPrefix("audio_") }.map(\.id) == [.audioSilentStream])
    }

    static let bumble: Bool = {
        guard AudioFixtures.canGenerate, let py = AudioFixtures.python else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: py)
        p.arguments = ["-c", "import bumble"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// Bumble's own AVDTP and packetiser (scripts/gen-bumble-a2dp.py), paced in real time.
    static func bumbleCapture(freq: Int, seconds: Double) throws -> String {
        let path = NSTemporaryDirectory() + "bletrace-bumble-" + UUID().uuidString + ".btsnoop"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AudioFixtures.python ?? "/usr/bin/python3")
        p.arguments = [TestSupport.packageRoot.appendingPathComponent("scripts/gen-bumble-a2dp.py").path, path,
                       "--freq", String(freq), "--seconds", String(seconds)]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw AudioFixtures.GenerationFailed() }
        return path
    }

    @Test("Bumble's A2DP source: the tone back, no loss, frames per packet as tshark counts them",
          .enabled(if: bumble && AudioFixtures.canDecode && TestSupport.tshark != nil))
    func bumbleSource() throws {
        let path = try Self.bumbleCapture(freq: 440, seconds: 0.8)
        let (r, wav) = try AudioFixtures.decode(path)
        let s = try #require(r.streams.first)
        #expect(r.streams.count == 1 && s.negotiated?.codecType == 0 && s.found?.bitpool == 53 && s.frames > 200 && s.mismatchedFrames == 0)
        #expect(s.lostPackets == 0 && s.decodedFrames == s.frames && s.payloadErrors == 0)
        // The file holds every frame plus whatever silence the real-time pacing left (underruns, if any).
        #expect(wav.samples.count / 2 == s.frames * 128 + s.gapSamples)
        // Measured on the longest stretch with no gap in it (a real-time underrun would disturb the crossings).
        var edges = [(0, 0)]
        for d in s.dropouts {
            edges.append((Int(d.positionMicros * 44_100 / 1_000_000), Int((d.positionMicros + d.durationMicros) * 44_100 / 1_000_000) + 1))
        }
        edges.append((wav.samples.count / 2, wav.samples.count / 2))
        let runs = zip(edges, edges.dropFirst()).map { (start: $0.0.1 + 1024, count: $0.1.0 - $0.0.1 - 1024) }
        let run = try #require(runs.max { $0.count < $1.count })
        #expect(run.count >= 8192)
        let x = wav.channel(0, from: run.start, count: min(run.count, 20_000))
        let z = try #require(WAV.crossings(x, rate: 44_100))
        #expect(abs(WAV.dominant(x, rate: 44_100) - 440) <= 8.8 && abs(z - 440) <= 8.8, "\(z) Hz")
        var theirs = 0
        for line in try TestSupport.runTShark(["-r", path, "-Y", "sbc", "-T", "fields", "-e", "sbc.syncword"]).split(separator: "\n") {
            theirs += line.split(separator: ",").count
        }
        #expect(theirs == s.frames)
    }

    @Test("SBC frames per media packet equal tshark's SBC dissector's", .enabled(if: AudioFixtures.canGenerate && TestSupport.tshark != nil))
    func framesMatchTShark() throws {
        var compared = 0
        for args in [["--seconds", "1", "--lose", "120", "--stray-frame", "150"], ["--rate", "16000", "--mono", "--bitpool", "32", "--frames-per-packet", "4"],
                     ["--rate", "48000", "--bitpool", "40", "--frames-per-packet", "7"]] {
            let g = try AudioFixtures.generate(args)
            // The records bletrace decodes as A2DP media, then their SBC frames read from the packets' bytes
            // (the generator writes each media packet whole in one ACL packet: 4 + 4 header bytes).
            var mine: [Int: Int] = [:]
            let a = Analyzer(sink: nil)
            let media = MediaRecords()
            a.chain.taps = [media]
            a.run(try CaptureFile.open(path: g.path), path: g.path)
            let reader = try CaptureFile.open(path: g.path)
            while let r = try reader.next() {
                if media.records.contains(r.number) { mine[r.number] = A2DPMediaPayload.parseSBC(r.data.dropFirst(8))?.frames.count }
            }
            var theirs: [Int: Int] = [:]
            for line in try TestSupport.runTShark(["-r", g.path, "-Y", "sbc", "-T", "fields", "-e", "frame.number", "-e", "sbc.syncword"]).split(separator: "\n") {
                let c = line.split(separator: "\t")
                guard c.count == 2, let n = Int(c[0]) else { continue }
                theirs[n] = c[1].split(separator: ",").count
            }
            #expect(mine.count == g.packets && !theirs.isEmpty)
            #expect(mine == theirs)
            compared += 1
        }
        #expect(compared == 3)
    }
}

/// The records decoded as A2DP media packets.
final class MediaRecords: EventTap {
    var records = Set<Int>()
    func event(_ e: TraceEvent) {
        if case let .signaling(s) = e.body, case .a2dpMedia = s.content { records.insert(e.record) }
    }
}
