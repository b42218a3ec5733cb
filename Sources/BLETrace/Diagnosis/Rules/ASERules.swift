/// `ase_operation_failed`: an ASE Control Point notification (ASCS 5) with a non-zero response code for an
/// ASE: the server refused the operation for it, named with its response and reason. The refusals are the
/// `AudioStreams` layer's (it sees the ASCS dissector's values as they are decoded), read at the end.
final class ASEOperationRule: DiagnosisRule {
    override var inputs: [DiagnosisInput] { [] }

    override func finish(_ ctx: DiagnosisContext) {
        for r in ctx.audioStreams?.refusals ?? [] {
            let c = ctx.connection(r.connection)
            var f = DiagnosisFacts()
            f.iso = .aseOperation(opcode: r.opcode, ase: r.entry.aseID, code: r.entry.responseCode, reason: r.entry.reason)
            ctx.raise(Diagnosis(id: .aseOperationFailed, facts: f, peer: c?.peer, connection: c?.id, evidence: [r.record]))
        }
    }
}
