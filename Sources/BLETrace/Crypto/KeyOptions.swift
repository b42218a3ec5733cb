/// Keys the user gives for decrypting sniffed links: `--ltk HEX`, `--ltk ADDR=HEX` and a keys file (`--keys`).
/// Keys are written as bletrace prints them (and as crackle prints and takes them): most significant octet first.
public struct KeyOptions: Sendable {
    /// Where a given key came from.
    public enum Origin: String, Sendable { case option, keysFile }

    public struct Entry: Sendable, Equatable {
        public var key: [UInt8]
        public var origin: Origin
    }

    /// `--ltk HEX`: tried on every encrypted connection.
    public var anyLTK: Entry?
    /// LTKs by the address of either device of a connection.
    public var ltkByAddress: [BDAddr: Entry] = [:]
    /// IRKs by identity address.
    public var irkByAddress: [BDAddr: Entry] = [:]

    public init() {}

    public var isEmpty: Bool { anyLTK == nil && ltkByAddress.isEmpty && irkByAddress.isEmpty }

    /// A 128-bit key from its hex text, or nil.
    public static func key(_ text: String) -> [UInt8]? {
        guard let k = LEBytes.hex(text), k.count == 16 else { return nil }
        return k
    }

    /// Adds one `--ltk` value: `HEX` or `AA:BB:CC:DD:EE:FF=HEX`.
    public mutating func add(ltk spec: String) throws {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            guard let a = BDAddr(string: parts[0]) else { throw KeyFileError(description: "--ltk \(spec): \(parts[0]) is not an address like 78:C5:E5:6E:DD:E8") }
            guard let k = KeyOptions.key(parts[1]) else { throw KeyFileError(description: "--ltk \(spec): the key is not 32 hex digits") }
            ltkByAddress[a] = Entry(key: k, origin: .option)
        } else {
            guard let k = KeyOptions.key(spec) else { throw KeyFileError(description: "--ltk \(spec): not 32 hex digits (or ADDRESS=32 hex digits)") }
            anyLTK = Entry(key: k, origin: .option)
        }
    }

    /// The given LTKs for a connection between these two devices, most specific first.
    func ltks(central: BDAddr?, peripheral: BDAddr?) -> [Entry] {
        var out: [Entry] = []
        for a in [peripheral, central] {
            if let a = a, let e = ltkByAddress[a], !out.contains(e) { out.append(e) }
        }
        if let e = anyLTK, !out.contains(e) { out.append(e) }
        return out
    }
}

public struct KeyFileError: Error, CustomStringConvertible {
    public var description: String
}

/// The keys file (`--keys FILE`): JSON or YAML mapping device addresses to their keys (docs/keys.md).
///
///     "78:C5:E5:6E:DD:E8":
///       ltk: "7f62c053f104a5bbe68b1d896a2ed49c"
///       irk: "…"
public enum KeyFile {
    public static func parse(_ bytes: [UInt8], into options: inout KeyOptions) throws {
        let tree: FieldValue
        let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        if first == UInt8(ascii: "{") {
            tree = try JSONParser.parse(bytes)
        } else {
            tree = try UserDefinedUUIDs.yaml(bytes)
        }
        guard case let .object(top) = tree else { throw KeyFileError(description: "keys file: expected a mapping of addresses to keys") }
        for (name, value) in top.items {
            guard let a = BDAddr(string: name) else { throw KeyFileError(description: "keys file: \(name) is not an address like 78:C5:E5:6E:DD:E8") }
            guard case let .object(keys) = value else { throw KeyFileError(description: "keys file: \(name): expected ltk and/or irk") }
            for (kind, v) in keys.items {
                guard kind == "ltk" || kind == "irk" else { throw KeyFileError(description: "keys file: \(name): unknown key kind \(kind) (ltk, irk)") }
                guard case let .string(text) = v, let k = KeyOptions.key(text) else {
                    throw KeyFileError(description: "keys file: \(name) \(kind): write the key as a quoted string of 32 hex digits")
                }
                let entry = KeyOptions.Entry(key: k, origin: .keysFile)
                if kind == "ltk" { options.ltkByAddress[a] = entry } else { options.irkByAddress[a] = entry }
            }
        }
    }
}
