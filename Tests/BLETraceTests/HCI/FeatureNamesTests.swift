import Testing
@testable import BLETrace

/// LE and LMP feature masks are named bit by bit (issue #27), in text and in JSON `feature_names`.
@Suite struct FeatureNamesTests {
    @Test func remoteFeaturesAreNamed() throws {
        let h = TraceHarness()
        // LE Read Remote Features Complete: LE Encryption, Connection Parameters Request, Extended Reject,
        // Peripheral-initiated Features Exchange, LE Ping, Data Length Extension, LL Privacy, Extended Scanner
        // Filter Policies; LE 2M PHY.
        let le = h.feed(.event, HCIBuilder.leMeta(0x04, [0x00] + HCIBuilder.le16(0x0040) + [0xFF, 0x01, 0, 0, 0, 0, 0, 0]), .controllerToHost)
        // Read Remote Supported Features Complete (page 0) and Read Remote Extended Features Complete (page 1).
        let page0 = h.feed(.event, HCIBuilder.event(0x0B, [0x00] + HCIBuilder.le16(0x000C) + [0x07, 0, 0, 0, 0x40, 0, 0, 0x80]), .controllerToHost)
        let page1 = h.feed(.event, HCIBuilder.event(0x23, [0x00] + HCIBuilder.le16(0x000C) + [0x01, 0x02, 0x0B, 0, 0, 0, 0, 0, 0, 0]), .controllerToHost)
        h.finish()
        let l = try #require(h.event(le))
        #expect(l.summary.contains("features ff01000000000000 (LE Encryption, Connection Parameters Request Procedure, Extended Reject Indication, Peripheral-initiated Features Exchange, LE Ping, LE Data Packet Length Extension, LL Privacy, Extended Scanner Filter Policies, LE 2M PHY)"))
        if case let .list(names)? = h.layer(le, "hci")?["parameters"]?.objectValue?["feature_names"] { #expect(names.count == 9) } else { Issue.record("no feature_names: \(String(describing: h.event(le)?.layers))") }
        let p0 = try #require(h.event(page0))
        #expect(p0.summary.contains("features 0700000040000080 (3 slot packets, 5 slot packets, Encryption, LE Supported (Controller), Extended features)"))
        let p1 = try #require(h.event(page1))
        #expect(p1.summary.contains("page 1 of 2, features 0b00000000000000 (Secure Simple Pairing (Host Support), LE Supported (Host), Secure Connections (Host Support))"))
        #expect(FeatureBits.lmp([0x00, 0x00, 0x00, 0x01][...], page: 0) == ["bit 24"])
    }
}
