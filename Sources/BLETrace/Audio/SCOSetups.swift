/// Follows what the trace negotiates for HFP voice links, for the audio layer's SCO streams: the voice setting
/// or enhanced parameters of each Setup/Accept Synchronous Connection command (by the peer's address), HFP's
/// codec choice over RFCOMM (by the peer's address), and the Synchronous Connection Complete that joins them to
/// an SCO handle. Every table is bounded; when more links are pending than it holds, the oldest are forgotten.
struct SCOSetups {
    struct Pending {
        var voiceSetting: UInt16?
        var enhanced: EnhancedSynchronous?
        var record: Int
    }

    /// Commands waiting for their Synchronous Connection Complete, by peer; the last one whatever its peer.
    var pending: [BDAddr: Pending] = [:]
    var lastPending: Pending?
    /// HFP codec IDs from +BCS / AT+BCS, by peer; the last one whatever its peer.
    var codecs: [BDAddr: (codec: UInt8, record: Int)] = [:]
    var lastCodec: (codec: UInt8, record: Int)?
    /// Write Voice Setting: the controller's default for links set up without one.
    var defaultVoice: (setting: UInt16, record: Int)?
    /// Each SCO handle's negotiation, from its Synchronous Connection Complete.
    var byHandle: [UInt16: SCONegotiation] = [:]
    static let maxEntries = 64

    /// A command: Setup/Accept Synchronous Connection (voice setting), their enhanced forms (coding formats and
    /// data paths, from the parameter bytes), Write Voice Setting. `peer` resolves an ACL handle to its peer.
    mutating func command(_ body: HCICommandBody, record: Int, peer: (UInt16) -> BDAddr?) {
        switch body.params {
        case let .classic(.synchronousConnection(h, a, _, _, _, voice, _, _)):
            remember(Pending(voiceSetting: voice, enhanced: nil, record: record), a ?? h.flatMap(peer))
        case let .other(bytes) where body.opcode == 0x043D || body.opcode == 0x043E:
            var c = ByteCursor(bytes)
            var address: BDAddr?
            if body.opcode == 0x043D {
                guard let h = try? c.u16le() else { return }
                address = peer(h & 0x0FFF)
            } else {
                guard let a = try? c.address() else { return }
                address = a
            }
            guard let e = try? EnhancedSynchronous.parse(&c) else { return }
            remember(Pending(voiceSetting: nil, enhanced: e, record: record), address)
        case let .other(bytes) where body.opcode == 0x0C26:
            var c = ByteCursor(bytes)
            if let v = try? c.u16le() { defaultVoice = (v, record) }
        default:
            break
        }
    }

    mutating func remember(_ p: Pending, _ address: BDAddr?) {
        lastPending = p
        guard let a = address else { return }
        if pending[a] == nil, pending.count >= SCOSetups.maxEntries { pending.removeAll() }
        pending[a] = p
    }

    /// A successful Synchronous Connection Complete: the handle's negotiation.
    mutating func completed(handle: UInt16, peer: BDAddr, linkType: UInt8, airMode: UInt8, record: Int) {
        var n = SCONegotiation()
        n.linkType = linkType
        n.airMode = airMode
        n.record = record
        if let p = pending.removeValue(forKey: peer) ?? lastPending {
            n.voiceSetting = p.voiceSetting
            n.enhanced = p.enhanced
            if p.enhanced != nil { n.enhancedRecord = p.record } else { n.voiceRecord = p.record }
        }
        lastPending = nil
        if n.voiceSetting == nil, n.enhanced == nil, let d = defaultVoice {
            n.voiceSetting = d.setting
            n.voiceRecord = d.record
        }
        if let c = codecs[peer] ?? lastCodec {
            n.hfpCodec = c.codec
            n.hfpCodecRecord = c.record
        }
        if byHandle[handle] == nil, byHandle.count >= SCOSetups.maxEntries { byHandle.removeAll() }
        byHandle[handle] = n
    }

    /// An RFCOMM frame: +BCS:<id> (the gateway's choice) or AT+BCS=<id> (the hands-free's confirmation).
    mutating func rfcomm(_ f: RFCOMMFrame, peer: BDAddr?, record: Int) {
        guard f.frameType == 0xEF, f.dlci != 0, let codec = SCOSetups.bcs(f.information) else { return }
        lastCodec = (codec, record)
        guard let p = peer else { return }
        if codecs[p] == nil, codecs.count >= SCOSetups.maxEntries { codecs.removeAll() }
        codecs[p] = (codec, record)
    }

    /// The codec ID after "BCS:" or "BCS=" (spaces allowed before it), if the text holds one.
    static func bcs(_ text: ArraySlice<UInt8>) -> UInt8? {
        let b = UInt8(ascii: "B"), c = UInt8(ascii: "C"), s = UInt8(ascii: "S")
        var i = text.startIndex
        while i + 3 < text.endIndex {
            if text[i] == b, text[i + 1] == c, text[i + 2] == s, text[i + 3] == UInt8(ascii: ":") || text[i + 3] == UInt8(ascii: "=") {
                var j = i + 4
                while j < text.endIndex, text[j] == UInt8(ascii: " ") { j += 1 }
                var value = 0, digits = 0
                while j < text.endIndex, text[j] >= UInt8(ascii: "0"), text[j] <= UInt8(ascii: "9"), digits < 3 {
                    value = value * 10 + Int(text[j] - UInt8(ascii: "0"))
                    digits += 1
                    j += 1
                }
                return digits > 0 ? UInt8(clamping: value) : nil
            }
            i += 1
        }
        return nil
    }
}
