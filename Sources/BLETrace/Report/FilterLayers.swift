/// The layers `--layer` names: every event kind, and groups across kinds (`hci`, `l2cap`) or within them
/// (`classic`, `a2dp`, `media`, `iso`, `vendor`, `flow`). An event belongs to its kind's layer and to every
/// group that takes it; `--layer -flow` leaves out what a group takes.
public struct EventLayers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The layer of one event kind (bits 0–13, by `EventKind.index`).
    public init(kind: EventKind) { rawValue = 1 << UInt32(kind.index) }

    /// BR/EDR: events of BR/EDR connections, SCO, and the HCI commands and events only BR/EDR has.
    public static let classic = EventLayers(rawValue: 1 << 16)
    /// AVDTP signaling and the A2DP media packets it set up.
    public static let a2dp = EventLayers(rawValue: 1 << 17)
    /// A2DP media packets only.
    public static let media = EventLayers(rawValue: 1 << 18)
    /// Isochronous data and the LE commands and events that set up CIGs, CISes and BIGs.
    public static let isochronous = EventLayers(rawValue: 1 << 19)
    /// Vendor records, vendor commands and events, and the completions of vendor commands.
    public static let vendorAll = EventLayers(rawValue: 1 << 20)
    /// Flow-control bookkeeping: Number Of Completed Packets / Data Blocks, Host Number Of Completed Packets.
    public static let flow = EventLayers(rawValue: 1 << 21)

    /// The names `--layer` takes, with what each selects; event kinds (`hci_event`, `signaling`, …) are taken too.
    public static let named: [(name: String, layers: EventLayers, help: String)] = [
        ("hci", [EventLayers(kind: .hciCommand), EventLayers(kind: .hciEvent)], "HCI commands and events"),
        ("adv", EventLayers(kind: .adv), "advertising reports and sniffed advertising PDUs"),
        ("att", EventLayers(kind: .att), "ATT/GATT"),
        ("smp", EventLayers(kind: .smp), "pairing (SMP)"),
        ("l2cap", [EventLayers(kind: .acl), EventLayers(kind: .l2cap), EventLayers(kind: .signaling)],
         "L2CAP signaling, channels and ACL fragments"),
        ("classic", .classic, "everything BR/EDR"),
        ("a2dp", .a2dp, "AVDTP signaling and A2DP media"),
        ("media", .media, "A2DP media packets"),
        ("iso", .isochronous, "isochronous data, CIG/CIS/BIG setup"),
        ("vendor", .vendorAll, "vendor records, commands and events"),
        ("flow", .flow, "Number Of Completed Packets and similar bookkeeping"),
        ("ll", EventLayers(kind: .linkLayer), "sniffed link-layer packets"),
    ]

    /// The layers a `--layer` word names: a name above or an event kind.
    public static func named(_ word: String) -> EventLayers? {
        if let n = named.first(where: { $0.name == word }) { return n.layers }
        if let k = EventKind(rawValue: word) { return k == .iso ? [EventLayers(kind: .iso), .isochronous] : EventLayers(kind: k) }
        return nil
    }

    /// Every layer `e` belongs to. `transport` answers whether a connection is BR/EDR (nil: unknown).
    public static func of(_ e: TraceEvent, bredr: (Int) -> Bool?) -> EventLayers {
        var l = EventLayers(kind: e.kind)
        if let c = e.connection, bredr(c) == true { l.insert(.classic) }
        switch e.body {
        case .sco:
            l.insert(.classic)
        case .iso:
            l.insert(.isochronous)
        case .vendor:
            l.insert(.vendorAll)
        case let .hciCommand(c):
            l.formUnion(commandLayers(c.opcode))
            if case .classic = c.params { l.insert(.classic) }
        case let .hciEvent(ev):
            l.formUnion(eventLayers(ev))
        case let .signaling(s):
            switch s.content {
            case .avdtp: l.insert(.a2dp)
            case .a2dpMedia: l.formUnion([.a2dp, .media])
            default: break
            }
        default:
            break
        }
        return l
    }

    static func commandLayers(_ opcode: UInt16) -> EventLayers {
        var l: EventLayers = []
        let ogf = opcode >> 10
        if ogf == 0x3F { l.insert(.vendorAll) }
        if opcode == 0x0C35 { l.insert(.flow) } // Host Number Of Completed Packets
        // LE: Read Buffer Size v2, ISO TX Sync, CIG/CIS/BIG commands, ISO data paths and tests, ISO link quality.
        if (0x2060...0x2073).contains(opcode) || opcode == 0x2075 { l.insert(.isochronous) }
        // BR/EDR only: link control (inquiry, connections, pairing) and link policy, except Disconnect and
        // Read Remote Version Information, which LE uses too.
        if (ogf == 0x01 && opcode != 0x0406 && opcode != 0x041D) || ogf == 0x02 { l.insert(.classic) }
        return l
    }

    static func eventLayers(_ ev: HCIEventBody) -> EventLayers {
        var l: EventLayers = []
        switch ev.params {
        case .completedPackets:
            l.insert(.flow)
        case let .commandComplete(c):
            l.formUnion(commandLayers(c.opcode))
        case let .commandStatus(_, _, opcode):
            l.formUnion(commandLayers(opcode))
        case .classic:
            l.insert(.classic)
        case .connectionComplete:
            l.insert(.classic)
        case .vendor:
            l.insert(.vendorAll)
        case let .le(subevent, _):
            // CIS Established / Request, BIG Complete / Terminate, BIG Sync Established / Lost, BIGInfo report.
            if (0x19...0x1E).contains(subevent) || subevent == 0x22 { l.insert(.isochronous) }
        default:
            break
        }
        switch ev.code {
        case 0x48: l.insert(.flow) // Number Of Completed Data Blocks
        case 0xFF: l.insert(.vendorAll)
        default: break
        }
        return l
    }
}
