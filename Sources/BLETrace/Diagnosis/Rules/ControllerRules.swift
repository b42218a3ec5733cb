/// Controller rules: resets and hardware errors, and commands the controller refused.

/// `controller_reset` and `bluetooth_off`: an HCI Reset after connections or scanning started, and a Hardware
/// Error event. A Reset sent once the host had closed every link (with its Disconnects), or the host
/// closing its links with "Remote Device Terminated Connection due to Power Off" (0x15), is Bluetooth being
/// switched off or the stack restarting on purpose: the host's own action, one `bluetooth_off` (info); phones
/// often leave the scan on when they do it (mdrr52, Riosagala, DSD6 in the corpus), so a scan does not count. A
/// Reset with links still open cut them: `controller_reset` (warning, the host did it). A Hardware Error is the
/// controller's failure (error).
final class ControllerResetRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciCommand, .hciEvent] }
    /// True once a connection opened or scanning started (a Reset before that is the normal bring-up).
    @exclusivity(unchecked) var active = false
    /// The links open now (handles), and the host's Disconnect commands since the last Reset (at most 8 kept).
    @exclusivity(unchecked) var open: Set<UInt16> = []
    @exclusivity(unchecked) var hostDisconnects: [Int] = []
    /// The host's Disconnects with reason 0x15 (power off) not yet followed by a Reset.
    @exclusivity(unchecked) var powerOff: [Int] = []

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch c.params {
        case let .scanEnable(enable, _) where enable != 0: active = true
        case let .extendedScanEnable(enable, _, _, _) where enable != 0: active = true
        case .createConnection, .extendedCreateConnection: active = true
        case let .disconnect(_, reason):
            if hostDisconnects.count < 8 { hostDisconnects.append(e.record) }
            if reason == 0x15, powerOff.count < 8 { powerOff.append(e.record) }
        default:
            guard c.opcode == 0x0C03 else { return }
            defer { active = false; open.removeAll(); hostDisconnects.removeAll(); powerOff.removeAll() }
            guard active else { return }
            if open.isEmpty {
                ctx.raise(Diagnosis(id: .bluetoothOff, facts: DiagnosisFacts(opcode: 0x0C03, byLocal: true), evidence: [e.record] + hostDisconnects))
            } else {
                var f = DiagnosisFacts(opcode: 0x0C03, byLocal: true, number: open.count)
                f.handle = open.min()
                ctx.raise(Diagnosis(id: .controllerReset, severity: .warning, facts: f, evidence: [e.record]))
            }
        }
    }

    override func finish(_ ctx: DiagnosisContext) {
        // Switched off at the end of the capture, before any Reset was logged.
        if let first = powerOff.first {
            ctx.raise(Diagnosis(id: .bluetoothOff, facts: DiagnosisFacts(opcode: 0x0C03, byLocal: true), evidence: [first] + powerOff.dropFirst()))
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .hardwareError(code):
            ctx.raise(Diagnosis(id: .controllerReset, facts: DiagnosisFacts(reason: code, byLocal: false), evidence: [e.record]))
        default:
            switch h.change {
            case let .opened(handle, _, _, _, _, _, _, _)?:
                active = true
                if open.count < 4096 { open.insert(handle) }
            case let .closed(handle, _)?:
                open.remove(handle)
            case .some:
                active = true
            case nil:
                break
            }
        }
    }
}

