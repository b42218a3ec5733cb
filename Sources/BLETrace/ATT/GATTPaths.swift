/// Stable names for the attributes of a GATT database that do not depend on handle numbers: the UUID path
/// `service/characteristic/descriptor` (`180A/2A26`, `180F/2A19/2902`). When a service holds the same UUID
/// twice, the second gets `#2` (`1812/2A4D#2`), in handle order.
public struct GATTPaths: Sendable {
    public enum Kind: String, Sendable { case service, include, characteristic, descriptor }

    /// One attribute of the tree, in handle order.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var kind: Kind
        /// Service start, include, characteristic declaration or descriptor handle.
        public var handle: UInt16
        /// Service end handle, or characteristic value handle.
        public var second: UInt16?
        public var properties: UInt8?
        public var primary: Bool?
    }

    public private(set) var entries: [Entry] = []
    /// Value handles, descriptor handles and declaration handles → path.
    var byHandle: [UInt16: String] = [:]

    public init(_ source: GATTDatabase) {
        var db = source
        let svcs = db.orderedServices()
        let chars = db.orderedCharacteristics()
        var serviceSeen: [String: Int] = [:]
        var placed = Set<UInt16>()
        func dedupe(_ base: String, _ seen: inout [String: Int]) -> String {
            let n = (seen[base] ?? 0) + 1
            seen[base] = n
            return n == 1 ? base : "\(base)#\(n)"
        }
        func addChars(_ list: [GATTCharacteristic], under prefix: String) {
            var seen: [String: Int] = [:]
            for c in list {
                placed.insert(c.handle)
                let path = prefix + dedupe(c.uuid?.description ?? "@" + Hex.hex(c.valueHandle, width: 4), &seen)
                entries.append(Entry(path: path, kind: .characteristic, handle: c.handle, second: c.valueHandle, properties: c.properties))
                byHandle[c.handle] = path
                byHandle[c.valueHandle] = path
                var dseen: [String: Int] = [:]
                for d in db.descriptors(of: c) {
                    let dp = path + "/" + dedupe(d.uuid?.description ?? "@" + Hex.hex(d.handle, width: 4), &dseen)
                    entries.append(Entry(path: dp, kind: .descriptor, handle: d.handle))
                    byHandle[d.handle] = dp
                }
            }
        }
        for s in svcs {
            let path = dedupe(s.uuid?.description ?? "@" + Hex.hex(s.start, width: 4), &serviceSeen)
            entries.append(Entry(path: path, kind: .service, handle: s.start, second: s.end, primary: s.primary))
            byHandle[s.start] = path
            var iseen: [String: Int] = [:]
            for i in db.includes.values.filter({ $0.handle >= s.start && $0.handle <= s.end }).sorted(by: { $0.handle < $1.handle }) {
                let ip = path + "/include:" + dedupe(i.uuid?.description ?? "@" + Hex.hex(i.start, width: 4), &iseen)
                entries.append(Entry(path: ip, kind: .include, handle: i.handle, second: i.start))
            }
            addChars(chars.filter { $0.handle > s.start && $0.handle <= s.end }, under: path + "/")
        }
        let orphans = chars.filter { !placed.contains($0.handle) }
        if !orphans.isEmpty { addChars(orphans, under: "?/") }
    }

    /// The path of a handle, or `@0x0012` when the database does not know it.
    public func path(_ handle: UInt16) -> String {
        byHandle[handle] ?? "@" + Hex.hex(handle, width: 4)
    }

    public func knows(_ handle: UInt16) -> Bool { byHandle[handle] != nil }

    /// "Device Information › Firmware Revision String" for "180A/2A26".
    public static func label(_ path: String) -> String { labels(path).joined(separator: " › ") }

    /// The last component's name: "Firmware Revision String".
    public static func leafLabel(_ path: String) -> String { labels(path).last ?? path }

    /// One name per component of the path.
    public static func labels(_ path: String) -> [String] {
        let parts = path.split(separator: "/").map(String.init)
        var out: [String] = []
        for (i, p) in parts.enumerated() {
            if p.hasPrefix("@") { out.append("handle " + p.dropFirst()); continue }
            if p == "?" { out.append("(no service)"); continue }
            var base = p
            var suffix = ""
            if let hash = p.firstIndex(of: "#") { base = String(p[..<hash]); suffix = " " + String(p[hash...]) }
            var include = false
            if base.hasPrefix("include:") { base = String(base.dropFirst(8)); include = true }
            let kind: (UInt16) -> String?
            if i == 0 || include { kind = AssignedNumbers.serviceName }
            else if i == 1 { kind = AssignedNumbers.characteristicName }
            else { kind = AssignedNumbers.descriptorName }
            let name = BLEUUID(string: base).flatMap { GATTNaming.name($0, kind: kind) } ?? base
            out.append((include ? "include " : "") + name + suffix)
        }
        return out
    }
}
