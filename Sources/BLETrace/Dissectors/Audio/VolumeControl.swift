/// Volume Control Service 0x1844 (VCS 1.0): Volume State 0x2B7D, Volume Control Point 0x2B7E, Volume Flags
/// 0x2B7F; and Volume Offset Control Service 0x1845 (VOCS 1.0): Volume Offset State 0x2B80, Audio Location
/// 0x2B81, Volume Offset Control Point 0x2B82, Audio Output Description 0x2B83.
public struct VolumeControlDissector: ValueDissector {
    public let name = "volume_control"
    public let uuids: [BLEUUID] = [0x2B7D, 0x2B7E, 0x2B7F, 0x2B80, 0x2B81, 0x2B82, 0x2B83].map { BLEUUID(UInt16($0)) }
    public init() {}

    static let opcodes = ["Relative Volume Down", "Relative Volume Up", "Unmute/Relative Volume Down",
                          "Unmute/Relative Volume Up", "Set Absolute Volume", "Unmute", "Mute"]

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        var c = ByteCursor(v)
        switch ctx.uuid.uuid16 {
        case 0x2B7D:
            guard v.count == 3, let vol = try? c.u8(), let mute = try? c.u8(), let counter = try? c.u8() else {
                return .invalid(name, DissectorText.length(v.count, expected: 3))
            }
            return Dissection(name, value: Value.volumeState(volume: vol, mute: mute, changeCounter: counter),
                              problem: mute > 1 ? "mute \(mute) is reserved" : nil)
        case 0x2B7E:
            guard let op = try? c.u8() else { return .invalid(name, "empty value") }
            guard op <= 6 else { return Dissection(name, value: Value.controlPoint(opcode: op, changeCounter: nil, volume: nil), problem: "opcode \(op) is reserved") }
            let counter = try? c.u8()
            let volume = op == 4 ? try? c.u8() : nil
            let value = Value.controlPoint(opcode: op, changeCounter: counter, volume: volume)
            let need = op == 4 ? 3 : 2
            return Dissection(name, value: value, problem: v.count == need ? nil : DissectorText.length(v.count, expected: need))
        case 0x2B7F:
            guard v.count == 1, let f = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
            return Dissection(name, value: Value.volumeFlags(f))
        case 0x2B80:
            guard v.count == 3, let off = try? c.u16le(), let counter = try? c.u8() else {
                return .invalid(name, DissectorText.length(v.count, expected: 3))
            }
            return Dissection(name, value: Value.offsetState(offset: Int16(bitPattern: off), changeCounter: counter))
        case 0x2B81:
            guard v.count == 4, let x = try? c.u32le() else { return .invalid(name, DissectorText.length(v.count, expected: 4)) }
            return Dissection(name, value: Value.audioLocation(x))
        case 0x2B82:
            guard let op = try? c.u8() else { return .invalid(name, "empty value") }
            guard op == 1 else { return Dissection(name, value: Value.offsetControlPoint(opcode: op, changeCounter: nil, offset: nil), problem: "opcode \(op) is reserved") }
            let counter = try? c.u8()
            let off = (try? c.u16le()).map { Int16(bitPattern: $0) }
            return Dissection(name, value: Value.offsetControlPoint(opcode: op, changeCounter: counter, offset: off),
                              problem: v.count == 4 ? nil : DissectorText.length(v.count, expected: 4))
        default:
            return DissectorText.string(name, key: "audio_output_description", v)
        }
    }

    public enum Value: DecodedValue, Equatable {
        case volumeState(volume: UInt8, mute: UInt8, changeCounter: UInt8)
        case controlPoint(opcode: UInt8, changeCounter: UInt8?, volume: UInt8?)
        case volumeFlags(UInt8)
        case offsetState(offset: Int16, changeCounter: UInt8)
        case audioLocation(UInt32)
        case offsetControlPoint(opcode: UInt8, changeCounter: UInt8?, offset: Int16?)

        static func opName(_ op: UInt8) -> String {
            Int(op) < VolumeControlDissector.opcodes.count ? VolumeControlDissector.opcodes[Int(op)] : "reserved (" + Hex.hex(op, width: 2) + ")"
        }

        public func writeFields<S: FieldSink>(into s: inout S) {
            switch self {
            case let .volumeState(vol, mute, counter):
                s.field("volume_setting", vol)
                s.field("mute", mute == 1)
                s.field("change_counter", counter)
            case let .controlPoint(op, counter, vol):
                s.field("opcode", op)
                s.field("operation", Value.opName(op))
                if let counter { s.field("change_counter", counter) }
                if let vol { s.field("volume_setting", vol) }
            case let .volumeFlags(f):
                s.field("volume_flags", f)
                s.field("volume_setting_persisted", f & 1 != 0)
            case let .offsetState(off, counter):
                s.field("volume_offset", off)
                s.field("change_counter", counter)
            case let .audioLocation(x):
                s.field("audio_location", Int(x))
                s.key("audio_location_names"); s.value(DissectorText.list(AudioNames.locationNames(x)))
            case let .offsetControlPoint(op, counter, off):
                s.field("opcode", op)
                s.field("operation", op == 1 ? "Set Volume Offset" : "reserved (" + Hex.hex(op, width: 2) + ")")
                if let counter { s.field("change_counter", counter) }
                if let off { s.field("volume_offset", off) }
            }
        }

        public var text: String {
            switch self {
            case let .volumeState(vol, mute, counter): return "volume \(vol)/255" + (mute == 1 ? ", muted" : "") + ", counter \(counter)"
            case let .controlPoint(op, _, vol): return Value.opName(op) + (vol.map { " \($0)" } ?? "")
            case let .volumeFlags(f): return f & 1 != 0 ? "volume setting persisted" : "volume setting reset"
            case let .offsetState(off, counter): return "offset \(off), counter \(counter)"
            case let .audioLocation(x): return AudioNames.locationNames(x).joined(separator: ", ")
            case let .offsetControlPoint(op, _, off): return (op == 1 ? "Set Volume Offset" : "opcode \(op)") + (off.map { " \($0)" } ?? "")
            }
        }
    }
}
