import Testing
@testable import BLETrace

/// The decoder checks an advertising event's reports before the pipeline reads them: whole reports are stepped
/// over, and a short one must fail exactly as reading it field by field fails (the same error, the same offset).
@Suite("Advertising report validation")
struct AdvertisingValidationTests {
    /// Every report read field by field: what validation did before it stepped over whole reports.
    static func readAll(_ sub: UInt8, _ bytes: [UInt8]) -> ByteError? {
        var c = ByteCursor(bytes[...])
        do {
            let n = Int(try c.u8())
            for _ in 0..<n { _ = try AdvertisingReports.read(sub, &c) }
            return nil
        } catch {
            return error as? ByteError
        }
    }

    static func validate(_ sub: UInt8, _ bytes: [UInt8]) -> ByteError? {
        var c = ByteCursor(bytes[...])
        do {
            try AdvertisingReports.validate(subevent: sub, &c)
            return nil
        } catch {
            return error as? ByteError
        }
    }

    /// One report of LE Directed Advertising Report (0x0B).
    static func directed(addr a: UInt64, rssi: Int8) -> [UInt8] {
        [0x01, 0x01] + AdvBytes.addr(a) + [0x01] + AdvBytes.addr(0xC000_0000_0001) + [UInt8(bitPattern: rssi)]
    }

    static let events: [(sub: UInt8, reports: [[UInt8]])] = [
        (0x02, [AdvBytes.legacy(type: 0x00, addrType: 1, addr: 0xC0FF_EE12_3456, data: [0x02, 0x01, 0x06], rssi: -60),
                AdvBytes.legacy(type: 0x04, addr: 0x1122_3344_5566, data: [], rssi: -70)]),
        (0x0D, [AdvBytes.extended(addr: 0xC0FF_EE12_3456, sid: 1, rssi: -50, data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18]),
                AdvBytes.extended(addr: 0xC011_2233_4455, sid: 2, rssi: -40, data: [])]),
        (0x0B, [directed(addr: 0xC0FF_EE12_3456, rssi: -55), directed(addr: 0xC011_2233_4455, rssi: -45)]),
    ]

    @Test("a short event fails where reading its reports fails, with the same error, at every length")
    func sameErrorAtEveryLength() {
        for (sub, reports) in Self.events {
            let whole = [UInt8(reports.count)] + reports.flatMap { $0 }
            #expect(Self.validate(sub, whole) == nil)
            #expect(Self.readAll(sub, whole) == nil)
            for length in 0..<whole.count {
                let cut = Array(whole.prefix(length))
                let expected = Self.readAll(sub, cut)
                #expect(expected != nil, "subevent \(sub): \(length) bytes should not read")
                #expect(Self.validate(sub, cut) == expected, "subevent \(sub), \(length) of \(whole.count) bytes")
            }
            // More reports claimed than the event holds.
            let claimsMore = [UInt8(reports.count + 1)] + reports.flatMap { $0 }
            #expect(Self.validate(sub, claimsMore) == Self.readAll(sub, claimsMore))
            #expect(Self.validate(sub, claimsMore) != nil)
        }
    }

    @Test("an LE Advertising Report event decodes when its reports validate, at every length and parameter length")
    func eventDecodesWhenReportsValidate() throws {
        let reports = Self.events[0].reports
        let whole = [UInt8(reports.count)] + reports.flatMap { $0 }
        for length in 0...whole.count {
            let cut = Array(whole.prefix(length))
            // The parameter length as the bytes give it, then one that claims a byte more than there is.
            for claimed in [cut.count + 1, cut.count + 2] {
                let event = ([0xEE, 0x3E, UInt8(claimed), 0x02] + cut)[1...]
                let decoded = Result { try HCIEventDecoder.decode(event) }
                let valid = claimed == cut.count + 1 && Self.validate(0x02, cut) == nil
                switch decoded {
                case let .success(.adv(body)):
                    #expect(valid, "\(length) bytes, parameter length \(claimed)")
                    var list = body.reports
                    var n = 0
                    while list.next() != nil { n += 1 }
                    #expect(n == Int(cut.first ?? 0))
                case .success: Issue.record("not an advertising event")
                case .failure: #expect(!valid, "\(length) bytes, parameter length \(claimed)")
                }
            }
        }
    }

    @Test("a report whose data length runs past the event fails as reading it does")
    func dataPastTheEnd() {
        for (sub, reports) in Self.events where sub != 0x0B {
            var report = reports[0]
            // The data length byte: after 8 fixed bytes (legacy) or 23 (extended).
            let at = sub == 0x0D ? 23 : 8
            report[at] = 0xF0
            let bytes = [1] + report
            #expect(Self.validate(sub, bytes) != nil)
            #expect(Self.validate(sub, bytes) == Self.readAll(sub, bytes))
        }
    }
}
