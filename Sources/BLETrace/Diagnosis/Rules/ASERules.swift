/// `ase_operation_failed`: an ASE Control Point notification (ASCS 5) with a non-zero response code for an
/// ASE: the server refused the operation for it, named with its response and reason.
final class ASEOperationRule: DiagnosisRule {
    let inputs: [DiagnosisInput] = [.att]

    func att(_ a: ATTEvent, _ e: TraceEvent, _ ctx: DiagnosisContext) {
        guard let d = a.decodedValue, case let .aseControlResponse(r)? = d.fact else { return }
        let c = ctx.connection(e.connection)
        for entry in r.entries where entry.responseCode != 0 {
            var f = DiagnosisFacts()
            f.iso = .aseOperation(opcode: r.opcode, ase: entry.aseID, code: entry.responseCode, reason: entry.reason)
            ctx.raise(Diagnosis(id: .aseOperationFailed, facts: f, peer: c?.peer, connection: c?.id, evidence: [e.record]))
        }
    }
}
