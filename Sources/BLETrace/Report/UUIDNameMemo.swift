/// The role a UUID is named in (`GATTNaming.name`): which of the SIG's tables names it.
public enum GATTNameRole: UInt8, Sendable {
    case service, characteristic, descriptor

    /// The UUID's name in this role, if it has one.
    public func name(_ u: BLEUUID) -> String? {
        switch self {
        case .service: return GATTNaming.name(u, kind: AssignedNumbers.serviceName)
        case .characteristic: return GATTNaming.name(u, kind: AssignedNumbers.characteristicName)
        case .descriptor: return GATTNaming.name(u, kind: AssignedNumbers.descriptorName)
        }
    }
}

/// JSON's `uuid` and `name` members for the UUIDs one output wrote, by UUID and role, as the bytes written: a
/// capture names few UUIDs, each in many events, and a name is found by hashing into the SIG's tables. 64 slots;
/// a UUID goes in one of the 4 from its hash on, and takes the first of them when all 4 are used (it is made
/// again if it comes back), so the memo stays small whatever the capture. The names are those of the run the
/// output belongs to (`--uuids` names included).
struct UUIDNameMemo {
    static let slots = 64
    static let ways = 4
    // Made on first use: an output that writes no UUID (most outputs are not JSON) makes none of them.
    var high: [UInt64] = []
    var low: [UInt64] = []
    /// The role of the UUID in each slot, 0xFF for an empty one.
    var role: [UInt8] = []
    var bytes: [[UInt8]] = []

    static func slot(_ u: BLEUUID, _ r: GATTNameRole) -> Int {
        let h = (u.high ^ (u.low &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(r.rawValue)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: h >> 58)
    }

    /// The slot that holds `u` in role `r`, if one does.
    @inline(__always) func find(_ u: BLEUUID, _ r: GATTNameRole) -> Int? {
        guard !role.isEmpty else { return nil }
        let first = UUIDNameMemo.slot(u, r)
        for k in 0..<UUIDNameMemo.ways {
            let i = (first &+ k) & (UUIDNameMemo.slots &- 1)
            if role[i] == r.rawValue && high[i] == u.high && low[i] == u.low { return i }
        }
        return nil
    }

    /// The members' bytes (`"uuid":"…"` and `,"name":"…"` when it has a name), made on first use.
    mutating func members(_ u: BLEUUID, _ r: GATTNameRole) -> [UInt8] {
        if let i = find(u, r) { return bytes[i] }
        if role.isEmpty {
            high = [UInt64](repeating: 0, count: UUIDNameMemo.slots)
            low = [UInt64](repeating: 0, count: UUIDNameMemo.slots)
            role = [UInt8](repeating: 0xFF, count: UUIDNameMemo.slots)
            bytes = [[UInt8]](repeating: [], count: UUIDNameMemo.slots)
        }
        var b = Array("\"uuid\":\"".utf8)
        u.withText { b.append(contentsOf: $0) }
        b.append(UInt8(ascii: "\""))
        if let n = r.name(u) {
            b.append(contentsOf: ",\"name\":".utf8)
            JSONOut.string(n, into: &b)
        }
        let first = UUIDNameMemo.slot(u, r)
        var i = first
        for k in 0..<UUIDNameMemo.ways where role[(first &+ k) & (UUIDNameMemo.slots &- 1)] == 0xFF {
            i = (first &+ k) & (UUIDNameMemo.slots &- 1)
            break
        }
        high[i] = u.high
        low[i] = u.low
        role[i] = r.rawValue
        bytes[i] = b
        return b
    }
}

extension ByteStore {
    /// JSON's `uuid` and `name` members of `u` named in `role`, from the output's memo.
    func putUUIDAndName(_ u: BLEUUID, role: GATTNameRole) {
        if let i = uuidNames.find(u, role) {
            uuidNames.bytes[i].withUnsafeBufferPointer { put($0) }
            return
        }
        put(uuidNames.members(u, role))
    }
}
