/// Names of the ASE Control Point operations, response codes and reasons (ASCS 1.0 4.2, Table 5.1, 5.2).
enum AudioNames {
    static let operations = ["", "Config Codec", "Config QoS", "Enable", "Receiver Start Ready", "Disable", "Receiver Stop Ready",
                             "Update Metadata", "Release"]
    static let responses = ["Success", "Unsupported Opcode", "Invalid Length", "Invalid ASE_ID", "Invalid ASE State Machine Transition",
                            "Invalid ASE direction", "Unsupported Audio Capabilities", "Unsupported Configuration Parameter Value",
                            "Rejected Configuration Parameter Value", "Invalid Configuration Parameter Value", "Unsupported Metadata",
                            "Rejected Metadata", "Invalid Metadata", "Insufficient Resources", "Unspecified Error"]
    static let reasons = ["", "Codec ID", "Codec_Specific_Configuration", "SDU_Interval", "Framing", "PHY", "Maximum_SDU_Size",
                          "Retransmission_Number", "Max_Transport_Latency", "Presentation_Delay", "Invalid ASE CIS Mapping"]

    static func aseOperation(_ op: UInt8) -> String { op > 0 && Int(op) < operations.count ? operations[Int(op)] : "operation \(Hex.hex(op, width: 2))" }
    static func aseResponse(_ c: UInt8) -> String { Int(c) < responses.count ? responses[Int(c)] : "response \(Hex.hex(c, width: 2))" }
    static func aseReason(_ r: UInt8) -> String { r > 0 && Int(r) < reasons.count ? reasons[Int(r)] : "reason \(Hex.hex(r, width: 2))" }
}
