import Testing
@testable import BLETrace

/// AAC media payloads made by hand, bit by bit: LATM AudioMuxElements with and without an in-band
/// StreamMuxConfig (versions 0 and 1, several subframes, an explicit 24-bit frequency), ADTS frames, and malformed
/// or cut-short payloads that must become problems, never traps.
@Suite("AAC payloads: LATM and ADTS")
struct AACParsingTests {
    /// Bits written most significant first.
    struct Bits {
        var bits: [Bool] = []
        mutating func put(_ v: Int, _ n: Int) { for i in stride(from: n - 1, through: 0, by: -1) { bits.append((v >> i) & 1 == 1) } }
        mutating func latmValue(_ v: Int, bytes: Int = 1) {
            put(bytes - 1, 2)
            put(v, 8 * bytes)
        }
        var bytes: [UInt8] {
            stride(from: 0, to: bits.count, by: 8).map { i in
                (0..<8).reduce(UInt8(0)) { b, k in b << 1 | (i + k < bits.count && bits[i + k] ? 1 : 0) }
            }
        }
    }

    /// AudioSpecificConfig: `type`, sampling index (15: the explicit 24-bit `explicitRate`), channels, GASpecificConfig 0.
    static func asc(_ b: inout Bits, type: Int = 2, index: Int = 4, explicitRate: Int = 0, channels: Int = 2) {
        b.put(type, 5)
        b.put(index, 4)
        if index == 15 { b.put(explicitRate, 24) }
        b.put(channels, 4)
        b.put(0, 3)
    }

    /// A StreamMuxConfig (one program, one layer) and `units` access units of the given lengths.
    static func element(version: Int = 0, units: [Int], index: Int = 4, explicitRate: Int = 0, channels: Int = 2, type: Int = 2,
                        lengthType: Int = 0, config: Bool = true, inBand: Bool = true) -> [UInt8] {
        var b = Bits()
        if inBand {
            b.put(config ? 0 : 1, 1)
            if config {
                b.put(version, 1)
                if version == 1 { b.put(0, 1); b.latmValue(0xFF) }
                b.put(1, 1)
                b.put(units.count - 1, 6)
                b.put(0, 4)
                b.put(0, 3)
                if version == 1 {
                    var a = Bits()
                    asc(&a, type: type, index: index, explicitRate: explicitRate, channels: channels)
                    b.latmValue(a.bits.count + 5)   // ascLen with five fill bits after the config
                    b.bits += a.bits
                    b.put(0, 5)
                } else {
                    asc(&b, type: type, index: index, explicitRate: explicitRate, channels: channels)
                }
                b.put(lengthType, 3)
                b.put(0xFF, 8)
                b.put(0, 2)
            }
        }
        for (k, n) in units.enumerated() {
            var left = n
            while left >= 255 { b.put(255, 8); left -= 255 }
            b.put(left, 8)
            for i in 0..<n { b.put((i * 7 + k) & 0xFF, 8) }
        }
        return b.bytes
    }

    /// One ADTS frame: MPEG-4, AAC LC, `index`, `channels`, `payload` bytes after a 7-byte header, `blocks` raw blocks.
    static func adts(index: Int = 3, channels: Int = 2, payload: Int = 20, blocks: Int = 1) -> [UInt8] {
        var b = Bits()
        b.put(0xFFF, 12); b.put(0, 1); b.put(0, 2); b.put(1, 1)
        b.put(1, 2); b.put(index, 4); b.put(0, 1); b.put(channels, 3); b.put(0, 4)
        b.put(7 + payload, 13); b.put(0x7FF, 11); b.put(blocks - 1, 2)
        return b.bytes + [UInt8](repeating: 0x21, count: payload)
    }

    static func parse(_ b: [UInt8], _ f: AACFraming, previous: LATMMuxConfig? = nil) -> Result<AACPayload, AACPayloadProblem> {
        AACPayload.parse(b[...], as: f, previous: previous)
    }

    @Test("an in-band StreamMuxConfig: AAC LC 44.1 kHz stereo, one access unit; found by detection too")
    func inBand() throws {
        let e = Self.element(units: [300])
        let p = try Self.parse(e, .latmInBand).get()
        let c = try #require(p.configuration)
        #expect(p.frames == 1 && c.objectType == 2 && c.sampleRate == 44_100 && c.channels == 2 && c.samplesPerFrame == 1024)
        #expect(p.muxConfig?.subFrames == 1 && p.muxConfig?.streams == 1)
        #expect(AACPayload.detect(e[...])?.framing == .latmInBand)
        // The same unit after useSameStreamMux reads with the config before it, and without one is a problem.
        let same = Self.element(units: [40], config: false)
        #expect(try Self.parse(same, .latmInBand, previous: p.muxConfig).get().frames == 1)
        #expect(Self.parse(same, .latmInBand) == .failure(.noStreamMuxConfig))
    }

    @Test("numSubFrames, audioMuxVersion 1 with ascLen and fill bits, an explicit 24-bit frequency, mono")
    func variants() throws {
        let three = try Self.parse(Self.element(units: [10, 260, 30]), .latmInBand).get()
        #expect(three.frames == 3 && three.muxConfig?.subFrames == 3)
        let v1 = try Self.parse(Self.element(version: 1, units: [50, 51], index: 3, channels: 1), .latmInBand).get()
        #expect(v1.frames == 2 && v1.configuration?.sampleRate == 48_000 && v1.configuration?.channels == 1 && v1.muxConfig?.audioMuxVersion == 1)
        let explicit = try Self.parse(Self.element(units: [8], index: 15, explicitRate: 44_100), .latmInBand).get()
        #expect(explicit.configuration?.sampleRate == 44_100)
    }

