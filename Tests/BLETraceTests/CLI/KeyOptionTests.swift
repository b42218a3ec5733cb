import Foundation
import Testing

/// `--ltk` and `--keys` on the command line, and what the text output prints about the keys.
@Suite struct KeyOptionTests {
    typealias CLI = ExitStatusTests
    static let crack = TestSupport.sharedCaptures?.appendingPathComponent("mikeryan__crackle__tests__01_crack__pairing_and_ltk_exchange.pcap").path
    static let known = TestSupport.sharedCaptures?.appendingPathComponent("mikeryan__crackle__tests__02_ltk_decrypt__known_ltk.pcap").path
    static func present(_ p: String?) -> Bool { p.map { FileManager.default.fileExists(atPath: $0) } ?? false }

    @Test(.enabled(if: CLI.binary != nil))
    func badKeysAreRefused() throws {
        let sample = CLI.sample("gatt-session.btsnoop")
        let bad = try CLI.run(["analyze", sample, "--ltk", "12345"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("--ltk 12345: not 32 hex digits"))
        let badAddress = try CLI.run(["analyze", sample, "--ltk", "nope=7f62c053f104a5bbe68b1d896a2ed49c"])
        #expect(badAddress.status == 2)
        let missing = try CLI.run(["analyze", sample, "--keys", "/nonexistent/keys.yaml"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("cannot read the keys file"))
        // An HCI capture has nothing to decrypt: the key is accepted, with a note.
        let hci = try CLI.run(["analyze", "--summary-only", sample, "--ltk", "7f62c053f104a5bbe68b1d896a2ed49c"])
        #expect(hci.status == 0)
        #expect(hci.err.contains("note: --ltk: the capture has no sniffed link layer, so there is nothing to decrypt"))
    }

    @Test(.enabled(if: CLI.binary != nil && present(known)))
    func aKeyForAnAddressTheCaptureLacksIsNoted() throws {
        let path = try #require(Self.known)
        let other = try CLI.run(["analyze", "--summary-only", path, "--ltk", "11:22:33:44:55:66=7f62c053f104a5bbe68b1d896a2ed49c"])
        #expect(other.status == 0)
        #expect(other.err == "bletrace: note: --ltk 11:22:33:44:55:66=…: no connection with 11:22:33:44:55:66 in the capture, so the key was not used\n")
        let right = try CLI.run(["analyze", "--summary-only", path, "--ltk", "78:C5:E5:6E:DD:E8=7f62c053f104a5bbe68b1d896a2ed49c"])
        #expect(right.status == 0 && right.err.isEmpty && right.out.contains("7 PDUs decrypted"))
    }

    @Test(.enabled(if: CLI.binary != nil && present(crack)))
    func theCrackedKeysArePrintedAndRedacted() throws {
        let r = try CLI.run(["analyze", "--summary-only", try #require(Self.crack)])
        #expect(r.status == 0)
        #expect(r.out.contains("TK 000000 cracked"))
        #expect(r.out.contains("LTK 7f62c053f104a5bbe68b1d896a2ed49c (distributed at record 589)"))
        let redacted = try CLI.run(["analyze", "--redact", try #require(Self.crack)])
        #expect(redacted.status == 0)
        #expect(!redacted.out.contains("7f62c053f104a5bbe68b1d896a2ed49c"))
        #expect(!redacted.out.contains("9cd42e6a891d8be6bba504f153c0627f"))
        #expect(redacted.out.contains("SMP Encryption Information: LTK "))
    }

    @Test(.enabled(if: CLI.binary != nil && present(known)))
    func aKeysFileDecryptsLikeTheOption() throws {
        let keys = TestSupport.temporaryFile(Array("\"78:C5:E5:6E:DD:E8\":\n  ltk: \"7f62c053f104a5bbe68b1d896a2ed49c\"\n".utf8), suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let r = try CLI.run(["analyze", "--summary-only", try #require(Self.known), "--keys", keys])
        #expect(r.status == 0)
        #expect(r.out.contains("7 PDUs decrypted, 0 MIC failures"))
        #expect(r.out.contains("(from the keys file)"))
    }
}
