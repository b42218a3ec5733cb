/// Hearing Access Service 0x1854 (HAS 1.0): Hearing Aid Features 0x2BDA, Hearing Aid Preset Control Point
/// 0x2BDB, Active Preset Index 0x2BDC.
public struct HearingAccessDissector: ValueDissector {
    public let name = "hearing_access"
    public let uuids: [BLEUUID] = [0x2BDA, 0x2BDB, 0x2BDC].map { BLEUUID(UInt16($0)) }
    public init() {}

    static let opcodes = ["Read Presets Request", "Read Preset Response", "Preset Changed", "Write Preset Name",
                          "Set Active Preset", "Set Next Preset", "Set Previous Preset",
                          "Set Active Preset - Synchronized Locally", "Set Next Preset - Synchronized Locally",
                          "Set Previous Preset - Synchronized Locally"]
    static let changeIDs = ["Generic Update", "Preset Record Deleted", "Preset Record Available", "Preset Record Unavailable"]
    static let hearingAidTypes = ["Binaural Hearing Aid", "Monaural Hearing Aid", "Banded Hearing Aid", "reserved"]
    static let featureBits = ["", "", "Preset Synchronization Support", "Independent Presets", "Dynamic Presets",
                              "Writable Presets Support"]

    static func opName(_ op: UInt8) -> String { op >= 1 && Int(op) <= opcodes.count ? opcodes[Int(op) - 1] : "reserved (\(op))" }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2BDA:
            guard v.count == 1, let f = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: Value.features(f))
        case 0x2BDC:
            guard v.count == 1, let i = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: Value.activePreset(i))
        default:
            return HearingAccessDissector.controlPoint(v)
        }
    }

    /// Opcode and its parameters; a preset name is UTF-8 to the end of the value.
    static func controlPoint(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let op = try? c.u8() else { return .invalid("hearing_access", "empty value") }
        var p = PresetOperation(opcode: op)
        var nameBytes: ArraySlice<UInt8>?
        do {
            switch op {
            case 0x01:
                p.index = try c.u8()
                p.count = try c.u8()
            case 0x02:
                p.isLast = try c.u8() != 0
                p.index = try c.u8()
                p.properties = try c.u8()
                nameBytes = c.rest()
            case 0x03:
                let change = try c.u8()
                p.changeID = change
                p.isLast = try c.u8() != 0
                if change == 0 {
                    p.previousIndex = try c.u8()
                    p.index = try c.u8()
                    p.properties = try c.u8()
                    nameBytes = c.rest()
                } else {
                    p.index = try c.u8()
                }
            case 0x04:
                p.index = try c.u8()
                nameBytes = c.rest()
            case 0x05, 0x08:
                p.index = try c.u8()
            case 0x06, 0x07, 0x09, 0x0A:
                break
            default:
                return Dissection("hearing_access", value: Value.presetControl(p), problem: "opcode \(op) is reserved")
            }
        } catch {
            return Dissection("hearing_access", value: Value.presetControl(p), problem: "\(error)")
        }
        if let b = nameBytes { p.name = String(decoding: b, as: UTF8.self) }
        let badName = nameBytes.map { !DissectorText.isValidUTF8($0) } ?? false
        return Dissection("hearing_access", value: Value.presetControl(p),
                          problem: badName ? "preset name is not valid UTF-8" : DissectorText.extra(c))
    }

    /// A Hearing Aid Preset Control Point operation or notification, as far as its bytes went.
    public struct PresetOperation: Equatable, Sendable {
        public var opcode: UInt8
        public var index: UInt8?
        public var count: UInt8?
        public var isLast: Bool?
        /// Bit 0 writable, bit 1 available.
        public var properties: UInt8?
        public var changeID: UInt8?
        public var previousIndex: UInt8?
        public var name: String?
    }

    public enum Value: DecodedValue, Equatable {
        case features(UInt8)
        case activePreset(UInt8)
        case presetControl(PresetOperation)

        public func writeFields<S: FieldSink>(into s: inout S) {
            typealias D = HearingAccessDissector
            switch self {
            case let .features(f):
                s.field("hearing_aid_features", f)
                s.field("hearing_aid_type", D.hearingAidTypes[Int(f & 0x03)])
                s.key("features"); s.value(DissectorText.list(DissectorText.bits(Int(f & 0xFC), D.featureBits)))
            case let .activePreset(i):
                s.field("active_preset_index", i)
            case let .presetControl(p):
                s.field("opcode", p.opcode)
                s.field("operation", D.opName(p.opcode))
                if let c = p.changeID {
                    s.field("change_id", c)
                    s.field("change", Int(c) < D.changeIDs.count ? D.changeIDs[Int(c)] : "reserved (\(c))")
                }
                if let l = p.isLast { s.field("is_last", l) }
                if let i = p.previousIndex { s.field("prev_index", i) }
                if let i = p.index { s.field(p.opcode == 0x01 ? "start_index" : "index", i) }
                if let n = p.count { s.field("num_presets", n) }
                if let pr = p.properties {
                    s.field("properties", pr)
                    s.field("writable", pr & 1 != 0)
                    s.field("available", pr & 2 != 0)
                }
                if let n = p.name { s.field("name", n) }
            }
        }

        public var text: String {
            typealias D = HearingAccessDissector
            switch self {
            case let .features(f):
                return ([D.hearingAidTypes[Int(f & 0x03)]] + DissectorText.bits(Int(f & 0xFC), D.featureBits)).joined(separator: ", ")
            case let .activePreset(i): return "active preset \(i)"
            case let .presetControl(p):
                var t = D.opName(p.opcode)
                if let c = p.changeID, Int(c) < D.changeIDs.count { t += " (" + D.changeIDs[Int(c)] + ")" }
                if let i = p.index { t += " \(i)" }
                if let n = p.name { t += " \"" + n + "\"" }
                return t
            }
        }
    }
}
