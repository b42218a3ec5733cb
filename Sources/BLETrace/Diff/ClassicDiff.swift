/// BR/EDR links in a digest and their differences: which peers had an ACL or (e)SCO link, the profiles
/// opened, pairing, the A2DP stream and HID reports. Links are matched by peer address and link type.
public struct ClassicLinkDigest: Sendable {
    public var id: Int
    public var peer: String
    /// "ACL", "SCO", "eSCO".
    public var linkType: String
    public var name: String?
    public var openedRecord: Int?
    public var profiles: [String]
    public var pairing: String?
    public var disconnectReason: Int?
    /// The A2DP stream's codec and configuration, its media packets and gaps.
    public var a2dpCodec: String?
    public var mediaPackets: Int
    public var mediaGaps: Int
    public var hidReports: Int

    public var key: String { peer + "|" + linkType }

    static func make(_ summary: Summary, layers: [AnalysisLayer]) -> [ClassicLinkDigest] {
        let a2dp = layers.lazy.compactMap { $0 as? A2DPStreams }.first
        let hid = layers.lazy.compactMap { $0 as? HIDReports }.first
        return summary.connections.filter { !$0.le }.map { c in
            let stream = a2dp?.streams.first { $0.connection == c.id }
            let reports = hid?.connections.first { $0.connection == c.id }
            return ClassicLinkDigest(
                id: c.id, peer: c.peerKey, linkType: ClassicLinkText.name(c.linkType ?? 1), name: c.name, openedRecord: c.openedRecord,
                profiles: c.profiles.map { LESignalingNames.psm($0) ?? Hex.hex($0, width: 4) }, pairing: c.pairing?.text,
                disconnectReason: c.disconnectReason.map { Int($0) },
                a2dpCodec: stream?.codec.map { A2DPNames.codecName($0) + " " + A2DPNames.configuration($0) },
                mediaPackets: stream?.packets ?? 0, mediaGaps: stream?.gaps ?? 0, hidReports: reports?.reports.reduce(0, +) ?? 0)
        }
    }
}

extension Diff {
    mutating func compareClassic() {
        func firsts(_ list: [ClassicLinkDigest]) -> ([String], [String: ClassicLinkDigest]) {
            var order: [String] = [], first: [String: ClassicLinkDigest] = [:]
            for l in list where first[l.key] == nil {
                order.append(l.key)
                first[l.key] = l
            }
            return (order, first)
        }
        let (orderA, linksA) = firsts(a.classic), (orderB, linksB) = firsts(b.classic)
        func subject(_ l: ClassicLinkDigest) -> String {
            "BR/EDR \(l.linkType) link to \(l.peer)" + (l.name.map { " (\($0))" } ?? "")
        }
        for k in orderA {
            guard let la = linksA[k] else { continue }
            guard let lb = linksB[k] else {
                add(.classic, subject(la), "only in A", recordA: la.openedRecord)
                continue
            }
            let s = subject(la)
            if la.profiles != lb.profiles {
                add(.classic, s, "profiles", a: la.profiles.joined(separator: ", "), b: lb.profiles.joined(separator: ", "),
                    recordA: la.openedRecord, recordB: lb.openedRecord)
            }
            if la.pairing != lb.pairing { add(.classic, s, "pairing", a: la.pairing, b: lb.pairing) }
            if la.a2dpCodec != lb.a2dpCodec { add(.classic, s, "A2DP codec", a: la.a2dpCodec, b: lb.a2dpCodec) }
            if (la.mediaPackets == 0) != (lb.mediaPackets == 0) {
                add(.classic, s, "A2DP media packets", a: String(la.mediaPackets), b: String(lb.mediaPackets))
            }
            if la.mediaGaps != lb.mediaGaps {
                add(.classic, s, "A2DP stream gaps", a: String(la.mediaGaps), b: String(lb.mediaGaps))
            }
            if (la.hidReports == 0) != (lb.hidReports == 0) {
                add(.classic, s, "HID reports", a: String(la.hidReports), b: String(lb.hidReports))
            }
            if la.disconnectReason != lb.disconnectReason {
                func r(_ x: Int?) -> String? { x.map { HCIText.status(UInt8(truncatingIfNeeded: $0)) } }
                add(.classic, s, "disconnect reason", a: r(la.disconnectReason), b: r(lb.disconnectReason))
            }
        }
        for k in orderB where linksA[k] == nil {
            guard let lb = linksB[k] else { continue }
            add(.classic, subject(lb), "only in B", recordB: lb.openedRecord)
        }
    }
}
