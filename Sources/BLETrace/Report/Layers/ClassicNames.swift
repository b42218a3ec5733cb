/// Names for BR/EDR (classic) HCI values: Class of Device (Assigned Numbers 2.8), link and key types, IO
/// capabilities, authentication requirements, modes and air modes.
public enum ClassicNames {
    static let majorDeviceClasses = ["Miscellaneous", "Computer", "Phone", "LAN/Network Access Point", "Audio/Video",
                                     "Peripheral", "Imaging", "Wearable", "Toy", "Health"]
    static let serviceClasses: [(bit: Int, name: String)] = [
        (13, "Limited Discoverable Mode"), (14, "LE Audio"), (16, "Positioning"), (17, "Networking"), (18, "Rendering"),
        (19, "Capturing"), (20, "Object Transfer"), (21, "Audio"), (22, "Telephony"), (23, "Information"),
    ]
    static let audioVideo = ["Uncategorized", "Wearable Headset", "Hands-free", "(reserved)", "Microphone", "Loudspeaker",
                             "Headphones", "Portable Audio", "Car audio", "Set-top box", "HiFi Audio Device", "VCR",
                             "Video Camera", "Camcorder", "Video Monitor", "Video Display and Loudspeaker",
                             "Video Conferencing", "(reserved)", "Gaming/Toy"]
    static let computer = ["Uncategorized", "Desktop workstation", "Server-class computer", "Laptop", "Handheld PC/PDA",
                           "Palm-size PC/PDA", "Wearable computer", "Tablet"]
    static let phone = ["Uncategorized", "Cellular", "Cordless", "Smartphone", "Wired modem or voice gateway", "Common ISDN access"]
    static let wearable = ["Uncategorized", "Wristwatch", "Pager", "Jacket", "Helmet", "Glasses", "Pin"]

    public static func majorDeviceClass(_ cod: UInt32) -> String {
        let major = Int((cod >> 8) & 0x1F)
        if major == 0x1F { return "Uncategorized" }
        return major < majorDeviceClasses.count ? majorDeviceClasses[major] : "reserved major class \(major)"
    }

    /// The minor class for the major classes whose table is kept here, or nil.
    public static func minorDeviceClass(_ cod: UInt32) -> String? {
        let minor = Int((cod >> 2) & 0x3F)
        let table: [String]
        switch (cod >> 8) & 0x1F {
        case 1: table = computer
        case 2: table = phone
        case 4: table = audioVideo
        case 7: table = wearable
        case 5:
            let kind = ["", "Keyboard", "Pointing device", "Combo keyboard/pointing device"][Int((cod >> 6) & 3)]
            return kind.isEmpty ? nil : kind
        default: return nil
        }
        return minor < table.count ? table[minor] : nil
    }

    public static func serviceClassNames(_ cod: UInt32) -> [String] {
        serviceClasses.compactMap { cod & (1 << UInt32($0.bit)) != 0 ? $0.name : nil }
    }

    /// "0x240404 (Audio/Video: Wearable Headset; Audio, Rendering)"
    public static func classOfDevice(_ cod: UInt32) -> String {
        var s = Hex.hex(cod, width: 6) + " (" + majorDeviceClass(cod)
        if let m = minorDeviceClass(cod) { s += ": " + m }
        let services = serviceClassNames(cod)
        if !services.isEmpty { s += "; " + services.joined(separator: ", ") }
        return s + ")"
    }

    public static func linkType(_ t: UInt8) -> String {
        switch t {
        case 0x00: return "SCO"
        case 0x01: return "ACL"
        case 0x02: return "eSCO"
        default: return "link type \(Hex.hex(t, width: 2))"
        }
    }

    public static func keyType(_ t: UInt8) -> String {
        switch t {
        case 0x00: return "Combination Key"
        case 0x01: return "Local Unit Key"
        case 0x02: return "Remote Unit Key"
        case 0x03: return "Debug Combination Key"
        case 0x04: return "Unauthenticated Combination Key (P-192)"
        case 0x05: return "Authenticated Combination Key (P-192)"
        case 0x06: return "Changed Combination Key"
        case 0x07: return "Unauthenticated Combination Key (P-256)"
        case 0x08: return "Authenticated Combination Key (P-256)"
        default: return "reserved key type \(Hex.hex(t, width: 2))"
        }
    }

    public static func ioCapability(_ c: UInt8) -> String {
        switch c {
        case 0x00: return "DisplayOnly"
        case 0x01: return "DisplayYesNo"
        case 0x02: return "KeyboardOnly"
        case 0x03: return "NoInputNoOutput"
        default: return "reserved IO capability \(Hex.hex(c, width: 2))"
        }
    }

    public static func authenticationRequirements(_ r: UInt8) -> String {
        switch r {
        case 0x00: return "MITM not required, no bonding"
        case 0x01: return "MITM required, no bonding"
        case 0x02: return "MITM not required, dedicated bonding"
        case 0x03: return "MITM required, dedicated bonding"
        case 0x04: return "MITM not required, general bonding"
        case 0x05: return "MITM required, general bonding"
        default: return "reserved requirements \(Hex.hex(r, width: 2))"
        }
    }

    public static func mode(_ m: UInt8) -> String {
        switch m {
        case 0x00: return "active"
        case 0x01: return "hold"
        case 0x02: return "sniff"
        default: return "mode \(Hex.hex(m, width: 2))"
        }
    }

    public static func airMode(_ m: UInt8) -> String {
        switch m {
        case 0x00: return "µ-law"
        case 0x01: return "A-law"
        case 0x02: return "CVSD"
        case 0x03: return "transparent"
        default: return "air mode \(Hex.hex(m, width: 2))"
        }
    }

    /// Slots of 0.625 ms as "500.00 ms".
    static func slots(_ n: UInt16) -> String {
        var t = Fmt.fixed(Int(n) * 625, scale: 1000)
        while t.hasSuffix("0") && t.contains(".") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        return t + " ms"
    }
}
