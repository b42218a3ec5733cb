/// The `encryption` summary section of sniffer captures: for each link that started encryption, the pairing
/// method, the TK cracked, where its key came from, the LTK found, and the PDUs decrypted or failed.
public final class EncryptionSummary: AnalysisLayer {
    weak var pipeline: Pipeline?
    public init() {}
    public func attach(to pipeline: Pipeline) { self.pipeline = pipeline }

    public func summary() -> SummarySection? {
        guard let d = pipeline?.linkLayerIfUsed else { return nil }
        let links = d.linkOrder.filter { $0.encryptionState?.worthReporting == true }
        guard !links.isEmpty else { return nil }
        return SummarySection(name: "encryption", value: { .object(EncryptionSummary.fields(links, d.stats)) },
                              text: { EncryptionSummary.text(links, d.stats) })
    }

    /// "key 7f62…" text of a key as bletrace prints keys: most significant octet first.
    static func hex(_ k: [UInt8]) -> String { LEBytes.hexString(k) }

    static func sourceName(_ s: KeySource) -> String {
        switch s {
        case .crackedTK: return "cracked_tk"
        case .given(.option): return "ltk_option"
        case .given(.keysFile): return "keys_file"
        case .distributed: return "distributed"
        case .debugKeys: return "debug_keys"
        }
    }

    /// Where a key came from, after the key ("LTK … (distributed at record 589)").
    public static func sourceText(_ s: KeySource) -> String {
        switch s {
        case let .crackedTK(tk): return "from the cracked TK \(passkey(tk))"
        case .given(.option): return "given with --ltk"
        case .given(.keysFile): return "from the keys file"
        case let .distributed(record): return "distributed at record \(record)"
        case .debugKeys: return "from the debug key pair"
        }
    }

    static func passkey(_ tk: Int) -> String {
        let s = String(tk)
        return String(repeating: "0", count: max(0, 6 - s.count)) + s
    }

    /// Per-link facts, shared by the JSON, text and Markdown forms.
    public struct Entry {
        public var accessAddress: UInt32
        public var connection: Int?
        public var central: BDAddr?
        public var peripheral: BDAddr?
        public var encryption: LinkEncryption
    }

    public static func entries(_ pipeline: Pipeline) -> [Entry] {
        guard let d = pipeline.linkLayerIfUsed else { return [] }
        return d.linkOrder.compactMap { l in
            l.encryptionState.flatMap { $0.worthReporting ? $0 : nil }.map { Entry(accessAddress: l.accessAddress, connection: l.connection?.id, central: l.central, peripheral: l.peripheral, encryption: $0) }
        }
    }

    static func fields(_ links: [LinkLayerDecoder.Link], _ stats: LinkLayerDecoder.Stats) -> Fields {
        var f = Fields()
        f.add("links", links.count)
        f.add("decrypted", stats.decrypted)
        f.add("mic_failures", stats.micFailures)
        f.add("not_decrypted", stats.encrypted)
        var list: [FieldValue] = []
        for l in links.prefix(10_000) {
            guard let x = l.encryptionState else { continue }
            var c = Fields()
            c.add("access_address", Int(l.accessAddress))
            if let conn = l.connection { c.add("connection", conn.id) }
            if let a = l.central { c.add("central", a.description) }
            if let a = l.peripheral { c.add("peripheral", a.description) }
            if let p = x.pairings.last { c.add("pairing_record", p.record) }
            if let m = x.method {
                c.add("pairing_method", m.rawValue)
                c.add("secure_connections", x.secureConnections)
            }
            if let tk = x.tk {
                c.add("tk", passkey(tk))
                c.add("tk_kind", x.method == .justWorks ? "just_works" : "passkey")
            }
            if x.pairings.last?.usedDebugKey == true { c.add("debug_keys", true) }
            if let k = x.keysUsed.first(where: { $0.isSTK }) { c.add("stk", hex(k.key)) }
            if let k = x.ltk {
                c.add("ltk", hex(k.key))
                c.add("ltk_source", sourceName(k.source))
                if case let .distributed(record) = k.source { c.add("ltk_record", record) }
            }
            if !x.distributedLTKs.isEmpty {
                c.add("distributed_ltks", .list(x.distributedLTKs.map {
                    .object(["ltk": .string(hex($0.key)), "from": .string($0.fromCentral ? "central" : "peripheral"), "record": .int($0.record)])
                }))
            }
            c.add("key_sources", .list(x.keysUsed.map { .string(sourceName($0.source)) }))
            c.add("sessions", x.sessions)
            c.add("decrypted", x.decrypted)
            c.add("mic_failures", x.micFailures)
            if let r = x.firstMICFailure { c.add("first_mic_failure_record", r) }
            c.add("not_decrypted", x.notDecrypted)
            if let p = x.problem { c.add("problem", p.rawValue); c.add("problem_text", p.text) }
            list.append(.object(c))
        }
        f.add("connections", .list(list))
        return f
    }

    /// One line about a link's keys and results.
    public static func line(_ x: LinkEncryption) -> String {
        var parts: [String] = []
        if let m = x.method {
            parts.append((x.secureConnections ? "LE Secure Connections" : "legacy pairing") + ", " + m.rawValue)
        }
        if let tk = x.tk { parts.append(x.method == .justWorks ? "TK 000000 cracked (Just Works)" : "TK cracked: passkey \(passkey(tk))") }
        if x.pairings.last?.usedDebugKey == true { parts.append("debug key pair") }
        for k in x.keysUsed where k.isSTK { parts.append("STK \(hex(k.key))") }
        if let k = x.ltk { parts.append("LTK \(hex(k.key)) (\(sourceText(k.source)))") }
        // Both sides may distribute an LTK: each one, with who sent it (the one above is the one that decrypts).
        if x.distributedLTKs.count > 1 || (x.distributedLTKs.count == 1 && x.distributedLTKs.first?.key != x.ltk?.key) {
            parts.append("LTKs distributed: " + x.distributedLTKs.map { "\(hex($0.key)) by the \($0.fromCentral ? "central" : "peripheral") at record \($0.record)" }.joined(separator: ", "))
        }
        var counts = "\(x.decrypted) PDU\(x.decrypted == 1 ? "" : "s") decrypted, \(x.micFailures) MIC failure\(x.micFailures == 1 ? "" : "s")"
        if x.notDecrypted > 0 { counts += ", \(x.notDecrypted) not decrypted" }
        parts.append(counts)
        if let p = x.problem { parts.append(p.text) }
        return parts.joined(separator: "; ")
    }

    static func text(_ links: [LinkLayerDecoder.Link], _ stats: LinkLayerDecoder.Stats) -> [String] {
        var out = ["  Encryption:  \(links.count) link\(links.count == 1 ? "" : "s") paired or encrypted, \(stats.decrypted) PDUs decrypted, \(stats.micFailures) MIC failures, \(stats.encrypted) not decrypted"]
        for l in links.prefix(50) {
            guard let x = l.encryptionState else { continue }
            var head = "    AA \(Hex.hex(l.accessAddress, width: 8))"
            if let c = l.connection { head += " (#\(c.id))" }
            out.append(head + ": " + line(x))
        }
        return out
    }
}