    @Test("out of band: each PayloadLengthInfo and its bytes is an access unit, the 0xFF runs summed")
    func outOfBand() throws {
        let e = Self.element(units: [600, 3], inBand: false)
        let p = try Self.parse(e, .latmOutOfBand).get()
        #expect(p.frames == 2 && p.configuration == nil && p.framing == .latmOutOfBand)
        #expect(Array(e.prefix(3)) == [0xFF, 0xFF, 90])
        #expect(Self.parse(Array(e.dropLast()), .latmOutOfBand) == .failure(.truncated(offset: e.count - 3)))
    }

    @Test("ADTS frames: the header's rate, channels and raw blocks; several frames in one payload")
    func adtsFrames() throws {
        let p = try Self.parse(Self.adts() + Self.adts(blocks: 3), .adts).get()
        #expect(p.frames == 4 && p.configuration?.sampleRate == 48_000 && p.configuration?.channels == 2 && p.configuration?.objectType == 2)
        #expect(AACPayload.detect((Self.adts() + Self.adts())[...])?.framing == .adts)
        #expect(Self.parse(Array(Self.adts().dropLast(3)), .adts) == .failure(.truncated(offset: 0)))
        #expect(Self.parse(Self.adts() + [0xFF, 0xF1, 0x50], .adts) == .failure(.truncated(offset: 27)))
    }

    @Test("malformed payloads are problems: cut short, reserved index, not AAC, frameLengthType 1, empty")
    func malformed() throws {
        #expect(Self.parse([], .latmInBand) == .failure(.noPayload))
        let e = Self.element(units: [100])
        for n in [1, 2, 3, 5, 8, 50] {
            guard case .failure(.truncated) = Self.parse(Array(e.prefix(n)), .latmInBand) else { Issue.record("prefix \(n)"); continue }
        }
        guard case .failure(.invalidConfiguration) = Self.parse(Self.element(units: [4], index: 13), .latmInBand) else { Issue.record("index 13"); return }
        guard case .failure(.invalidConfiguration) = Self.parse(Self.element(units: [4], type: 0), .latmInBand) else { Issue.record("type 0"); return }
        #expect(Self.parse(Self.element(units: [4], lengthType: 1), .latmInBand) == .failure(.unsupported(.frameLengthType(1))))
        #expect(Self.parse(Self.adts(index: 14), .adts) == .failure(.invalidConfiguration(offset: 2)))
        #expect(Self.parse([0x12, 0x34], .adts) == .failure(.truncated(offset: 0)))
        #expect(AACPayload.detect([0x00, 0x05, 0x01][...]) == nil)
    }

    @Test("random bytes through every framing and the assembler: no trap, bounded")
    func random() {
        var g = SeededGenerator(seed: 40)
        var assembler = AACAssembler()
        var previous: LATMMuxConfig?
        for i in 0..<3000 {
            let n = Int.random(in: 0...300, using: &g)
            var b = (0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }
            if i % 3 == 0 { b = Array(Self.element(units: [Int.random(in: 0...400, using: &g)]).prefix(n)) + b.prefix(4) }
            for f in [AACFraming.adts, .latmInBand, .latmOutOfBand] {
                if case let .success(p) = Self.parse(b, f, previous: previous) {
                    #expect(p.frames >= 1 && p.frames <= b.count * 64)
                    if let m = p.muxConfig { previous = m }
                }
            }
            _ = AACPayload.detect(b[...])
            var dropped = false
            let rtp = RTPPacket(marker: i % 2 == 0, sequence: UInt16(i % 7), timestamp: UInt32(i / 5), body: b[...])
            #expect(assembler.push(rtp, record: i, dropped: &dropped).count <= 2)
        }
    }

    @Test("the negotiated AAC configuration: object types, rates, channels, VBR, bit rate; a carried one against it")
    func negotiated() throws {
        // MPEG-2 AAC LC, 44.1 kHz, 2 channels, VBR, 256 kbit/s.
        let p: [UInt8] = [0x80, 0x01, 0x04, 0x83, 0xE8, 0x00]
        let n = try #require(A2DPAACConfiguration(p[...]))
        #expect(n.objectTypes == 0x80 && n.sampleRates == [44_100] && n.channels == [2] && n.vbr && n.bitRate == 256_000)
        let found = try #require(try Self.parse(Self.element(units: [4]), .latmInBand).get().configuration)
        #expect(found.matches(configuration: p[...]) == true)
        let at48 = try #require(try Self.parse(Self.element(units: [4], index: 3), .latmInBand).get().configuration)
        #expect(at48.matches(configuration: p[...]) == false)
        let mono = try #require(try Self.parse(Self.element(units: [4], channels: 1), .latmInBand).get().configuration)
        #expect(mono.matches(configuration: p[...]) == false)
        #expect(found.matches(configuration: p.prefix(5)) == nil)
        #expect(AudioRender.configuration(found) == "AAC LC 44.1 kHz, 2 channels, 1024 samples per frame")
    }
}
