import Testing
@testable import BLETrace

/// One side's traffic encrypted and not decrypted: the diff says so instead of listing the other side's reads.
@Suite struct DiffEncryptedTests {
    static func digest(encrypted: Bool) -> CaptureDigest {
        let read: [UInt8] = LL.le16(3) + LL.le16(4) + [0x0A, 0x25, 0x00]          // Read Request 0x0025
        let rsp: [UInt8] = LL.le16(3) + LL.le16(4) + [0x0B, 0x01, 0x02]           // Read Response
        let records = [
            LL.record(1, LL.connectInd(), linkType: 251),
            LL.record(2, LL.nordic(LL.conn(LL.data(llid: 2, read)), flags: LL.dflags(central: true, encrypted: encrypted)), linkType: 272),
            LL.record(3, LL.nordic(LL.conn(LL.data(llid: 2, sn: 0, nesn: 1, rsp)), flags: LL.dflags(central: false, encrypted: encrypted)), linkType: 272),
        ]
        return CaptureDigest.make(ArrayReader(records, format: .pcap, linkType: 272), path: encrypted ? "enc" : "dec").0
    }

    @Test func undecodedSideIsNamedNotTheOtherSidesReads() {
        let a = DiffEncryptedTests.digest(encrypted: true), b = DiffEncryptedTests.digest(encrypted: false)
        #expect(a.links.first?.undecoded == 2)
        let diff = Diff(a, b)
        let steps = diff.items.filter { $0.category == .procedures }
        #expect(steps.count == 1, "\(diff.items.map(\.line))")
        #expect(steps.first?.text == "encrypted and not decoded in A (2 data PDUs): its GATT procedures cannot be compared "
                + "(1 step on the other side not listed); --ltk or --keys decrypts it")
        #expect(!diff.items.contains { $0.text.hasPrefix("only in B: Read") })
        // Both decoded: nothing to say.
        #expect(Diff(b, DiffEncryptedTests.digest(encrypted: false)).isEmpty)
    }
}
