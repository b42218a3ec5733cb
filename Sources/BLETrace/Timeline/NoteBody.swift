/// A capture note (PacketLogger notes, btmon system notes and index events): the typed body of its event.
/// The label and text are made by the renderer (`Report/Layers/NoteBodyRender.swift`).
public struct NoteBody: Sendable {
    public enum Content: Sendable {
        /// btmon New Index: controller type, bus, address and name (up to its NUL).
        case newIndex(type: UInt8, bus: UInt8, address: BDAddr, name: ArraySlice<UInt8>)
        /// btmon Delete Index.
        case deleteIndex
        /// btmon Index Info: the controller's address and manufacturer.
        case indexInfo(address: BDAddr, manufacturer: UInt16)
        /// btmon Control Open: a process opened a socket on the Bluetooth subsystem.
        case controlOpen(ControlOpen)
        /// btmon Control Close.
        case controlClose(cookie: UInt32)
        /// btmon Control Command / Event: a management command or event on an open socket.
        case controlMessage(cookie: UInt32, opcode: UInt16, parameters: ArraySlice<UInt8>)
        /// Printable text (the record's bytes up to the first NUL).
        case text(ArraySlice<UInt8>)
        /// Anything else: the record's bytes.
        case data(ArraySlice<UInt8>)
    }

    public var content: Content
    /// The record's source type: a btmon opcode or a PacketLogger record type.
    public var sourceType: UInt16
    /// True for btmon (Linux monitor) records.
    public var monitor: Bool
    /// The controller index (btmon).
    public var controller: UInt16

    public init(_ content: Content, sourceType: UInt16, monitor: Bool, controller: UInt16) {
        self.content = content
        self.sourceType = sourceType
        self.monitor = monitor
        self.controller = controller
    }

    public var kind: EventKind { .note }

    /// "New Index", "Note", …
    public var label: String {
        monitor ? MonitorOpcode.name(sourceType) : PacketLoggerReader.RecordType.name(UInt8(truncatingIfNeeded: sourceType))
    }
}