/// `command_rejected`: an HCI command answered with an error status, grouped by command and status. A
/// connection that failed is the link rules' (its Command Status is the first sign, not a separate cause), and a
/// data path refused on an open stream is `iso_path_missing`'s.
/// What the trace shows to be the host's own doing or an optional feature is context (info, with the reason):
/// a vendor command (capability probes), Unknown HCI Command or Unsupported Feature (a feature the controller
/// lacks), Unknown Connection Identifier (the link closed first, or was not open), an informational command (a capability probe),
/// a cancel with nothing to cancel, and the same command again after it had just succeeded.
final class CommandRejectedRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [.hciCommand, .hciEvent] }
    /// Per opcode (one entry each, at most `maxOpcodes`, found through `slots`: one lookup a command and one an
    /// answer): the last command sent, the connection it named when one was open on its handle, and the last that
    /// succeeded with its record and time.
    struct Sent {
        var command: HCICommandBody
        var on: Int?
        var succeeded: (command: HCICommandBody, record: Int, time: Int64)?
    }
    @exclusivity(unchecked) var sent: [Sent] = []
    @exclusivity(unchecked) var slots: [UInt16: Int] = [:]
    /// The opcode last looked up and its slot: a command's answer usually follows it, and an opcode keeps its slot.
    @exclusivity(unchecked) var lastOpcode: UInt16?
    @exclusivity(unchecked) var lastSlot = 0
    static let maxOpcodes = 512

    /// `slots[op]`, hashed only when the opcode is not the last one looked up.
    @inline(__always) func slot(_ op: UInt16) -> Int? {
        if op == lastOpcode { return lastSlot }
        guard let s = slots[op] else { return nil }
        lastOpcode = op
        lastSlot = s
        return s
    }
    /// How long after a success the same command counts as a repeat.
    static let repeatWindow: Int64 = 5_000_000
    /// Inquiry Cancel, Exit Periodic Inquiry Mode, Create Connection Cancel, Remote Name Request Cancel and LE
    /// Create Connection Cancel (which cancels LE Extended Create Connection too).
    static let cancels: Set<UInt16> = [0x0402, 0x0404, 0x0408, 0x041A, 0x200E]
    /// LE Setup ISO Data Path: its refusal on an open CIS or BIS is `iso_path_missing`'s.
    static let setupISODataPath: UInt16 = 0x206E

    override func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let on = ctx.connection(e.connection).flatMap { $0.closedRecord == nil ? $0.id : nil }
        if let i = slot(c.opcode) {
            sent[i].command = c
            sent[i].on = on
        } else if sent.count < CommandRejectedRule.maxOpcodes {
            slots[c.opcode] = sent.count
            sent.append(Sent(command: c, on: on))
        }
    }

    override func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let op: UInt16, status: UInt8
        switch h.params {
        case let .commandComplete(c):
            guard let s = c.status else { return }
            op = c.opcode; status = s
        case let .commandStatus(s, _, o):
            op = o; status = s
        default:
            return
        }
        guard op != 0 else { return }
        let found = slot(op)
        if status == 0 {
            if let i = found { sent[i].succeeded = (sent[i].command, e.record, e.timestamp.micros) }
            return
        }
        let entry = found.map { sent[$0] }
        // A data path refused on an open stream is iso_path_missing's evidence: one incident, one diagnosis.
        if op == CommandRejectedRule.setupISODataPath, entry?.on != nil { return }
        var f = DiagnosisFacts(reason: status, opcode: op)
        f.benign = benign(op, status: status, entry, e, ctx)
        ctx.raise(Diagnosis(id: .commandRejected, facts: f, evidence: [e.record]))
    }

    func benign(_ op: UInt16, status: UInt8, _ entry: Sent?, _ e: TraceEvent, _ ctx: DiagnosisContext) -> Benign? {
        if op >> 10 == 0x3F { return .vendorCommand }
        // Unknown HCI Command, Unsupported Feature or Parameter Value, Unsupported Remote / LL Parameter Value.
        if [0x01, 0x11, 0x1A, 0x20].contains(status) { return .optionalFeature }
        // Informational parameters (OGF 0x04: versions, features and their pages, buffer sizes) only read what the
        // controller has: a refusal is a capability probe's answer.
        if op >> 10 == 0x04 { return .optionalFeature }
        if CommandRejectedRule.cancels.contains(op) { return .nothingToCancel }
        // Unknown Connection Identifier is a race only when the link the command named closed before the answer
        // (or was not open when it was sent); a link still open was refused for real (a BIS the controller
        // cannot set a data path on).
        if status == 0x02 {
            if let id = entry?.on, ctx.connection(id)?.closedRecord == nil { return nil }
            return .racedDisconnect
        }
        // The same parameters (compared in words, only here, on a failure) as a success moments before.
        if let entry, let s = entry.succeeded, e.timestamp.micros &- s.time <= CommandRejectedRule.repeatWindow,
           String(describing: s.command.params) == String(describing: entry.command.params) {
            return .duplicate(record: s.record)
        }
        return nil
    }
}

/// `flow_control_stall`: every controller ACL buffer taken and no completion for over a second (the link
/// statistics find them; one diagnosis counts them all, with the longest wait).
final class FlowControlStallRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }

    override func finish(_ ctx: DiagnosisContext) {
        guard let stats = ctx.linkStatistics, let longest = stats.stalls.max(by: { $0.duration < $1.duration }) else { return }
        for s in stats.stalls {
            var facts = DiagnosisFacts(number: s.buffers)
            facts.micros = longest.duration
            ctx.raise(Diagnosis(id: .flowControlStall, facts: facts, evidence: [s.firstRecord, s.lastRecord]))
        }
    }
}
