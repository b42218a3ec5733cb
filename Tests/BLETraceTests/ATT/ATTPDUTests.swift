import Testing
@testable import BLETrace

@Suite("ATT PDUs")
struct ATTPDUTests {
    func parse(_ b: [UInt8]) throws -> ATTPDU { try ATTPDU.parse(b[...]) }

    @Test("error response and MTU exchange")
    func errorAndMTU() throws {
        guard case .errorResponse(0x0A, 0x0010, 0x05) = try parse([0x01, 0x0A, 0x10, 0x00, 0x05]) else { Issue.record("error"); return }
        guard case .exchangeMTURequest(517) = try parse([0x02, 0x05, 0x02]) else { Issue.record("mtu req"); return }
        guard case .exchangeMTUResponse(23) = try parse([0x03, 0x17, 0x00]) else { Issue.record("mtu rsp"); return }
        #expect(throws: ByteError.self) { try parse([0x01, 0x0A, 0x10, 0x00]) }
    }

    @Test("the PDUs read in place: values are slices of the PDU's own bytes, lengths at the edges as the cursor reads them")
    func readInPlace() throws {
        // Inside a larger buffer, as a frame's payload is.
        func inBuffer(_ b: [UInt8]) -> ArraySlice<UInt8> { ([0xEE, 0xEE] + b)[2...] }
        for op: UInt8 in [0x1B, 0x1D, 0x12, 0x52] {
            let pdu = try ATTPDU.parse(inBuffer([op, 0x0E, 0x00, 0x5A, 0x5B]))
            #expect(pdu.opcode == op && pdu.handle == 0x000E && pdu.value.map(Array.init) == [0x5A, 0x5B])
            #expect(pdu.value?.startIndex == 5)
            // No value at all, then a handle cut short.
            #expect(try ATTPDU.parse(inBuffer([op, 0x0E, 0x00])).value?.isEmpty == true)
            #expect(throws: ByteError.self) { try ATTPDU.parse(inBuffer([op, 0x0E])) }
        }
        guard case .readRequest(0x0102) = try ATTPDU.parse(inBuffer([0x0A, 0x02, 0x01, 0xFF])) else { Issue.record("read"); return }
        #expect(throws: ByteError.self) { try ATTPDU.parse(inBuffer([0x0A, 0x02])) }
        guard case let .readResponse(v) = try ATTPDU.parse(inBuffer([0x0B, 0x01, 0x02])) else { Issue.record("read rsp"); return }
        #expect(Array(v) == [0x01, 0x02] && v.startIndex == 3)
        guard case let .readResponse(empty) = try ATTPDU.parse(inBuffer([0x0B])) else { Issue.record("empty read rsp"); return }
        #expect(empty.isEmpty)
    }

    @Test("discovery PDUs")
    func discovery() throws {
        guard case let .findInformationResponse(1, e) = try parse([0x05, 0x01, 0x04, 0x00, 0x02, 0x29, 0x05, 0x00, 0x01, 0x29]) else { Issue.record("fi"); return }
        #expect(e.count == 2 && e[0].handle == 4 && e[0].uuid == BLEUUID(UInt16(0x2902)) && e[1].uuid == BLEUUID(UInt16(0x2901)))
        let u128: [UInt8] = Array(0..<16)
        guard case let .findInformationResponse(2, e2) = try parse([0x05, 0x02, 0x09, 0x00] + u128) else { Issue.record("fi128"); return }
        #expect(e2.first?.uuid == BLEUUID(littleEndian: u128[...]))
        #expect(throws: ByteError.self) { try parse([0x05, 0x03, 0x01, 0x00, 0x00, 0x28]) }
        guard case let .findByTypeValueRequest(1, 0xFFFF, 0x2800, v) = try parse([0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0F, 0x18]) else { Issue.record("fbtv"); return }
        #expect(Array(v) == [0x0F, 0x18])
        guard case let .findByTypeValueResponse(r) = try parse([0x07, 0x10, 0x00, 0x14, 0x00]) else { Issue.record("fbtv rsp"); return }
        #expect(r.count == 1 && r[0].found == 0x10 && r[0].groupEnd == 0x14)
        guard case let .readByTypeRequest(1, 0xFFFF, t) = try parse([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]) else { Issue.record("rbt"); return }
        #expect(t == BLEUUID(UInt16(0x2803)))
        #expect(throws: ByteError.self) { try parse([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03]) }
        guard case let .readByTypeResponse(rt) = try parse([0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A]) else { Issue.record("rbt rsp"); return }
        #expect(rt.count == 2 && rt[1].handle == 4 && Array(rt[1].value) == [0x02, 0x05, 0x00, 0x01, 0x2A])
        #expect(throws: ByteError.self) { try parse([0x09, 0x07, 0x02, 0x00, 0x02]) }
        guard case let .readByGroupTypeResponse(g) = try parse([0x11, 0x06, 0x01, 0x00, 0x07, 0x00, 0x00, 0x18]) else { Issue.record("rbgt"); return }
        #expect(g.count == 1 && g[0].handle == 1 && g[0].end == 7 && Array(g[0].value) == [0x00, 0x18])
        guard case .readByGroupTypeRequest(1, 0xFFFF, _) = try parse([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]) else { Issue.record("rbgt req"); return }
    }

