import ArgumentParser
import BLETrace

/// `--ltk` and `--keys`: keys for decrypting sniffed LE links and resolving private addresses; the same on
/// every command that decodes a capture.
struct KeyOptionGroup: ParsableArguments {
    static let title = "Keys"

    @Option(name: .long, help: ArgumentHelp("An LTK for decrypting sniffed links, 32 hex digits written as bletrace and crackle print them; ADDRESS=HEX for one device's connections. Repeatable.", valueName: "[ADDRESS=]HEX"))
    var ltk: [String] = []

    @Option(name: .long, help: ArgumentHelp("A JSON or YAML file mapping device addresses to their LTK (decrypts sniffed links) and IRK (makes the resolvable private addresses of a device one device); see docs/keys.md.", valueName: "FILE"))
    var keys: String?

    func make() throws -> KeyOptions {
        do {
            return try KeyOptions.checked(file: keys, ltks: ltk)
        } catch {
            reportError(error.message)
            throw ExitCode(2)
        }
    }
}
