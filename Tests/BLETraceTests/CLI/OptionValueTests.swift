import Foundation
import Testing
@testable import BLETrace

/// Option values a new user got wrong are named in their terms (issue #27): negative and non-finite numbers, a
/// width the timeline cannot wrap at, --log on a single capture, --gatt given a capture, diff with every
/// category ignored, a truncated zip.
@Suite struct OptionValueTests {
    typealias X = ExitStatusTests

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func badNumbersAreRefusedByName() throws {
        let s = X.sample("gatt-session.btsnoop")
        let cases: [([String], String)] = [
            (["--from", "-1"], "bletrace: --from: -1.0 is not a time: give seconds since the first record (0 or more)\n"),
            (["--from", "nan"], "bletrace: --from: nan is not a time: give seconds since the first record (0 or more)\n"),
            (["--to", "inf"], "bletrace: --to: inf is not a time: give seconds since the first record (0 or more)\n"),
            (["--width", "-5"], "bletrace: --width: -5 is not a column count (at least 51, or 0 for no wrapping)\n"),
            (["--width", "40"], "bletrace: --width: 40 is too narrow for the timeline's columns (at least 51, or 0 for no wrapping)\n"),
            (["--time", "absolute", "--width", "60"],
             "bletrace: --width: 60 is too narrow for the timeline's columns (at least 65 with --time absolute, or 0 for no wrapping)\n"),
            (["--max-chars", "-5"], "bletrace: --max-chars: -5 is not a number of characters (0 for no limit)\n"),
        ]
        for (args, message) in cases {
            let r = try X.run(["analyze"] + args + [s])
            #expect(r.status == 2, "\(args)")
            #expect(r.err == message, "\(args)")
            #expect(r.out.isEmpty)
        }
        #expect(try X.run(["analyze", "--width", "51", s]).status == 0)
        #expect(try X.run(["analyze", "--from", "0.5", "--to", "2", s]).status == 0)
        #expect(TextRenderer.narrowestWidth(.relative) == 51 && TextRenderer.narrowestWidth(.absolute) == 65)
    }

    @Test(.enabled(if: ExitStatusTests.binary != nil))
    func misplacedInputsAreNamed() throws {
        let s = X.sample("gatt-session.btsnoop")
        let log = try X.run(["analyze", "--summary-only", "--log", "2", s])
        #expect(log.status == 0)
        #expect(log.err.contains("note: --log 2 ignored:") && log.err.contains("is a single capture (btsnoop)"))
        let gatt = try X.run(["analyze", "--gatt", s, s])
        #expect(gatt.status == 2)
        #expect(gatt.err.contains("this is a capture (btsnoop), not a GATT database"))
        let all = DiffItem.Category.allCases.map(\.rawValue).joined(separator: ",")
        let diff = try X.run(["diff", "--ignore", all, X.sample("diff-good.btsnoop"), X.sample("diff-bad.btsnoop")])
        #expect(diff.status == 2)
        #expect(diff.err == "bletrace: --ignore: every category is left out, so nothing would be compared\n")
        // A zip cut short.
        let whole = try TestSupport.zipFile([("FS/data/misc/bluetooth/logs/btsnoop_hci.log", Samples.gattSession().writer.bytes)])
        defer { try? FileManager.default.removeItem(atPath: whole) }
        let bytes = try #require(FileManager.default.contents(atPath: whole))
        let cut = TestSupport.temporaryFile(Array(bytes.dropLast(30)), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: cut) }
        let zip = try X.run(["analyze", cut])
        #expect(zip.status == 2)
        #expect(zip.err.contains("not a complete zip archive (its end of central directory is missing): the file may be truncated"))
    }
}
