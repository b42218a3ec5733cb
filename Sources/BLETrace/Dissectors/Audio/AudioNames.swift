/// Names for the LE Audio profiles' values: Assigned Numbers 2.11 (coding formats) and 6.12 (LE Audio), ASCS
/// Tables 4.2–4.4 and 5.1–5.2, BASS 3.1–3.2, VCS/VOCS/AICS and CSIS. Text only: the values stay numbers.
enum AudioNames {
    /// Coding_Format of a Codec_ID (Assigned Numbers 2.11).
    static func codingFormat(_ f: UInt8) -> String {
        switch f {
        case 0x00: return "u-law log"
        case 0x01: return "A-law log"
        case 0x02: return "CVSD"
        case 0x03: return "Transparent"
        case 0x04: return "Linear PCM"
        case 0x05: return "mSBC"
        case 0x06: return "LC3"
        case 0x07: return "G.729A"
        case 0xFF: return "Vendor Specific"
        default: return "reserved (" + Hex.hex(f, width: 2) + ")"
        }
    }

    /// Sampling_Frequency configuration values 0x01–0x0D in Hz; index = value − 1. The Supported_Sampling_
    /// Frequencies capability uses the same order, bit 0 first.
    static let samplingFrequencies = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 176400,
                                      192000, 384000]

    /// A sampling frequency configuration value in Hz, or nil when reserved.
    static func samplingFrequencyHz(_ v: UInt8) -> Int? {
        v >= 1 && Int(v) <= samplingFrequencies.count ? samplingFrequencies[Int(v) - 1] : nil
    }

    /// "48 kHz", "44.1 kHz", "11.025 kHz".
    static func kHz(_ hz: Int) -> String {
        var frac = String(hz % 1000)
        while frac.count < 3 { frac = "0" + frac }
        while frac.hasSuffix("0") { frac.removeLast() }
        return "\(hz / 1000)" + (frac.isEmpty ? "" : "." + frac) + " kHz"
    }

    /// Frame_Duration configuration values: 0x00 7.5 ms, 0x01 10 ms, in µs.
    static func frameDurationMicros(_ v: UInt8) -> Int? { v == 0 ? 7500 : v == 1 ? 10000 : nil }

    static func ms(_ micros: Int) -> String { Fmt.fixed(micros / 100, scale: 10).replacingOccurrences(of: ".0", with: "") + " ms" }

    /// Supported_Frame_Durations bits (bits 2, 3 and 6, 7 are reserved).
    static let frameDurationBits = ["7.5 ms", "10 ms", "bit 2", "bit 3", "7.5 ms preferred", "10 ms preferred"]

    /// Audio Location bits (Assigned Numbers 6.12.1), bit 0 first.
    static let locations = [
        "Front Left", "Front Right", "Front Center", "Low Frequency Effects 1", "Back Left", "Back Right",
        "Front Left of Center", "Front Right of Center", "Back Center", "Low Frequency Effects 2", "Side Left",
        "Side Right", "Top Front Left", "Top Front Right", "Top Front Center", "Top Center", "Top Back Left",
        "Top Back Right", "Top Side Left", "Top Side Right", "Top Back Center", "Bottom Front Center",
        "Bottom Front Left", "Bottom Front Right", "Front Left Wide", "Front Right Wide", "Left Surround",
        "Right Surround"]

    /// The names of a location bitfield; 0 is mono audio (no specified location).
    static func locationNames(_ v: UInt32) -> [String] {
        v == 0 ? ["Mono Audio"] : DissectorText.bits(Int(v), locations)
    }

    /// Context Type bits (Assigned Numbers 6.12.3), bit 0 first.
    static let contexts = [
        "Unspecified", "Conversational", "Media", "Game", "Instructional", "Voice assistants", "Live",
        "Sound effects", "Notifications", "Ringtone", "Alerts", "Emergency alarm"]

    static func contextNames(_ v: UInt16) -> [String] { DissectorText.bits(Int(v), contexts) }

    /// "Media, Game" or "none".
    static func joined(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }

    /// ASE states (ASCS Table 3.2).
    static let aseStates = ["Idle", "Codec Configured", "QoS Configured", "Enabling", "Streaming", "Disabling", "Releasing"]

    static func aseState(_ s: UInt8) -> String { Int(s) < aseStates.count ? aseStates[Int(s)] : "reserved (\(s))" }

    /// ASE Control Point opcodes (ASCS Table 5.1), 0x01 first.
    static let aseOpcodes = ["Config Codec", "Config QoS", "Enable", "Receiver Start Ready", "Disable",
                             "Receiver Stop Ready", "Update Metadata", "Release"]

    static func aseOpcode(_ o: UInt8) -> String {
        o >= 1 && Int(o) <= aseOpcodes.count ? aseOpcodes[Int(o) - 1] : "reserved (" + Hex.hex(o, width: 2) + ")"
    }

    /// ASE Control Point response codes (ASCS Table 5.1).
    static let responseCodes = [
        "Success", "Unsupported Opcode", "Invalid Length", "Invalid ASE_ID", "Invalid ASE State Machine Transition",
        "Invalid ASE direction", "Unsupported Audio Capabilities", "Unsupported Configuration Parameter Value",
        "Rejected Configuration Parameter Value", "Invalid Configuration Parameter Value", "Unsupported Metadata",
        "Rejected Metadata", "Invalid Metadata", "Insufficient Resources", "Unspecified Error"]

    static func responseCode(_ c: UInt8) -> String {
        Int(c) < responseCodes.count ? responseCodes[Int(c)] : "reserved (" + Hex.hex(c, width: 2) + ")"
    }

    /// Reason codes of configuration responses (ASCS Table 5.2).
    static let reasons = [
        "", "Codec_ID", "Codec_Specific_Configuration", "SDU_Interval", "Framing", "PHY", "Maximum_SDU_Size",
        "Retransmission_Number", "Max_Transport_Latency", "Presentation_Delay", "Invalid_ASE_CIS_Mapping"]

    /// The reason's name for a response code: the configuration parameter (0x06–0x09), the metadata type
    /// (0x0A–0x0C), nil where the reason carries nothing (0x00 with any other response).
    static func reason(_ r: UInt8, response: UInt8) -> String? {
        switch response {
        case 0x07, 0x08, 0x09:
            return r == 0 ? nil : Int(r) < reasons.count ? reasons[Int(r)] : "reserved (" + Hex.hex(r, width: 2) + ")"
        case 0x0A, 0x0B, 0x0C:
            return metadataType(r)
        default:
            return nil
        }
    }

    /// Metadata LTV types (Assigned Numbers 6.12.6).
    static func metadataType(_ t: UInt8) -> String {
        switch t {
        case 0x01: return "Preferred_Audio_Contexts"
        case 0x02: return "Streaming_Audio_Contexts"
        case 0x03: return "Program_Info"
        case 0x04: return "Language"
        case 0x05: return "CCID_List"
        case 0x06: return "Parental_Rating"
        case 0x07: return "Program_Info_URI"
        case 0x08: return "Audio_Active_State"
        case 0x09: return "Broadcast_Audio_Immediate_Rendering_Flag"
        case 0xFE: return "Extended_Metadata"
        case 0xFF: return "Vendor_Specific"
        default: return "type " + Hex.hex(t, width: 2)
        }
    }

    /// Target_Latency of a Config Codec operation.
    static func targetLatency(_ v: UInt8) -> String {
        switch v {
        case 1: return "Low Latency"
        case 2: return "Balanced Latency and Reliability"
        case 3: return "High Reliability"
        default: return "reserved (\(v))"
        }
    }

    /// Target_PHY of a Config Codec operation.
    static func targetPHY(_ v: UInt8) -> String {
        switch v {
        case 1: return "LE 1M"
        case 2: return "LE 2M"
        case 3: return "LE Coded"
        default: return "reserved (\(v))"
        }
    }

    /// PHY bitfield (preferred PHY, QoS PHY).
    static func phys(_ v: UInt8) -> [String] { DissectorText.bits(Int(v), ["LE 1M", "LE 2M", "LE Coded"]) }

    /// BASS PA_Sync parameter of Add Source and Modify Source.
    static func paSync(_ v: UInt8) -> String {
        switch v {
        case 0: return "Do not synchronize to PA"
        case 1: return "Synchronize to PA, PAST available"
        case 2: return "Synchronize to PA, PAST not available"
        default: return "reserved (\(v))"
        }
    }

    /// BASS PA_Sync_State of a Broadcast Receive State.
    static func paSyncState(_ v: UInt8) -> String {
        let n = ["Not synchronized to PA", "SyncInfo Request", "Synchronized to PA", "Failed to synchronize to PA", "No PAST"]
        return Int(v) < n.count ? n[Int(v)] : "reserved (\(v))"
    }

    /// BASS BIG_Encryption of a Broadcast Receive State.
    static func bigEncryption(_ v: UInt8) -> String {
        let n = ["Not encrypted", "Broadcast_Code required", "Decrypting", "Bad_Code"]
        return Int(v) < n.count ? n[Int(v)] : "reserved (\(v))"
    }

    static func addressType(_ v: UInt8) -> String { v == 0 ? "public" : v == 1 ? "random" : "reserved (\(v))" }
}
