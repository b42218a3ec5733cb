import Foundation
import Testing
@testable import BLETrace

/// `--log N` and `--list-logs` on bugreports.
@Suite struct LogChoiceTests {
    @Test func aMissingLogIsNamedAsSuch() throws {
        let path = TestSupport.temporaryFile(Array(try ContainerTests.btsnoozText(Samples.scan()).utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CaptureError.noSuchLog(requested: 9, count: 1)) { try InputOpener.open(path: path, log: 9) }
        #expect(CaptureError.noSuchLog(requested: 9, count: 1).description
                == "--log 9: there is no log 9; the file holds 1 Bluetooth log (--list-logs lists them)")
        #expect(!CaptureError.noSuchLog(requested: 3, count: 2).description.contains("header"))
    }

    @Test func bugreportTextWithoutBTSnoozIsNotListed() throws {
        // A long main text with no btsnooz section (the marker would straddle read chunks if it were there).
        let zipPath = try TestSupport.zipFile([
            ("FS/data/misc/bluetooth/logs/btsnoop_hci.log", Samples.gattSession().writer.bytes),
            ("bugreport-sdk_phone-2026-11-22.txt", Array(String(repeating: "== dumpstate line\n", count: 20_000).utf8)),
        ])
        defer { try? FileManager.default.removeItem(atPath: zipPath) }
        let opened = try InputOpener.open(path: zipPath)
        #expect(opened.logs.map(\.name) == ["FS/data/misc/bluetooth/logs/btsnoop_hci.log"])
        #expect(throws: CaptureError.noSuchLog(requested: 2, count: 1)) { try InputOpener.open(path: zipPath, log: 2) }
    }
}
