#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a beacon dissector made of a piece of manufacturer or service data.
public enum BeaconMatch<Beacon: Sendable & Equatable>: Sendable, Equatable {
    /// The bytes are this beacon format and decode cleanly.
    case beacon(Beacon)
    /// The bytes start like this format but break its rules (for example, a wrong length); not decoded.
    case nearMiss(String)
    /// The bytes are not this format.
    case none

    public var beacon: Beacon? {
        if case let .beacon(b) = self { return b }
        return nil
    }
}

/// A decoded beacon as the advertising fields and text show it.
public protocol DescribedBeacon: Sendable, Equatable {
    var fields: Fields { get }
    var text: String { get }
}

extension IBeacon: DescribedBeacon {}
extension AltBeacon: DescribedBeacon {}
extension Eddystone: DescribedBeacon {}

extension BeaconMatch where Beacon: DescribedBeacon {
    /// Adds the match to `f` under `key` (a near miss under `key_near_miss`) and returns its text: the
    /// beacon's, or `nearMiss(reason)`. Nil, adding nothing, when the bytes are not this format.
    func describe(key: String, into f: inout Fields, nearMiss: (String) -> String) -> String? {
        switch self {
        case let .beacon(b):
            f.add(key, b.fields)
            return b.text
        case let .nearMiss(why):
            f.add(key + "_near_miss", why)
            return nearMiss(why)
        case .none:
            return nil
        }
    }
}

/// Rough distance estimates for beacons.
///
/// Log-distance path-loss model: `d = 10 ^ ((P1m − RSSI) / (10 · n))` metres, where `P1m` is the
/// calibrated received power at 1 m (the beacon's "measured power"), RSSI the received power, and `n` the
/// path-loss exponent (2 for free space). Walls, bodies and antenna orientation easily make this wrong by a
/// factor of two or more, so it is always labelled an estimate.
public enum BeaconDistance {
    public static let pathLossExponent = 2.0

    /// Metres, or nil when either value is missing or the result is not a usable number.
    public static func estimate(powerAt1m: Int, rssi: Int?) -> Double? {
        guard let rssi, rssi != 127, powerAt1m != 0 else { return nil }
        let d = pow(10.0, Double(powerAt1m - rssi) / (10.0 * pathLossExponent))
        guard d.isFinite, d > 0, d < 1_000_000 else { return nil }
        return d
    }

    /// Two decimals: "1.78". The value must come from `estimate` (bounded).
    public static func metres(_ d: Double) -> String {
        Fmt.fixed(Int((d * 100).rounded()), scale: 100)
    }

    /// Adds `distance_estimate_m` (metres, to the centimetre) when there is an estimate.
    static func add(powerAt1m: Int, rssi: Int?, to f: inout Fields) {
        guard let d = estimate(powerAt1m: powerAt1m, rssi: rssi) else { return }
        f.add("distance_estimate_m", .double((d * 100).rounded() / 100))
    }

    /// ", ~1.78 m (estimate)", or "" when there is no estimate.
    static func suffix(powerAt1m: Int, rssi: Int?) -> String {
        guard let d = estimate(powerAt1m: powerAt1m, rssi: rssi) else { return "" }
        return ", ~\(metres(d)) m (estimate)"
    }
}
