/// Read Multiple Response: one blob holding the values of the requested handles back to back, with no lengths.
/// It is split where every value but the last has a known length: the length of the value a Read Response
/// gave for the handle earlier in the capture, or the fixed length of its characteristic; the last value takes
/// the rest. Each part is then located and decoded like a single value.
extension ATTLayer {
    /// Characteristics whose value has one length (Core Supplement and the service specifications).
    static let fixedLengths: [UInt16: Int] = [
        0x2A01: 2,  // Appearance
        0x2A04: 8,  // Peripheral Preferred Connection Parameters
        0x2A05: 4,  // Service Changed
        0x2A19: 1,  // Battery Level
        0x2A23: 8,  // System ID
        0x2A50: 7,  // PnP ID
        0x2AA6: 1,  // Central Address Resolution
        0x2AC9: 1,  // Resolvable Private Address Only
        0x2B29: 1,  // Client Supported Features (first octet)
        0x2B2A: 16, // Database Hash
        0x2B3A: 1,  // Server Supported Features
        0x2A38: 1,  // Body Sensor Location
        0x2A1D: 1,  // Temperature Type
    ]

    static let maxLengthsPerServer = 4096
    /// Room made for a server's first length: the values a typical client reads (device information, battery).
    static let typicalLengthsPerServer = 8

    /// Remembers the length of a whole value read from `handle` (not one the MTU may have cut).
    func learnLength(_ slot: Int?, _ handle: UInt16, _ n: Int) {
        guard let s = slot else { return }
        // Sized once: one allocation for a server's table rather than one for each time it grows.
        if valueLengths[s].isEmpty { valueLengths[s].reserveCapacity(ATTLayer.typicalLengthsPerServer) }
        if valueLengths[s].count < ATTLayer.maxLengthsPerServer || valueLengths[s][handle] != nil {
            valueLengths[s][handle] = n
        }
    }

    /// The response's values, one entry per requested handle; nil when a length is unknown or they do not add up.
    func splitReadMultiple(_ v: ArraySlice<UInt8>, handles: [UInt16], ctx: inout DescribeContext, site: ValueSite) -> [ATTEntryFacts]? {
        guard handles.count >= 2 else { return nil }
        var lengths: [Int] = []
        for h in handles.dropLast() {
            let loc = locate(h, &ctx)
            let fixed = loc.role == .value ? loc.characteristic?.uuid?.uuid16.flatMap { ATTLayer.fixedLengths[$0] } : nil
            guard let n = ctx.slot.flatMap({ valueLengths[$0][h] }) ?? fixed else { return nil }
            lengths.append(n)
        }
        let known = lengths.reduce(0, +)
        guard known <= v.count else { return nil }
        lengths.append(v.count - known)
        var out: [ATTEntryFacts] = []
        var start = v.startIndex
        for (h, n) in zip(handles, lengths) {
            let part = v[start..<(start + n)]
            start += n
            let loc = locate(h, &ctx)
            var en = ATTEntryFacts(handle: h, location: loc, decoded: dissectValue(part, location: loc, handle: h, site: site))
            en.value = part
            out.append(en)
        }
        return out
    }
}
