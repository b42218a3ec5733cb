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
        #expect(try CLI.run(["analyze", sample, "--ltk", "7f62c053f104a5bbe68b1d896a2ed49c"]).status == 0)
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
