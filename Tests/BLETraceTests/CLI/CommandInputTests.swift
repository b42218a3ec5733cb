import Foundation
import Testing
@testable import BLETrace

/// Every command reads its input through the one input path (gzip, standard input, bugreport zip) and
/// takes `--redact`; an empty time window is a usage error.
@Suite struct CommandInputTests {
    static func run(_ args: [String], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(ExitStatusTests.binary))
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        if let s = stdin { p.standardInput = FileHandle(forReadingAtPath: s) }
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func devicesReadsGzipStandardInputAndBugreportZips() throws {
        let scan = ExitStatusTests.sample("scan.btsnoop")
        let plain = try CommandInputTests.run(["devices", scan])
        #expect(plain.status == 0 && plain.out.contains("C4:7C:8D:6A:11:22"))
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: scan)))
        let gz = TestSupport.temporaryFile(try Deflate.compress(bytes, gzip: true), suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: gz) }
        let zipped = try CommandInputTests.run(["devices", gz])
        #expect(zipped.status == 0)
        #expect(zipped.out == plain.out)
        let piped = try CommandInputTests.run(["devices", "-"], stdin: scan)
        #expect(piped.status == 0)
        #expect(piped.out == plain.out)
        let listed = try CommandInputTests.run(["devices", scan, "--list-logs"])
        #expect(listed.status == 0 && listed.out.contains("a single capture"))
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func devicesAndGattRedact() throws {
        let gatt = ExitStatusTests.sample("gatt-session.btsnoop")
        for args in [["devices", gatt], ["devices", gatt, "--format", "json"], ["gatt", gatt], ["gatt", gatt, "--format", "json"]] {
            let open = try CommandInputTests.run(args)
            #expect(open.out.contains("C4:7C:8D:6A:11:22"), "\(args)")
            let r = try CommandInputTests.run(args + ["--redact"])
            #expect(r.status == 0, "\(args)")
            #expect(!r.out.contains("C4:7C:8D:6A:11:22") && r.out.contains("00:00:00:00:00:0"), "\(args)")
        }
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func redactedStandardInputIsReadTwice() throws {
        let gatt = ExitStatusTests.sample("gatt-session.btsnoop")
        let file = try CommandInputTests.run(["analyze", gatt, "--redact", "--summary-only"])
        let piped = try CommandInputTests.run(["analyze", "-", "--redact", "--summary-only"], stdin: gatt)
        #expect(piped.status == 0)
        #expect(!piped.out.contains("Thermo-42"))
        #expect(piped.out.replacingOccurrences(of: "File:        -", with: "File:        \(gatt)") == file.out)
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func filterNotesAndAnEmptyWindow() throws {
        let good = ExitStatusTests.sample("diff-good.btsnoop")
        let window = try CommandInputTests.run(["analyze", good, "--from", "5", "--to", "1"])
        #expect(window.status == 2 && window.err.contains("--from 5.0 is after --to 1.0"))
        let nosuch = try CommandInputTests.run(["analyze", good, "--device", "nosuch"])
        #expect(nosuch.status == 0 && nosuch.err.contains("note: --device nosuch: no device of that name"))
        let conn = try CommandInputTests.run(["analyze", good, "--connection", "5"])
        #expect(conn.err.contains("note: --connection 5: the capture has 1 connection"))
        let quiet = try CommandInputTests.run(["analyze", good, "--connection", "5", "--quiet"])
        #expect(quiet.err.isEmpty)
    }
}
