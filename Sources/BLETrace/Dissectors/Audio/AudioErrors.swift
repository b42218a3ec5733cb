/// The application error codes the LE Audio services define (VCS 1.0 1.6, VOCS 1.0 1.6, AICS 1.0 1.6, BASS 1.0
/// 1.6, CSIS 1.0 5.1), for ATT Error Responses on their characteristics: "VCS error 0x80 Invalid Change Counter".
public struct AudioServiceError: DecodedValue, Equatable {
    /// The service's short name: VCS, VOCS, AICS, BASS, CSIS.
    public var service: String
    public var code: UInt8

    public func writeFields<S: FieldSink>(into s: inout S) {
        s.object(name: service.lowercased()) { o in
            o.field("error", code)
            o.field("error_name", AudioServiceError.name(service, code) ?? "reserved")
        }
    }

    public var text: String { "\(service) error \(Hex.hex(code, width: 2)) \(AudioServiceError.name(service, code) ?? "reserved")" }

    public var serviceErrorName: String? { service.uppercased() + " " + (AudioServiceError.name(service, code) ?? "reserved") }

    static func name(_ service: String, _ code: UInt8) -> String? {
        let table: [String]
        switch service {
        case "VCS": table = ["Invalid Change Counter", "Opcode Not Supported"]
        case "VOCS": table = ["Invalid Change Counter", "Opcode Not Supported", "Value Out of Range"]
        case "AICS": table = ["Invalid Change Counter", "Opcode Not Supported", "Mute Disabled", "Value Out of Range", "Gain Mode Change Not Allowed"]
        case "BASS": table = ["Opcode Not Supported", "Invalid Source_ID"]
        case "CSIS": table = ["Lock Denied", "Lock Release Not Allowed", "Invalid Lock Value", "OOB SIRK Only", "Lock Already Granted"]
        default: return nil
        }
        let i = Int(code) - 0x80
        return i >= 0 && i < table.count ? table[i] : nil
    }

    /// The service whose characteristic `uuid` is, for the ones with application errors.
    static func service(_ uuid: BLEUUID) -> String? {
        guard let u = uuid.uuid16 else { return nil }
        switch u {
        case 0x2B7D...0x2B7F: return "VCS"
        case 0x2B80...0x2B83: return "VOCS"
        case 0x2B77...0x2B7C: return "AICS"
        case 0x2BC7, 0x2BC8: return "BASS"
        case 0x2B84...0x2B87: return "CSIS"
        default: return nil
        }
    }

    /// The dissection of an Error Response with a code the service defines, nil for the others.
    static func dissect(_ dissector: String, _ code: UInt8, _ ctx: ValueContext) -> Dissection? {
        guard let service = service(ctx.uuid), name(service, code) != nil else { return nil }
        return Dissection(dissector, value: AudioServiceError(service: service, code: code))
    }
}

extension VolumeControlDissector {
    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? { AudioServiceError.dissect(name, code, ctx) }
}

extension AudioInputControlDissector {
    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? { AudioServiceError.dissect(name, code, ctx) }
}

extension BASSDissector {
    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? { AudioServiceError.dissect(name, code, ctx) }
}

extension CSISDissector {
    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? { AudioServiceError.dissect(name, code, ctx) }
}
