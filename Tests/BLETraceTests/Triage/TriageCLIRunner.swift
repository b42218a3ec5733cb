import Foundation
@testable import BLETrace

extension TriageCLITests {
    /// Runs the binary with `input` on standard input (none: an empty one) and `environment` changed
    /// (a nil value removes the variable); returns its status and outputs.
    static func run(_ args: [String], input: String? = nil, environment: [String: String?]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try requireBinary())
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        inp.fileHandleForWriting.write(Data((input ?? "").utf8))
        try inp.fileHandleForWriting.close()
        final class Box: @unchecked Sendable { var data = Data() }
        let errors = Box()
        let reader = Thread { errors.data = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errors.data, as: UTF8.self))
    }

    struct NoBinary: Error {}

    static func requireBinary() throws -> String {
        guard let b = binary else { throw NoBinary() }
        return b
    }
}
