/// BR/EDR pairing (or authentication with a stored link key) as the HCI traffic shows it (Core 5.4 Vol 3 Part C 5.2.2): the IO capabilities both sides
/// declared, the association model the controller asked the host to run, the Simple Pairing outcome, the
/// link key type, and Authentication Complete. Values only; `ClassicNames` names them.
public struct ClassicPairing: Sendable, Equatable {
    /// The association model, from the user interaction the controller asked for.
    public enum Method: UInt8, Sendable {
        /// User Confirmation Request where one side cannot display and confirm: confirmed without the user.
        case justWorks
        case numericComparison
        case passkeyEntry
        case outOfBand
        /// PIN Code Request: legacy (pre-2.1) pairing.
        case legacyPIN
    }

    public internal(set) var record: Int
    /// The local host's IO Capability Request Reply.
    public internal(set) var localIO: UInt8?
    /// The peer's IO Capability Response.
    public internal(set) var remoteIO: UInt8?
    public internal(set) var remoteAuthentication: UInt8?
    /// Either side declared OOB data present in its IO capabilities.
    public internal(set) var oobPresent = false
    public internal(set) var method: Method?
    /// Simple Pairing Complete status (0 success).
    public internal(set) var status: UInt8?
    /// Authentication Complete status.
    public internal(set) var authentication: UInt8?
    /// The host answered a Link Key Request with a stored key: authentication without pairing.
    public internal(set) var storedKey = false
    /// Link Key Notification key type.
    public internal(set) var keyType: UInt8?

    init(record: Int) { self.record = record }

    /// The user-interaction event's model: a confirmation is numeric comparison only when both sides can
    /// display and answer yes/no (IO capability 1); otherwise it is confirmed without the user.
    mutating func confirmation() {
        if localIO == 1 && remoteIO == 1 { method = .numericComparison } else { method = .justWorks }
    }

    /// Success when the Simple Pairing (or the authentication, for legacy pairing) completed with status 0.
    public var succeeded: Bool? { status.map { $0 == 0 } ?? authentication.map { $0 == 0 } }
}

extension ConnectionTracker {
    /// The open BR/EDR connection to `address`.
    func openBREDR(_ address: BDAddr) -> Connection? {
        open.values.first { !$0.le && $0.peer == address && $0.closedRecord == nil }
    }

    /// Follows pairing on the BR/EDR connection the event is about.
    func pairingEvent(_ p: ClassicEventParams, record: Int) {
        func update(_ a: BDAddr, _ change: (inout ClassicPairing) -> Void) {
            guard let c = openBREDR(a) else { return }
            var x = c.pairing ?? ClassicPairing(record: record)
            change(&x)
            c.pairing = x
        }
        switch p {
        case let .ioCapabilityResponse(a, io, oob, auth):
            update(a) { $0.remoteIO = io; $0.remoteAuthentication = auth; if oob != 0 { $0.oobPresent = true } }
        case let .userConfirmationRequest(a, _):
            update(a) { $0.confirmation() }
        case let .userPasskeyRequest(a), let .userPasskeyNotification(a, _):
            update(a) { $0.method = .passkeyEntry }
        case let .pinCodeRequest(a):
            update(a) { $0.method = .legacyPIN }
        case let .simplePairingComplete(s, a):
            // No user interaction was asked for, and OOB data was present: the out-of-band model.
            update(a) { $0.status = s; if $0.method == nil && $0.oobPresent { $0.method = .outOfBand } }
        case let .linkKeyNotification(a, _, t):
            update(a) { $0.keyType = t }
        case let .authenticationComplete(s, h):
            // Only a connection that paired here: re-authentication with a stored key is not pairing.
            if let c = open[h], !c.le, var x = c.pairing {
                x.authentication = s
                c.pairing = x
            }
        default:
            break
        }
    }

    /// Follows the local host's IO Capability Request Reply and Link Key Request Reply.
    func pairingCommand(_ p: ClassicCommandParams, record: Int) {
        switch p {
        case let .ioCapabilityReply(a, io, oob, _):
            guard let c = openBREDR(a) else { return }
            var x = c.pairing ?? ClassicPairing(record: record)
            x.localIO = io
            if oob != 0 { x.oobPresent = true }
            c.pairing = x
        case let .linkKeyReply(a, _):
            guard let c = openBREDR(a) else { return }
            var x = c.pairing ?? ClassicPairing(record: record)
            x.storedKey = true
            c.pairing = x
        default:
            break
        }
    }
}
