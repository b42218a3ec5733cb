/// Audio Input Control Service 0x1843 (AICS 1.0): Audio Input State 0x2B77, Gain Setting Properties 0x2B78,
/// Audio Input Type 0x2B79, Audio Input Status 0x2B7A, Audio Input Control Point 0x2B7B, Audio Input
/// Description 0x2B7C.
public struct AudioInputControlDissector: ValueDissector {
    public let name = "audio_input_control"
    public let uuids: [BLEUUID] = [0x2B77, 0x2B78, 0x2B79, 0x2B7A, 0x2B7B, 0x2B7C].map { BLEUUID(UInt16($0)) }
    public init() {}

    static let muteNames = ["Not Muted", "Muted", "Disabled"]
    static let gainModes = ["Manual Only", "Automatic Only", "Manual", "Automatic"]
    static let inputTypes = ["Unspecified", "Bluetooth", "Microphone", "Analog", "Digital", "Radio", "Streaming", "Ambient"]
    static let opcodes = ["Set Gain Setting", "Unmute", "Mute", "Set Manual Gain Mode", "Set Automatic Gain Mode"]

    static func name(_ table: [String], _ v: UInt8) -> String { Int(v) < table.count ? table[Int(v)] : "reserved (\(v))" }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        var c = ByteCursor(v)
        switch ctx.uuid.uuid16 {
        case 0x2B77:
            guard v.count == 4, let g = try? c.i8(), let m = try? c.u8(), let mode = try? c.u8(), let counter = try? c.u8() else {
                return .invalid(name, DissectorText.length(v.count, expected: 4))
            }
            return Dissection(name, value: Value.inputState(gain: g, mute: m, gainMode: mode, changeCounter: counter))
        case 0x2B78:
            guard v.count == 3, let u = try? c.u8(), let lo = try? c.i8(), let hi = try? c.i8() else {
                return .invalid(name, DissectorText.length(v.count, expected: 3))
            }
            return Dissection(name, value: Value.gainProperties(units: u, minimum: lo, maximum: hi))
        case 0x2B79:
            guard v.count == 1, let t = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: Value.inputType(t))
        case 0x2B7A:
            guard v.count == 1, let t = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: Value.inputStatus(t), problem: t > 1 ? "status \(t) is reserved" : nil)
        case 0x2B7B:
            guard let op = try? c.u8() else { return .invalid(name, "empty value") }
            let counter = try? c.u8()
            let gain = op == 1 ? try? c.i8() : nil
            let need = op == 1 ? 3 : 2
            let problem = op == 0 || op > 5 ? "opcode \(op) is reserved" : v.count == need ? nil : DissectorText.length(v.count, expected: need)
            return Dissection(name, value: Value.controlPoint(opcode: op, changeCounter: counter, gain: gain), problem: problem)
        default:
            return DissectorText.string(name, key: "audio_input_description", v)
        }
    }

    public enum Value: DecodedValue, Equatable {
        case inputState(gain: Int8, mute: UInt8, gainMode: UInt8, changeCounter: UInt8)
        /// Gain_Setting_Units (0.1 dB), minimum and maximum gain setting.
        case gainProperties(units: UInt8, minimum: Int8, maximum: Int8)
        case inputType(UInt8)
        case inputStatus(UInt8)
        case controlPoint(opcode: UInt8, changeCounter: UInt8?, gain: Int8?)

        static func opName(_ op: UInt8) -> String {
            op >= 1 && Int(op) <= AudioInputControlDissector.opcodes.count ? AudioInputControlDissector.opcodes[Int(op) - 1] : "reserved (\(op))"
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            typealias D = AudioInputControlDissector
            switch self {
            case let .inputState(g, m, mode, counter):
                s.field("gain_setting", g)
                s.field("mute", m)
                s.field("mute_name", D.name(D.muteNames, m))
                s.field("gain_mode", mode)
                s.field("gain_mode_name", D.name(D.gainModes, mode))
                s.field("change_counter", counter)
            case let .gainProperties(u, lo, hi):
                s.key("gain_setting_units_db"); s.double(Double(u) / 10)
                s.field("gain_setting_minimum", lo)
                s.field("gain_setting_maximum", hi)
            case let .inputType(t):
                s.field("audio_input_type", t)
                s.field("audio_input_type_name", D.name(D.inputTypes, t))
            case let .inputStatus(t):
                s.field("audio_input_status", t)
                s.field("audio_input_status_name", t == 0 ? "Inactive" : t == 1 ? "Active" : "reserved")
            case let .controlPoint(op, counter, gain):
                s.field("opcode", op)
                s.field("operation", Value.opName(op))
                if let counter { s.field("change_counter", counter) }
                if let gain { s.field("gain_setting", gain) }
            }
        }

        public var text: String {
            typealias D = AudioInputControlDissector
            switch self {
            case let .inputState(g, m, mode, _):
                return "gain \(g), " + D.name(D.muteNames, m).lowercased() + ", " + D.name(D.gainModes, mode).lowercased()
            case let .gainProperties(u, lo, hi): return "gain \(lo)…\(hi) in steps of " + Fmt.fixed(Int(u), scale: 10) + " dB"
            case let .inputType(t): return D.name(D.inputTypes, t)
            case let .inputStatus(t): return t == 0 ? "inactive" : t == 1 ? "active" : "status \(t)"
            case let .controlPoint(op, _, gain): return Value.opName(op) + (gain.map { " \($0)" } ?? "")
            }
        }
    }
}
