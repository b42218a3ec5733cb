import Testing
@testable import BLETrace

/// `ADSequence.contains(_:type:)` reads the structures' types as iterating the sequence does, on data with
/// padding, overruns and structures cut short.
@Suite struct ADSequenceTests {
    @Test func containsAgreesWithTheStructuresTypes() {
        var rng = SeededGenerator(seed: 0x5EED)
        for _ in 0..<5000 {
            let n = Int(rng.next() % 12)
            // Small lengths and types, with zeros, so that padding, overruns and empty types all occur.
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next() % 6) }
            // Data that starts inside a larger buffer, as a record's slice does.
            let data = ([0xAA] + bytes)[1...]
            let types = ADSequence(data).map(\.type)
            for wanted in UInt8(0)...5 {
                #expect(ADSequence.contains(data, type: { $0 == wanted }) == types.contains(wanted), "\(bytes) type \(wanted)")
            }
        }
    }

    @Test func overrunsAgreesWithTheMalformedStructure() {
        var rng = SeededGenerator(seed: 0x0F10)
        for _ in 0..<5000 {
            let n = Int(rng.next() % 12)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next() % 6) }
            let data = ([0xAA] + bytes)[1...]
            #expect(ADSequence.overruns(data) == ADSequence(data).contains { $0.malformed != nil }, "\(bytes)")
        }
    }

    @Test func anOverrunWithNoTypeByteHasTypeZero() {
        #expect(ADSequence.contains([0x00, 0x05][...], type: { $0 == 0 }))
        #expect(!ADSequence.contains([0x00, 0x00][...], type: { $0 == 0 }))
        #expect(ADSequence.contains([0x02, 0x16][...], type: { $0 == 0x16 }))
    }
}
