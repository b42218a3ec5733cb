/// `triage --shard K/N`: this worker's share of the inputs. Files are split by their content hash (SHA-256
/// of the bytes; of the path for a file that cannot be read), so the split is the same on every machine and
/// in every run, whatever the order or the paths the inputs are listed in, and all captures of one bugreport
/// fall in one shard. K counts from 0, as a Kubernetes Indexed Job's JOB_COMPLETION_INDEX does.
public struct TriageShard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// "K/N" with 0 ≤ K < N.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && $0.count <= 9 }),
              let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    /// The shard a file belongs to, from its hex content hash (the first 15 hex digits).
    public static func of(_ fileSHA256: String, count: Int) -> Int {
        var v: UInt64 = 0
        for c in fileSHA256.utf8.prefix(15) {
            let d: UInt64
            switch c {
            case 0x30...0x39: d = UInt64(c - 0x30)
            case 0x61...0x66: d = UInt64(c - 0x61 + 10)
            case 0x41...0x46: d = UInt64(c - 0x41 + 10)
            default: d = 0
            }
            v = v << 4 | d
        }
        return Int(v % UInt64(max(1, count)))
    }

    public func contains(_ fileSHA256: String) -> Bool {
        TriageShard.of(fileSHA256, count: count) == index
    }

    public var description: String { "\(index)/\(count)" }
}
