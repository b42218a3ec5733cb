import Foundation
import Testing
@testable import BLETrace

/// On the shared Bumble LE Audio captures, every isochronous and periodic advertising HCI command and LE event
/// that tshark names is named the same way by bletrace (issue #29); runs when tshark and the captures are there.
@Suite struct LEAudioTSharkNamesTests {
    static let isoCommands: ClosedRange<UInt16> = 0x2061...0x2075
    static let periodicCommands: ClosedRange<UInt16> = 0x203E...0x2046
    static let isoSubevents: Set<UInt8> = [0x0E, 0x0F, 0x10, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x22, 0x24, 0x25, 0x2A]

    @Test(.enabled(if: TestSupport.sharedCaptures != nil && TestSupport.tshark != nil))
    func namesAgreeWithTShark() throws {
        var compared = 0
        for name in ["bumble_unicast_central.btsnoop", "bumble_broadcast_sink.btsnoop", "bumble_vcs_csis_phone.btsnoop"] {
            let path = try #require(TestSupport.sharedCaptures?.appendingPathComponent(name).path)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let out = try TestSupport.runTShark(["-r", path, "-T", "fields", "-e", "bthci_cmd.opcode", "-e", "bthci_evt.le_meta_subevent",
                                                 "-e", "bthci_evt.opcode", "-e", "_ws.col.Info"])
            for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard f.count == 4 else { continue }
                let info = f[3]
                func inner(_ s: String) -> String? {
                    guard let a = s.firstIndex(of: "("), let b = s.lastIndex(of: ")"), a < b else { return nil }
                    return String(s[s.index(after: a)..<b])
                }
                if let op = UInt16(f[0].dropFirst(2), radix: 16), Self.isoCommands.contains(op) || Self.periodicCommands.contains(op) {
                    #expect(info == "Sent " + HCIText.commandName(op), "\(name): \(info)")
                    compared += 1
                } else if let op = UInt16(f[2].dropFirst(2), radix: 16), Self.isoCommands.contains(op) || Self.periodicCommands.contains(op),
                          let n = inner(info) {
                    #expect(n == HCIText.commandName(op), "\(name): \(info)")
                    compared += 1
                } else if let sub = UInt8(f[1].dropFirst(2), radix: 16), Self.isoSubevents.contains(sub), let n = inner(info) {
                    #expect(n == HCINames.leSubevent(sub), "\(name): \(info)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 20)
    }
}
