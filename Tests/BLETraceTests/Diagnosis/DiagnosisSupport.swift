import Testing
@testable import BLETrace

/// Builds captures with the project's writer and reads their diagnoses.
enum DX {
    static let h: UInt16 = 0x0040
    static let le16 = HCIBuilder.le16

    /// A powered-on controller (its bring-up Reset is no diagnosis).
    static func scenario() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        return s
    }

    static func run(_ s: Scenario) throws -> [Diagnosis] { try TestSupport.analyze(s).1.diagnoses }

    static func ids(_ s: Scenario) throws -> [DiagnosisID] { try run(s).map(\.id) }

    /// The one diagnosis of `id`; fails the test when there is none or more than one.
    static func one(_ s: Scenario, _ id: DiagnosisID, sourceLocation: SourceLocation = #_sourceLocation) throws -> Diagnosis {
        let all = try run(s)
        let found = all.filter { $0.id == id }
        #expect(found.count == 1, "\(id.rawValue): \(all.map { $0.id.rawValue + ": " + DiagnosisText.title($0) })", sourceLocation: sourceLocation)
        return try #require(found.first, sourceLocation: sourceLocation)
    }

    static func pairingRequest(io: UInt8 = 0x04, authReq: UInt8 = 0x2D, keySize: UInt8 = 16) -> [UInt8] { [0x01, io, 0x00, authReq, keySize, 0x07, 0x07] }
    static func pairingResponse(io: UInt8 = 0x04, authReq: UInt8 = 0x2D, keySize: UInt8 = 16) -> [UInt8] { [0x02, io, 0x00, authReq, keySize, 0x07, 0x07] }

    static func encryptionChange(_ s: Scenario, status: UInt8 = 0, handle: UInt16 = h) {
        s.controller(.event, HCIBuilder.event(0x08, [status] + le16(handle) + [status == 0 ? 1 : 0]))
        s.advance(ms: 5)
    }

    /// A BR/EDR ACL link: Connection Complete (link type ACL).
    static func classicConnect(_ s: Scenario, handle: UInt16 = 0x000B, peer: BDAddr = Samples.phone) {
        s.controller(.event, HCIBuilder.event(0x03, [0x00] + le16(handle) + HCIBuilder.addr(peer) + [0x01, 0x00]))
        s.advance(ms: 5)
    }
}
