import Foundation
import Testing
@testable import BLETrace

/// `--ltk`/`--keys` work on every command that decodes a capture (not only `analyze`), and `diff` chooses a
/// bugreport's log per side.
@Suite struct KeysAndLogsEverywhereTests {
    typealias CLI = ExitStatusTests
    static let irk = "ec0234a357c8ad05341010a60a397d9b"
    static let identity = BDAddr(0x11_22_33_44_55_66)

    /// An HCI scan in which one device advertises under two resolvable private addresses made with `irk`, and
    /// once under its identity address.
    static func privateAddressScan() throws -> String {
        let irk = try #require(LEBytes.hex(irk))
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: BDAddr(0xC0_FF_EE_00_00_01))
        s.startScan()
        for (i, prand) in [UInt32(0x708194), 0x512345].enumerated() {
            let hash = try #require(PrivacyFunctions.ah(irk: irk, prand: prand))
            s.advert(addressType: 1, address: BDAddr(UInt64(prand) << 24 | UInt64(hash)), data: HCIBuilder.ad(0x09, Array("Watch \(i)".utf8)), rssi: -50)
            s.advance(ms: 100)
        }
        s.advert(addressType: 0, address: identity, data: HCIBuilder.ad(0x09, Array("Watch".utf8)), rssi: -52)
        s.stopScan()
        return TestSupport.temporaryFile(s.writer.bytes, suffix: ".btsnoop")
    }

    @Test(.enabled(if: CLI.binary != nil))
    func devicesAndDiffResolvePrivateAddressesWithTheKeysFile() throws {
        let scan = try Self.privateAddressScan()
        let keys = TestSupport.temporaryFile(Array("\"\(Self.identity)\":\n  irk: \"\(Self.irk)\"\n".utf8), suffix: ".yaml")
        defer { for f in [scan, keys] { try? FileManager.default.removeItem(atPath: f) } }

        let plain = try CLI.run(["devices", scan, "--format", "json"])
        #expect(plain.status == 0)
        #expect(plain.out.components(separatedBy: "\"address\":").count - 1 == 3)
        let resolved = try CLI.run(["devices", scan, "--format", "json", "--keys", keys])
        #expect(resolved.status == 0)
        #expect(resolved.out.components(separatedBy: "\"address\":").count - 1 == 1, "\(resolved.out)")
        #expect(resolved.out.contains("\"resolved_from\""))

        // Against the plain sample scan: with the IRK the device is one added device, not three.
        let other = CLI.sample("scan.btsnoop")
        let without = try CLI.run(["diff", other, scan])
        let with = try CLI.run(["diff", other, scan, "--keys", keys])
        #expect(without.status == 1 && with.status == 1)
        #expect(without.out.contains("3 only in B (70:81:94:0D:FB:AA (Watch 0), 51:23:45:E3:AB:1B (Watch 1), 11:22:33:44:55:66 (Watch))"))
        #expect(with.out.contains("1 only in B (11:22:33:44:55:66 (Watch 0))"), "\(with.out)")

        let badKeys = try CLI.run(["diff", other, scan, "--ltk", "12345"])
        #expect(badKeys.status == 2 && badKeys.err.contains("--ltk 12345"))
    }

    static let known = TestSupport.sharedCaptures?.appendingPathComponent("mikeryan__crackle__tests__02_ltk_decrypt__known_ltk.pcap").path
    static let crack = TestSupport.sharedCaptures?.appendingPathComponent("mikeryan__crackle__tests__01_crack__pairing_and_ltk_exchange.pcap").path

    @Test(.enabled(if: CLI.binary != nil && KeyOptionTests.present(known) && KeyOptionTests.present(crack)))
    func diffDecryptsWithTheGivenKey() throws {
        let a = try #require(Self.known), b = try #require(Self.crack)
        let without = try CLI.run(["diff", a, b])
        #expect(without.out.contains("encrypted and not decoded in A (7 data PDUs)"))
        #expect(without.out.contains("--ltk or --keys decrypts it"))
        let with = try CLI.run(["diff", a, b, "--ltk", "7f62c053f104a5bbe68b1d896a2ed49c"])
        #expect(with.status == 1)
        #expect(!with.out.contains("encrypted and not decoded"))
        // A's reads of the Device Name were encrypted: only the key shows them.
        #expect(with.out.contains("Read by type 2A00 Device Name"))
        #expect(!without.out.contains("Read by type 2A00"))
        for command in ["devices", "gatt"] {
            #expect(try CLI.run([command, a, "--ltk", "7f62c053f104a5bbe68b1d896a2ed49c"]).status == 0)
            let bad = try CLI.run([command, a, "--ltk", "12345"])
            #expect(bad.status == 2 && bad.err.contains("--ltk 12345: not 32 hex digits"), "\(command)")
        }
    }

    static let whadEncrypted = TestSupport.sharedCaptures?.appendingPathComponent(CrackleConformanceTests.whadEncrypted).path
    static let whadDecrypted = TestSupport.sharedCaptures?.appendingPathComponent(CrackleConformanceTests.whadDecrypted).path

    /// WHAD's encrypted capture, decrypted with the LTK its pairing capture distributed, is its decrypted copy.
    @Test(.enabled(if: CLI.binary != nil && KeyOptionTests.present(whadEncrypted) && KeyOptionTests.present(whadDecrypted)))
    func decryptedDiffAgainstTheDecryptedCopyIsEmpty() throws {
        let a = try #require(Self.whadEncrypted), b = try #require(Self.whadDecrypted)
        let without = try CLI.run(["diff", a, b])
        #expect(without.status == 1)
        #expect(without.out.contains("encrypted and not decoded in A (8 data PDUs): its GATT procedures cannot be compared (3 steps on the other side not listed)"))
        let with = try CLI.run(["diff", a, b, "--ltk", "0e0596ef16cf17cc48357ee19da96728"])
        #expect(with.status == 0)
        #expect(with.out.hasSuffix("No differences.\n"))
    }

    @Test(.enabled(if: CLI.binary != nil))
    func diffChoosesTheLogOfEachSide() throws {
        // A bugreport holding the good and the bad diff sample as two logs.
        let zip = try TestSupport.zipFile([
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log", Samples.diffSession(bad: false).writer.bytes),
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log.last", Samples.diffSession(bad: true).writer.bytes),
        ])
        defer { try? FileManager.default.removeItem(atPath: zip) }
        let same = try CLI.run(["diff", zip, zip])
        #expect(same.status == 0)
        #expect(same.err.contains("holds 2 Bluetooth logs; comparing [1]"))
        #expect(same.err.contains("--log-a/--log-b"))
        let quiet = try CLI.run(["diff", zip, zip, "--quiet"])
        #expect(quiet.err.isEmpty)

        let chosen = try CLI.run(["diff", zip, zip, "--log-b", "2"])
        #expect(chosen.status == 1)
        let files = try CLI.run(["diff", CLI.sample("diff-good.btsnoop"), CLI.sample("diff-bad.btsnoop")])
        // The same differences as between the two sample files; only the header lines name other files.
        let body = { (s: String) in s.split(separator: "\n").filter { !$0.hasPrefix("A: ") && !$0.hasPrefix("B: ") } }
        #expect(body(chosen.out) == body(files.out))
        #expect(!body(files.out).isEmpty)

        let missing = try CLI.run(["diff", zip, zip, "--log-a", "3"])
        #expect(missing.status == 2 && missing.err.contains("there is no log 3"))
    }
}
