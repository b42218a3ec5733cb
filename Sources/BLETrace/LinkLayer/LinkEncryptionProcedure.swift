extension LinkLayerDecoder {
    /// What the encryption of a link learns from LL control PDUs: a session's SKD and IV halves, and the
    /// pause that ends it (the peripheral's LL_PAUSE_ENC_RSP is the last encrypted PDU of a session).
    func encryptionProcedure(_ d: LLControlPDU, _ dir: LLDirection, _ l: Link, _ r: Record) {
        switch d.parameters {
        case let .encryptionRequest(rand, ediv, skd, iv):
            l.encryption.encryptionRequest(ediv: ediv, rand: rand, skd: skd, iv: iv, record: r.number)
        case let .encryptionResponse(skd, iv):
            l.encryption.encryptionResponse(skd: skd, iv: iv)
        default:
            if d.opcode == 0x0B, dir == .peripheralToCentral, l.encrypted {
                l.encryption.pause()
                l.encrypted = false
                l.encryptionPending = false
            }
        }
    }
}
