/// Where the key that decrypts a link came from.
public enum KeySource: Sendable, Equatable {
    /// LE legacy pairing cracked: the TK found (0 for Just Works, else the passkey); the key is the STK.
    case crackedTK(Int)
    /// `--ltk` or the keys file.
    case given(KeyOptions.Origin)
    /// An LTK the capture distributed (SMP Encryption Information at this record).
    case distributed(record: Int)
    /// LE Secure Connections with the specification's debug key pair.
    case debugKeys
}

/// A key a link was (or can be) encrypted with, most significant octet first.
public struct FoundKey: Sendable, Equatable {
    public var key: [UInt8]
    public var source: KeySource
    /// The key is the STK of legacy pairing (it encrypts only until the keys are distributed).
    public var isSTK: Bool
}

/// The keys every link of a capture can draw on: the user's, and those the capture itself distributed
/// (an LTK sent in one connection encrypts the next connection between the same devices).
final class KeyRing {
    let options: KeyOptions
    struct Distributed {
        var ltk: [UInt8]
        var ediv: UInt16?
        var rand: [UInt8]?
        var record: Int
        var devices: [BDAddr]
    }
    var distributed: [Distributed] = []
    /// LTKs found by pairing (LE Secure Connections) per pair of devices.
    var paired: [FoundKey] = []
    var pairedDevices: [[BDAddr]] = []
    /// IRKs the capture distributed, with the identity address sent after them.
    var irks: [(irk: [UInt8], identity: BDAddr?, record: Int)] = []
    static let maxKeys = 256
    /// Passkey searches (1,000,000 TKs each) left for this capture: a hostile capture full of pairings
    /// must not keep the decoder searching.
    var searchesLeft = 16

    /// Takes one search from the budget; false when it is spent.
    func takeSearch() -> Bool {
        guard searchesLeft > 0 else { return false }
        searchesLeft -= 1
        return true
    }

    init(options: KeyOptions) { self.options = options }

    /// Candidate keys for an encryption started with `ediv` and `rand` (as sent) between these devices.
    func candidates(ediv: UInt16, rand: [UInt8], central: BDAddr?, peripheral: BDAddr?) -> [FoundKey] {
        var out: [FoundKey] = []
        let devices = [central, peripheral].compactMap { $0 }
        for d in distributed.reversed() {
            let idMatches = d.ediv == nil || (d.ediv == ediv && d.rand == rand)
            let devicesMatch = d.devices.isEmpty || devices.isEmpty || !Set(d.devices).isDisjoint(with: devices)
            if idMatches && devicesMatch { out.append(FoundKey(key: d.ltk, source: .distributed(record: d.record), isSTK: false)) }
        }
        for (i, k) in paired.enumerated().reversed() where devices.isEmpty || !Set(pairedDevices[i]).isDisjoint(with: devices) {
            out.append(k)
        }
        for e in options.ltks(central: central, peripheral: peripheral) {
            out.append(FoundKey(key: e.key, source: .given(e.origin), isSTK: false))
        }
        return out
    }

    func addDistributed(_ d: Distributed) {
        guard distributed.count < KeyRing.maxKeys else { return }
        distributed.append(d)
    }

    func addPaired(_ k: FoundKey, devices: [BDAddr]) {
        guard paired.count < KeyRing.maxKeys else { return }
        paired.append(k)
        pairedDevices.append(devices)
    }
}
