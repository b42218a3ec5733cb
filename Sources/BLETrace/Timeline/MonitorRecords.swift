/// btmon's own records in a Linux monitor capture (btsnoop 2001, pcap 254): Index Info (the controller's
/// address and manufacturer) and the control channel's records: a process opening or closing a socket on the
/// kernel's Bluetooth subsystem (raw HCI, user channel, or the management interface bluetoothd uses), with the
/// process name, and the management commands and events on it (Linux kernel `hci_sock.c`, BlueZ `btmon`).
enum MonitorRecords {
    static func content(_ r: Record) -> NoteBody.Content? {
        var c = ByteCursor(r.data)
        switch r.sourceType {
        case 10: // Index Info
            guard let a = try? c.address(), let m = try? c.u16le() else { return nil }
            return .indexInfo(address: a, manufacturer: m)
        case 14: // Control Open
            guard let cookie = try? c.u32le(), let format = try? c.u16le(), let version = try? c.u8(), let revision = try? c.u16le(),
                  let flags = try? c.u32le(), let length = try? c.u8() else { return nil }
            let ident = (try? c.bytes(min(Int(length), c.remaining))) ?? []
            return .controlOpen(ControlOpen(cookie: cookie, format: format, version: version, revision: revision, flags: flags,
                                            process: ident.prefix(while: { $0 != 0 })))
        case 15: // Control Close
            guard let cookie = try? c.u32le() else { return nil }
            return .controlClose(cookie: cookie)
        case 16, 17: // Control Command / Event
            guard let cookie = try? c.u32le(), let opcode = try? c.u16le() else { return nil }
            return .controlMessage(cookie: cookie, opcode: opcode, parameters: (try? c.bytes(c.remaining)) ?? [])
        default:
            return nil
        }
    }
}

/// A Control Open record: which socket a process opened.
public struct ControlOpen: Sendable {
    public var cookie: UInt32
    /// 0 raw HCI, 1 user channel, 2 management interface.
    public var format: UInt16
    public var version: UInt8
    public var revision: UInt16
    /// Bit 0: the process is privileged (CAP_NET_ADMIN).
    public var flags: UInt32
    public var process: ArraySlice<UInt8>

    public var formatName: String {
        switch format {
        case 0: return "RAW"
        case 1: return "USER"
        case 2: return "MGMT"
        default: return "format \(format)"
        }
    }
}
