/// Controller rules: resets and hardware errors, and commands the controller refused.

/// `controller_reset`: HCI Reset after connections or scanning started, or a Hardware Error event.
final class ControllerResetRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.hciCommand, .hciEvent]
    /// True once a connection opened or scanning started (a Reset before that is the normal bring-up).
    @exclusivity(unchecked) var active = false

    func hciCommand(_ c: HCICommandBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch c.params {
        case let .scanEnable(enable, _) where enable != 0: active = true
        case let .extendedScanEnable(enable, _, _, _) where enable != 0: active = true
        case .createConnection, .extendedCreateConnection: active = true
        default:
            guard c.opcode == 0x0C03, active else { return }
            active = false
            ctx.raise(Diagnosis(id: .controllerReset, facts: DiagnosisFacts(opcode: 0x0C03, byLocal: true), evidence: [e.record]))
        }
    }

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        switch h.params {
        case let .hardwareError(code):
            ctx.raise(Diagnosis(id: .controllerReset, facts: DiagnosisFacts(reason: code, byLocal: false), evidence: [e.record]))
        default:
            if h.change != nil { active = true }
        }
    }
}

/// `command_rejected`: an HCI command answered with an error status, grouped by command and status. A
/// connection that failed is the link rules' (its Command Status is the first sign, not a separate cause).
final class CommandRejectedRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.hciEvent]

    func hciEvent(_ h: HCIEventBody, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        let op: UInt16, status: UInt8
        switch h.params {
        case let .commandComplete(c):
            guard let s = c.status, s != 0 else { return }
            op = c.opcode; status = s
        case let .commandStatus(s, _, o) where s != 0:
            op = o; status = s
        default:
            return
        }
        guard op != 0 else { return }
        ctx.raise(Diagnosis(id: .commandRejected, facts: DiagnosisFacts(reason: status, opcode: op), evidence: [e.record]))
    }
}

/// `flow_control_stall`: every controller ACL buffer taken and no completion for over a second (the link
/// statistics find them; one diagnosis counts them all, with the longest wait).
final class FlowControlStallRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = []

    func finish(_ ctx: DiagnosisContext) {
        guard let stats = ctx.linkStatistics, let longest = stats.stalls.max(by: { $0.duration < $1.duration }) else { return }
        for s in stats.stalls {
            var facts = DiagnosisFacts(number: s.buffers)
            facts.micros = longest.duration
            ctx.raise(Diagnosis(id: .flowControlStall, facts: facts, evidence: [s.firstRecord, s.lastRecord]))
        }
    }
}
