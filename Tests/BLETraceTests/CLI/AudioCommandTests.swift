import Foundation
import Testing
@testable import BLETrace

/// `bletrace audio`: its options checked before anything is read, a capture without audio listed as such, and
/// a generated A2DP capture written to WAV files.
@Suite("bletrace audio")
struct AudioCommandTests {
    @Test("option combinations -o needs, and --stream and --all exclude each other", .enabled(if: ExitStatusTests.binary != nil))
    func validation() throws {
        let sample = TestSupport.packageRoot.appendingPathComponent("samples/gatt-session.btsnoop").path
        for (args, why) in [(["--stream", "1"], "--stream and --all need -o"), (["--all"], "--stream and --all need -o"),
                            (["-o", "x.wav"], "-o needs --stream N or --all"), (["--stream", "1", "--all", "-o", "d"], "exclude each other"),
                            (["--no-decode", "--all", "-o", "d"], "--no-decode writes no WAV")] {
            let r = try ExitStatusTests.run(["audio", sample] + args)
            #expect(r.status == 2 && r.err.contains(why) && r.out.isEmpty, "\(args): \(r.status) \(r.err)")
        }
        let none = try ExitStatusTests.run(["audio", sample])
        #expect(none.status == 0 && none.out == "no audio streams\n")
        let json = try ExitStatusTests.run(["audio", sample, "--format", "json"])
        #expect(json.status == 0 && json.out.contains("\"audio\":{\"streams\":[]},\"diagnoses\":[]}"))
        // Asking for a stream the capture does not have fails with a reason.
        let missing = try ExitStatusTests.run(["audio", sample, "--stream", "1", "-o", NSTemporaryDirectory() + "none.wav"])
        #expect(missing.status == 1 && missing.err.contains("no stream 1"))
    }

    @Test("--all -o DIR writes one WAV per stream; the list names the stream", .enabled(if: ExitStatusTests.binary != nil && AudioFixtures.canDecode))
    func all() throws {
        let g = try AudioFixtures.generate(["--seconds", "0.5", "--lose", "110"])
        let dir = NSTemporaryDirectory() + "bletrace-audio-" + UUID().uuidString
        let r = try ExitStatusTests.run(["audio", g.path, "--all", "-o", dir])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("stream 1: A2DP media, connection #1, records #"))
        #expect(r.out.contains("sequence: 1 lost") && r.out.contains("1 packet lost before #\(g.lostRecordsAfter[0])"))
        #expect(r.out.hasSuffix("wrote \(dir)/stream-1.wav\n"))
        let wav = try WAV(path: dir + "/stream-1.wav")
        #expect(wav.rate == 44_100 && wav.samples.count / 2 == (g.packets + 1) * 640)
    }
}