    @Test("reads, writes, queued writes, notifications and indications")
    func readsWrites() throws {
        #expect(try parse([0x0A, 0x03, 0x00]).handle == 3)
        #expect(try parse([0x0B, 0x5A]).value.map(Array.init) == [0x5A])
        guard case .readBlobRequest(3, 22) = try parse([0x0C, 0x03, 0x00, 0x16, 0x00]) else { Issue.record("blob"); return }
        guard case let .readMultipleRequest(hs) = try parse([0x0E, 0x03, 0x00, 0x05, 0x00]) else { Issue.record("rm"); return }
        #expect(hs == [3, 5])
        #expect(throws: ByteError.self) { try parse([0x0E, 0x03, 0x00]) }
        let w = try parse([0x12, 0x04, 0x00, 0x01, 0x00])
        #expect(w.handle == 4 && w.value.map(Array.init) == [0x01, 0x00] && w.opcode == 0x12)
        guard case .writeResponse = try parse([0x13]) else { Issue.record("wr"); return }
        guard case let .writeCommand(9, v) = try parse([0x52, 0x09, 0x00, 0xAA]) else { Issue.record("wc"); return }
        #expect(Array(v) == [0xAA])
        guard case let .prepareWriteRequest(9, 18, pv) = try parse([0x16, 0x09, 0x00, 0x12, 0x00, 0x01, 0x02]) else { Issue.record("pw"); return }
        #expect(Array(pv) == [1, 2])
        guard case .prepareWriteResponse(9, 18, _) = try parse([0x17, 0x09, 0x00, 0x12, 0x00, 0x01, 0x02]) else { Issue.record("pwr"); return }
        guard case .executeWriteRequest(1) = try parse([0x18, 0x01]) else { Issue.record("ew"); return }
        guard case .executeWriteResponse = try parse([0x19]) else { Issue.record("ewr"); return }
        guard case .notification(0x1B, _) = try parse([0x1B, 0x1B, 0x00, 0x01]) else { Issue.record("ntf"); return }
        guard case .indication(0x03, _) = try parse([0x1D, 0x03, 0x00]) else { Issue.record("ind"); return }
        guard case .confirmation = try parse([0x1E]) else { Issue.record("cfm"); return }
    }

    @Test("Core 5.2+ PDUs: Read Multiple Variable, Multiple Handle Value Notification; Signed Write")
    func newer() throws {
        guard case let .readMultipleVariableRequest(hs) = try parse([0x20, 0x03, 0x00, 0x07, 0x00]) else { Issue.record("rmv"); return }
        #expect(hs == [3, 7])
        guard case let .readMultipleVariableResponse(vals, truncated) = try parse([0x21, 0x01, 0x00, 0x5A, 0x03, 0x00, 0x41, 0x42]) else { Issue.record("rmv rsp"); return }
        #expect(vals.map(Array.init) == [[0x5A], [0x41, 0x42]] && truncated)
        guard case let .multipleNotification(en) = try parse([0x23, 0x03, 0x00, 0x01, 0x00, 0x5A, 0x07, 0x00, 0x02, 0x00, 0x01, 0x02]) else { Issue.record("mhvn"); return }
        #expect(en.count == 2 && en[1].handle == 7 && Array(en[1].value) == [1, 2])
        #expect(throws: ByteError.self) { try parse([0x23, 0x03, 0x00, 0x05, 0x00, 0x5A]) }
        let sig: [UInt8] = Array(repeating: 0xCC, count: 12)
        guard case let .signedWriteCommand(5, v, s) = try parse([0xD2, 0x05, 0x00, 0x01, 0x02] + sig) else { Issue.record("signed"); return }
        #expect(Array(v) == [1, 2] && Array(s) == sig)
        #expect(throws: ByteError.self) { try parse([0xD2, 0x05, 0x00, 0x01]) }
        guard case .unknown(0x30, _) = try parse([0x30, 0x01]) else { Issue.record("unknown"); return }
    }

    @Test("names: opcodes, errors including application and common profile ranges, roles")
    func names() {
        #expect(ATTNames.opcode(0x23) == "Multiple Handle Value Notification")
        #expect(ATTNames.opcode(0xD2) == "Signed Write Command")
        #expect(ATTNames.error(0x05) == "Insufficient Authentication")
        #expect(ATTNames.error(0x12) == "Database Out Of Sync")
        #expect(ATTNames.error(0x13) == "Value Not Allowed")
        #expect(ATTNames.error(0x80) == "Application Error 0x80")
        #expect(ATTNames.error(0x9F) == "Application Error 0x9F")
        #expect(ATTNames.error(0xFC) == "Write Request Rejected")
        #expect(ATTNames.error(0xFD) == "Client Characteristic Configuration Descriptor Improperly Configured")
        #expect(ATTNames.error(0xFE) == "Procedure Already in Progress")
        #expect(ATTNames.error(0xFF) == "Out of Range")
        #expect(ATTNames.error(0x50) == "Reserved error 0x50")
        #expect(ATTNames.sentByClient(0x0A) && ATTNames.sentByClient(0x52) && ATTNames.sentByClient(0x1E))
        #expect(!ATTNames.sentByClient(0x1B) && !ATTNames.sentByClient(0x01) && !ATTNames.sentByClient(0x23))
        #expect(ATTNames.properties(0x1A) == ["read", "write", "notify"])
    }
}
