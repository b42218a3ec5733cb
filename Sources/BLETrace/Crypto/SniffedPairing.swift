/// The values of one pairing as the sniffer saw them in SMP PDUs, in packet order (least significant octet
/// first), and what was found from them.
public struct SniffedPairing: Sendable {
    public var record: Int
    /// Pairing Request and Response commands, code first (7 octets).
    public var request: [UInt8]?
    public var response: [UInt8]?
    public var requestFeatures: PairingFeatures?
    public var responseFeatures: PairingFeatures?
    public var centralConfirm: [UInt8]?
    public var peripheralConfirm: [UInt8]?
    public var centralRandom: [UInt8]?
    public var peripheralRandom: [UInt8]?
    public var centralPublicKey: (x: [UInt8], y: [UInt8])?
    public var peripheralPublicKey: (x: [UInt8], y: [UInt8])?

    public init(record: Int) { self.record = record }

    public var method: (method: PairingMethod, secureConnections: Bool)? {
        guard let q = requestFeatures, let p = responseFeatures else { return nil }
        let m = PairingMethodTable.method(initiator: q, responder: p)
        return (m.method, m.secureConnections)
    }

    /// Takes one SMP PDU (its bytes, code first) sent by the central or the peripheral.
    mutating func take(_ bytes: ArraySlice<UInt8>, fromCentral: Bool) {
        guard let pdu = try? SMPPDU.parse(bytes) else { return }
        switch pdu {
        case let .pairingRequest(f):
            request = Array(bytes.prefix(7)); requestFeatures = f
        case let .pairingResponse(f):
            response = Array(bytes.prefix(7)); responseFeatures = f
        case let .pairingConfirm(v):
            if fromCentral { centralConfirm = Array(v) } else { peripheralConfirm = Array(v) }
        case let .pairingRandom(v):
            if fromCentral { centralRandom = Array(v) } else { peripheralRandom = Array(v) }
        case let .pairingPublicKey(x, y):
            if fromCentral { centralPublicKey = (Array(x), Array(y)) } else { peripheralPublicKey = (Array(x), Array(y)) }
        default:
            break
        }
    }

    /// The inputs of c1 and s1, when the request, response and both randoms were seen.
    func legacyInputs(central: BDAddr, centralRandomAddress: Bool, peripheral: BDAddr, peripheralRandomAddress: Bool) -> LegacyCracker.Inputs? {
        guard let q = request, let p = response, let mr = centralRandom, let sr = peripheralRandom else { return nil }
        return LegacyCracker.Inputs(preq: LEBytes.value(q), pres: LEBytes.value(p), iat: centralRandomAddress ? 1 : 0,
                                    rat: peripheralRandomAddress ? 1 : 0, ia: SniffedPairing.bytes(central),
                                    ra: SniffedPairing.bytes(peripheral), mrand: LEBytes.value(mr), srand: LEBytes.value(sr),
                                    mconfirm: centralConfirm.map(LEBytes.value), sconfirm: peripheralConfirm.map(LEBytes.value))
    }

    /// An address, most significant octet first.
    static func bytes(_ a: BDAddr) -> [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: a.value >> (8 * UInt64(5 - $0))) } }

    /// The LE Secure Connections LTK when either side used the debug key pair: DHKey with the debug private
    /// key and the other side's public key, then f5.
    func debugKeyLTK(central: BDAddr, centralRandomAddress: Bool, peripheral: BDAddr, peripheralRandomAddress: Bool) -> [UInt8]? {
        guard let c = centralPublicKey, let p = peripheralPublicKey, let na = centralRandom, let nb = peripheralRandom else { return nil }
        let cx = LEBytes.value(c.x), cy = LEBytes.value(c.y), px = LEBytes.value(p.x), py = LEBytes.value(p.y)
        let debugX = SecureConnectionsFunctions.debugPublicX, debugY = SecureConnectionsFunctions.debugPublicY
        let dh: [UInt8]?
        if cx == debugX && cy == debugY {
            dh = SecureConnectionsFunctions.debugDHKey(peerX: px, peerY: py)
        } else if px == debugX && py == debugY {
            dh = SecureConnectionsFunctions.debugDHKey(peerX: cx, peerY: cy)
        } else {
            return nil
        }
        guard let w = dh else { return nil }
        let a1 = [UInt8(centralRandomAddress ? 1 : 0)] + SniffedPairing.bytes(central)
        let a2 = [UInt8(peripheralRandomAddress ? 1 : 0)] + SniffedPairing.bytes(peripheral)
        return SecureConnectionsFunctions.f5(w: w, n1: LEBytes.value(na), n2: LEBytes.value(nb), a1: a1, a2: a2)?.ltk
    }

    /// Whether either side sent the debug public key.
    var usedDebugKey: Bool {
        let debugX = SecureConnectionsFunctions.debugPublicX
        return centralPublicKey.map { LEBytes.value($0.x) == debugX } == true || peripheralPublicKey.map { LEBytes.value($0.x) == debugX } == true
    }
}
