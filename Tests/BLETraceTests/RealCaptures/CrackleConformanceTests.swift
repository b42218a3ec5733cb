import Foundation
import Testing
@testable import BLETrace

/// crackle's own test captures (../shared/captures/CRACKLE.md gives its results), and WHAD's encrypted capture
/// against the same traffic decrypted by WHAD. Skipped when a capture is absent.
@Suite struct CrackleConformanceTests {
    static let crack = "mikeryan__crackle__tests__01_crack__pairing_and_ltk_exchange.pcap"
    static let knownLTK = "mikeryan__crackle__tests__02_ltk_decrypt__known_ltk.pcap"
    static let secureConnections = "mikeryan__crackle__tests__04_le_secure_connections__le_secure_connections.pcapng"
    static let whadEncrypted = "whad-team__whad-client__ressources__pcaps__comm.pcap"
    static let whadDecrypted = "whad-team__whad-client__ressources__pcaps__comm_dec.pcap"
    static let whadPairing = "whad-team__whad-client__whad__resources__pcaps__ble_pairing.pcap"
    static let crackleLTK = "7f62c053f104a5bbe68b1d896a2ed49c"

    static func has(_ names: String...) -> Bool {
        guard let dir = TestSupport.sharedCaptures else { return false }
        return names.allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
    }

    static func run(_ name: String, ltk: String? = nil) throws -> ([TraceEvent], Summary) {
        let path = try #require(TestSupport.sharedCaptures).appendingPathComponent(name).path
        var options = DecodeOptions()
        if let k = ltk { try options.keys.add(ltk: k) }
        let sink = CollectingSink()
        let summary = Analyzer(options: options, sink: sink).run(try CaptureFile.open(path: path), path: path)
        return (sink.events, summary)
    }

    static func encryption(_ s: Summary) -> Fields? {
        guard case let .list(l)? = s.sections.first(where: { $0.name == "encryption" })?.value.objectValue?["connections"],
              case let .object(f)? = l.first else { return nil }
        return f
    }

    static func decrypted(_ events: [TraceEvent]) -> [TraceEvent] {
        events.filter { $0.layer("ll")?["decrypted"] == .bool(true) }
    }

    @Test(.enabled(if: has(crack)))
    func capture01JustWorksIsCracked() throws {
        let (events, summary) = try Self.run(Self.crack)
        let f = try #require(Self.encryption(summary))
        #expect(f["central"] == .string("08:3E:8E:E1:0B:3E"))
        #expect(f["peripheral"] == .string("78:C5:E5:6E:DD:E8"))
        #expect(f["tk"] == .string("000000"))
        #expect(f["ltk"] == .string(Self.crackleLTK))
        #expect(f["decrypted"] == .int(3))
        #expect(f["mic_failures"] == .int(0))
        // The three PDUs: the central's LL_START_ENC_RSP, the peripheral's LTK, and the central's LL_TERMINATE_IND.
        let d = Self.decrypted(events)
        #expect(d.map(\.record) == [585, 589, 713])
        // The LTK is spelled as crackle spells it, in the timeline as in the summary (issue #26).
        #expect(d.map(\.summary) == ["LL_START_ENC_RSP", "SMP Encryption Information: LTK \(Self.crackleLTK) (MSB first, as --ltk takes it)",
                                     "LL_TERMINATE_IND: Remote User Terminated Connection"])
        #expect(d.map(\.direction) == [.hostToController, .controllerToHost, .hostToController])
        let text = summary.sections.first { $0.name == "encryption" }?.text.joined(separator: "\n") ?? ""
        #expect(text.contains("TK 000000 cracked") && text.contains("LTK \(Self.crackleLTK)"))
        // An Ubertooth capture is a sniffer's: there is no local host, so no "local central".
        let line = SummaryRender.text(summary).first { $0.hasPrefix("    #1 handle") } ?? ""
        #expect(line.contains("peer is the peripheral (sniffed)") && !line.contains("local central"), "\(line)")
    }

    @Test(.enabled(if: has(knownLTK)))
    func capture02KnownLTKDecryptsSeven() throws {
        let (events, summary) = try Self.run(Self.knownLTK, ltk: Self.crackleLTK)
        let f = try #require(Self.encryption(summary))
        #expect(f["decrypted"] == .int(7))
        #expect(f["mic_failures"] == .int(0))
        let d = Self.decrypted(events)
        #expect(d.map(\.record) == [91, 184, 198, 212, 215, 229, 303])
        #expect(d.map(\.kind) == [.linkLayer, .att, .att, .att, .att, .att, .linkLayer])
        #expect(d[4].summary.contains("\"TI BLE Sensor Tag\""))
        #expect(d[6].summary.hasPrefix("LL_TERMINATE_IND"))
        // Without the key nothing is decrypted, and the summary says what is missing.
        let (_, plain) = try Self.run(Self.knownLTK)
        #expect(Self.encryption(plain)?["decrypted"] == .int(0))
        #expect(Self.encryption(plain)?["not_decrypted"] == .int(7))
        #expect(Self.encryption(plain)?["problem_text"] == .string("LTK needed (--ltk)"))
    }

    @Test(.enabled(if: has(secureConnections)))
    func capture04SecureConnectionsNeedsTheLTK() throws {
        let (events, summary) = try Self.run(Self.secureConnections)
        let f = try #require(Self.encryption(summary))
        #expect(f["central"] == .string("5C:F3:70:73:3E:F4"))
        #expect(f["peripheral"] == .string("7D:43:82:42:23:16"))
        #expect(f["secure_connections"] == .bool(true))
        #expect(f["problem_text"] == .string("LE Secure Connections: LTK needed (--ltk)"))
        #expect(f["decrypted"] == .int(0))
        #expect(Self.decrypted(events).isEmpty)
    }

    /// WHAD's pairing capture distributes the LTK (EDIV 0x7343) its comm.pcap is encrypted with; comm_dec.pcap is
    /// the same traffic decrypted by WHAD: every PDU bletrace decrypts must decode to the same event.
    @Test(.enabled(if: has(whadEncrypted, whadDecrypted, whadPairing)))
    func whadTrafficMatchesItsDecryptedCopyPDUByPDU() throws {
        let (pairingEvents, pairing) = try Self.run(Self.whadPairing)
        let ltk = try #require(Self.encryption(pairing)?["ltk"]?.stringValue)
        #expect(pairingEvents.contains { $0.summary == "SMP Central Identification: EDIV 0x7343, Rand 38a7dcd10a1a93c6" })
        let (events, summary) = try Self.run(Self.whadEncrypted, ltk: ltk)
        let (reference, _) = try Self.run(Self.whadDecrypted)
        #expect(events.count == reference.count)
        let d = Self.decrypted(events)
        #expect(d.count == 8)
        #expect(Self.encryption(summary)?["mic_failures"] == .int(0))
        for e in d {
            let r = try #require(reference.first { $0.record == e.record })
            #expect(e.kind == r.kind)
            #expect(e.summary == r.summary)
            #expect(e.layer("att") == r.layer("att"))
            #expect(e.layer("l2cap") == r.layer("l2cap"))
        }
    }
}
