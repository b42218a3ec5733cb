import Crypto

/// LE Secure Connections' key generation function f5 (Core Vol 3 Part H 2.2.7) and the P-256 Diffie-Hellman
/// key of a pairing where one side used the specification's debug key pair (2.3.5.6.1). Values are most
/// significant octet first.
public enum SecureConnectionsFunctions {
    static let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
    static let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65] // "btle"

    /// f5(W, N1, N2, A1, A2) → (MacKey, LTK). A1 and A2 are 7 octets: address type ‖ address.
    public static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) -> (macKey: [UInt8], ltk: [UInt8])? {
        guard w.count == 32, n1.count == 16, n2.count == 16, a1.count == 7, a2.count == 7,
              let t = AESCMAC.mac(key: salt, message: w) else { return nil }
        func part(_ counter: UInt8) -> [UInt8]? {
            AESCMAC.mac(key: t, message: [counter] + keyID + n1 + n2 + a1 + a2 + [0x01, 0x00])
        }
        guard let mac = part(0), let ltk = part(1) else { return nil }
        return (mac, ltk)
    }

    /// The specification's debug private key, and its public key's coordinates.
    public static let debugPrivateKey: [UInt8] = LEBytes.hex("3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd") ?? []
    public static let debugPublicX: [UInt8] = LEBytes.hex("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6") ?? []
    public static let debugPublicY: [UInt8] = LEBytes.hex("dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b") ?? []

    /// The DHKey of the debug private key with the other side's public key (x, y most significant first);
    /// nil when the point is not on the curve.
    public static func debugDHKey(peerX: [UInt8], peerY: [UInt8]) -> [UInt8]? {
        dhKey(privateKey: debugPrivateKey, peerX: peerX, peerY: peerY)
    }

    public static func dhKey(privateKey: [UInt8], peerX: [UInt8], peerY: [UInt8]) -> [UInt8]? {
        guard peerX.count == 32, peerY.count == 32,
              let priv = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey),
              let pub = try? P256.KeyAgreement.PublicKey(rawRepresentation: peerX + peerY),
              let secret = try? priv.sharedSecretFromKeyAgreement(with: pub) else { return nil }
        return secret.withUnsafeBytes { Array($0) }
    }
}
