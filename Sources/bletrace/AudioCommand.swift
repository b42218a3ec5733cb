import ArgumentParser
import BLETrace
import Foundation

extension Listings.Format: ExpressibleByArgument {}

struct Audio: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "List the audio streams of a capture, and write their decoded audio as WAV.",
        discussion: """
        One entry per stream (an A2DP media channel with SBC or AAC, or one direction of an HFP SCO/eSCO link \
        carried over HCI: linear PCM, µ-law, A-law, CVSD bits, mSBC or LC3-SWB): the codec as negotiated and \
        as found in the frames, frames decoded, decode errors, sequence gaps (RTP for A2DP, H2 for mSBC and \
        LC3-SWB), packets the \
        controller flagged erroneous (SCO), timing (jitter, late packets, underruns), the dropouts with where \
        and how long, and the decoded signal's level. SBC and mSBC frames are decoded with libsbc (Debian \
        libsbc1), LC3-SWB and LE Audio's LC3 with liblc3 (Debian liblc3-1), loaded when this command runs; \
        without them the streams are still listed, with decoding reported unavailable. AAC frames (LATM or ADTS) are counted and checked, not decoded: no packaged AAC \
        decoder can be linked under terms that fit.

        WAV files are 16-bit PCM; gaps (lost packets, underruns, pauses) are filled with silence, so a time \
        in the file is a time in the stream. An A2DP stream whose configuration changes (Reconfigure, or Close \
        and a new Set Configuration) goes on as a new stream, with its own WAV at its own rate. A capture that \
        starts while the music plays (no channel setup, no AVDTP configuration) still has its stream: a channel \
        whose packets are SBC media, every frame's header CRC checked, is recognised after three in sequence, \
        and the configuration inferred from the frames is shown as such. A WAV asked for and not written (decoding unavailable, an AAC \
        stream, a write that failed) is one line on standard error and exit status 1; 2 means the capture could not be read.

        Examples:
          bletrace audio btsnoop_hci.log
          bletrace audio btsnoop_hci.log --stream 1 -o stream1.wav
          bletrace audio bugreport.zip --all -o wavs/
          bletrace audio capture.btsnoop --format json
        """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: Listings.Format = .text

    @Option(name: .long, help: "Write stream N (as numbered in the list) to the file given by -o.")
    var stream: Int?

    @Flag(name: .long, help: "Write every stream to the directory given by -o, as stream-N.wav.")
    var all = false

    @Option(name: .short, help: "The WAV file (--stream) or directory (--all).")
    var output: String?

    @Flag(name: .long, help: "Do not decode: list the streams from their frame headers, sequence and timing only.")
    var noDecode = false

    func validate() throws {
        if stream != nil && all { throw ValidationError("--stream and --all exclude each other") }
        if (stream != nil || all) && output == nil { throw ValidationError("--stream and --all need -o") }
        if output != nil && stream == nil && !all { throw ValidationError("-o needs --stream N or --all") }
        if noDecode && (stream != nil || all) { throw ValidationError("--no-decode writes no WAV") }
    }

    func run() throws {
        var target = AudioRun.Output.none
        if let n = stream, let o = output { target = .stream(n, path: o) }
        if all, let o = output {
            try FileManager.default.createDirectory(atPath: o, withIntermediateDirectories: true)
            target = .all(directory: o)
        }
        let opened = try input.open()
        let out = OutputWriter(fd: 1)
        let result = AudioRun.run(opened, path: input.file, format: format, decode: !noDecode, output: target, out: out)
        try checkOutput(out)
        for f in result.failures { reportError(f) }
        if let e = result.summary.error {
            reportError("\(input.file): \(e.description); the list covers the \(result.summary.stats.records) record\(result.summary.stats.records == 1 ? "" : "s") before it")
            throw ExitCode(2)
        }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}
