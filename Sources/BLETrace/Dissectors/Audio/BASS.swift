/// Broadcast Audio Scan Service 0x184F (BASS 1.0): Broadcast Audio Scan Control Point 0x2BC7 and Broadcast
/// Receive State 0x2BC8. The Broadcast_Code and Bad_Code are key material: written like the SMP keys (most
/// significant byte first, members `broadcast_code`, `bad_code`), which `--redact` replaces.
public struct BASSDissector: ValueDissector {
    public let name = "bass"
    public let uuids: [BLEUUID] = [0x2BC7, 0x2BC8].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        ctx.uuid.uuid16 == 0x2BC7 ? BASSDissector.controlPoint(v) : BASSDissector.receiveState(v)
    }

    /// One subgroup: BIS_Sync (or BIS_Sync_State) and its metadata.
    public struct Subgroup: Equatable, Sendable {
        public var bisSync: UInt32
        public var metadata: AudioMetadata

        static func read(_ c: inout ByteCursor) throws -> [Subgroup] {
            let n = try c.u8()
            var out: [Subgroup] = []
            for _ in 0..<n { out.append(Subgroup(bisSync: try c.u32le(), metadata: AudioMetadata(try AudioLTV.prefixed(&c)))) }
            return out
        }

        static func write<S: FieldSink>(_ groups: [Subgroup], state: Bool, into s: inout S) {
            s.field("num_subgroups", groups.count)
            s.list("subgroups") { l in
                for g in groups {
                    l.beginObject()
                    l.field(state ? "bis_sync_state" : "bis_sync", Int(g.bisSync))
                    if g.bisSync == 0xFFFF_FFFF {
                        l.field(state ? "bis_sync_failed" : "bis_sync_no_preference", true)
                    } else {
                        l.list("bis_indices") { x in for i in 0..<32 where g.bisSync >> UInt32(i) & 1 != 0 { x.int(i + 1) } }
                    }
                    l.object("metadata") { g.metadata.write(into: &$0) }
                    l.endObject()
                }
            }
        }
    }

    /// A source as Add Source and Broadcast Receive State name it.
    public struct Source: Equatable, Sendable {
        public var addressType: UInt8
        public var address: BDAddr
        public var advertisingSID: UInt8
        /// 24 bits.
        public var broadcastID: UInt32

        static func read(_ c: inout ByteCursor) throws -> Source {
            Source(addressType: try c.u8(), address: try c.address(), advertisingSID: try c.u8(), broadcastID: try c.u24le())
        }

        func write<S: FieldSink>(into s: inout S) {
            s.field("address_type", AudioNames.addressType(addressType))
            s.field("address", address.description)
            s.field("adv_sid", advertisingSID)
            s.field("broadcast_id", Int(broadcastID))
        }
    }

    /// A Broadcast Audio Scan Control Point operation.
    public enum Operation: DecodedValue, Equatable {
        case remoteScanStopped, remoteScanStarted
        case addSource(Source, paSync: UInt8, paInterval: UInt16, subgroups: [Subgroup])
        case modifySource(sourceID: UInt8, paSync: UInt8, paInterval: UInt16, subgroups: [Subgroup])
        /// The code as written on the wire (16 bytes, least significant first).
        case setBroadcastCode(sourceID: UInt8, code: [UInt8])
        case removeSource(sourceID: UInt8)
        /// An opcode BASS does not define, or one whose parameters ended early.
        case other(opcode: UInt8)

        static func opName(_ op: UInt8) -> String {
            let n = ["Remote Scan Stopped", "Remote Scan Started", "Add Source", "Modify Source", "Set Broadcast_Code", "Remove Source"]
            return Int(op) < n.count ? n[Int(op)] : "reserved (" + Hex.hex(op, width: 2) + ")"
        }

        var opcode: UInt8 {
            switch self {
            case .remoteScanStopped: return 0
            case .remoteScanStarted: return 1
            case .addSource: return 2
            case .modifySource: return 3
            case .setBroadcastCode: return 4
            case .removeSource: return 5
            case let .other(op): return op
            }
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("opcode", opcode)
            s.field("operation", Operation.opName(opcode))
            switch self {
            case let .addSource(src, sync, interval, groups):
                src.write(into: &s)
                s.field("pa_sync", sync)
                s.field("pa_sync_name", AudioNames.paSync(sync))
                s.field("pa_interval", interval)
                Subgroup.write(groups, state: false, into: &s)
            case let .modifySource(id, sync, interval, groups):
                s.field("source_id", id)
                s.field("pa_sync", sync)
                s.field("pa_sync_name", AudioNames.paSync(sync))
                s.field("pa_interval", interval)
                Subgroup.write(groups, state: false, into: &s)
            case let .setBroadcastCode(id, code):
                s.field("source_id", id)
                s.field("broadcast_code", hex: LEBytes.value(code))
            case let .removeSource(id):
                s.field("source_id", id)
            default: break
            }
        }

        public var text: String {
            switch self {
            case let .addSource(src, sync, _, groups):
                return "Add Source " + src.address.description + " broadcast ID " + Hex.hex(src.broadcastID, width: 6)
                    + ", " + AudioNames.paSync(sync) + ", \(groups.count) subgroup(s)"
            case let .modifySource(id, sync, _, _): return "Modify Source \(id), " + AudioNames.paSync(sync)
            case let .setBroadcastCode(id, _): return "Set Broadcast_Code for source \(id)"
            case let .removeSource(id): return "Remove Source \(id)"
            default: return Operation.opName(opcode)
            }
        }
    }

    public static func controlPoint(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let op = try? c.u8() else { return .invalid("bass", "empty value") }
        let value: Operation
        do {
            switch op {
            case 0: value = .remoteScanStopped
            case 1: value = .remoteScanStarted
            case 2:
                let src = try Source.read(&c)
                let sync = try c.u8(), interval = try c.u16le()
                value = .addSource(src, paSync: sync, paInterval: interval, subgroups: try Subgroup.read(&c))
            case 3:
                let id = try c.u8(), sync = try c.u8(), interval = try c.u16le()
                value = .modifySource(sourceID: id, paSync: sync, paInterval: interval, subgroups: try Subgroup.read(&c))
            case 4:
                let id = try c.u8()
                value = .setBroadcastCode(sourceID: id, code: try c.array(16))
            case 5: value = .removeSource(sourceID: try c.u8())
            default:
                return Dissection("bass", value: Operation.other(opcode: op), problem: "opcode \(op) is reserved")
            }
        } catch {
            return Dissection("bass", value: Operation.other(opcode: op), problem: "\(error)")
        }
        return Dissection("bass", value: value, problem: innerProblem(value) ?? DissectorText.extra(c))
    }

    static func innerProblem(_ op: Operation) -> String? {
        switch op {
        case let .addSource(_, _, _, g), let .modifySource(_, _, _, g): return g.lazy.compactMap { $0.metadata.problem }.first
        default: return nil
        }
    }

    /// A Broadcast Receive State: empty when the receiver holds no source.
    public struct ReceiveState: DecodedValue, Equatable {
        public var sourceID: UInt8
        public var source: Source
        public var paSyncState: UInt8
        public var bigEncryption: UInt8
        /// Bad_Code as on the wire, present when BIG_Encryption is 0x03.
        public var badCode: [UInt8]?
        public var subgroups: [Subgroup]

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("source_id", sourceID)
            source.write(into: &s)
            s.field("pa_sync_state", paSyncState)
            s.field("pa_sync_state_name", AudioNames.paSyncState(paSyncState))
            s.field("big_encryption", bigEncryption)
            s.field("big_encryption_name", AudioNames.bigEncryption(bigEncryption))
            if let b = badCode { s.field("bad_code", hex: LEBytes.value(b)) }
            Subgroup.write(subgroups, state: true, into: &s)
        }

        public var text: String {
            "source \(sourceID) " + source.address.description + " broadcast ID " + Hex.hex(source.broadcastID, width: 6) + ", "
                + AudioNames.paSyncState(paSyncState) + ", " + AudioNames.bigEncryption(bigEncryption)
        }
    }

    /// An empty Broadcast Receive State.
    public struct NoSource: DecodedValue, Equatable {
        public func writeFields<S: FieldSink>(into s: inout S) { s.field("source", false) }
        public var text: String { "no source" }
    }

    public static func receiveState(_ v: ArraySlice<UInt8>) -> Dissection {
        if v.isEmpty { return Dissection("bass", value: NoSource()) }
        var c = ByteCursor(v)
        do {
            let id = try c.u8()
            let src = try Source.read(&c)
            let pa = try c.u8(), enc = try c.u8()
            let bad = enc == 3 ? try c.array(16) : nil
            let state = ReceiveState(sourceID: id, source: src, paSyncState: pa, bigEncryption: enc, badCode: bad,
                                     subgroups: try Subgroup.read(&c))
            let inner = state.subgroups.lazy.compactMap { $0.metadata.problem }.first
            return Dissection("bass", value: state, problem: inner ?? DissectorText.extra(c))
        } catch {
            return .invalid("bass", "\(error)")
        }
    }
}
