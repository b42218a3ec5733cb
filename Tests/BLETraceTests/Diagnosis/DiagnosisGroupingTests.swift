import Testing
@testable import BLETrace

/// Occurrences of one cause group into one diagnosis, whether a rule raises a whole `Diagnosis` or its parts.
@Suite struct DiagnosisGroupingTests {
    struct Occurrence {
        var facts: DiagnosisFacts
        var peer: BDAddr?
        var connection: Int?
        var record: Int
        var request: Int?
    }

    /// Repeats with other peers, connections and records, one of them out of record order, and one benign (info).
    static let occurrences: [Occurrence] = {
        let a = BDAddr(0x11_22_33_44_55_66), b = BDAddr(0xAA_BB_CC_DD_EE_FF)
        var benign = DiagnosisFacts(reason: 0x01, opcode: 0x0A, handle: 0x0021, byLocal: false)
        benign.benign = .peerUsedHandleZero
        return [
            Occurrence(facts: DiagnosisFacts(reason: 0x01, opcode: 0x0A, handle: 0x0021, byLocal: false), peer: a, connection: 1, record: 40, request: 39),
            Occurrence(facts: benign, peer: a, connection: 1, record: 52, request: 50),
            Occurrence(facts: DiagnosisFacts(reason: 0x01, opcode: 0x0A, handle: 0x0021, byLocal: false), peer: b, connection: 2, record: 30, request: nil),
            Occurrence(facts: DiagnosisFacts(reason: 0x01, opcode: 0x0A, handle: 0x0021, byLocal: false), peer: a, connection: 3, record: 90, request: 88),
        ]
    }()

    @Test("a repeat raised from its parts groups exactly as the same repeat raised as a diagnosis")
    func partsGroupAsWholeDiagnoses() {
        let whole = DiagnosisContext(), parts = DiagnosisContext()
        for o in DiagnosisGroupingTests.occurrences {
            whole.raise(Diagnosis(id: .staleGATTCache, facts: o.facts, peer: o.peer, connection: o.connection,
                                  evidence: o.request.map { [o.record, $0] } ?? [o.record]))
            parts.raise(.staleGATTCache, facts: o.facts, peer: o.peer, connection: o.connection, record: o.record, and: o.request)
        }
        // The benign occurrence (context) is a group of its own.
        #expect(whole.list.count == 2)
        #expect(parts.list.count == 2)
        guard whole.list.count == 2, parts.list.count == 2 else { return }
        let w = whole.list[0], p = parts.list[0]
        #expect(p.count == 3 && w.count == 3)
        #expect(p.peer == nil && w.peer == nil)
        #expect(p.peerCount == 2 && w.peerCount == 2)
        #expect(p.connections == [1, 2, 3] && w.connections == [1, 2, 3])
        #expect(p.firstRecord == 30 && w.firstRecord == 30)
        #expect(p.lastRecord == 90 && w.lastRecord == 90)
        // The first occurrence's evidence (its request too), then each repeat's decisive record.
        #expect(p.evidence == [40, 39, 30, 90] && w.evidence == p.evidence)
        #expect(p.severity == w.severity)
        #expect(p.severity == DiagnosisID.staleGATTCache.severity)
        #expect(p.facts == w.facts)
        let wb = whole.list[1], pb = parts.list[1]
        #expect(pb.severity == .info && wb.severity == .info)
        #expect(pb.evidence == [52, 50] && wb.evidence == pb.evidence)
        #expect(pb.peer == wb.peer && pb.connections == wb.connections && pb.count == 1 && wb.count == 1)
    }
}
