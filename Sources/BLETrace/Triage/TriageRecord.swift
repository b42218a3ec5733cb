/// What `bletrace triage` keeps of one capture: one row for the capture and the rows of its facts, as typed
/// values. `TriageAnalysis` makes it from the analysis' typed summary values; `TriageStore`s write it in one
/// transaction and read it back for the report. The tables and columns are in `TriageSchema`.
public struct TriageRecord: Sendable, Equatable {
    public var capture: TriageCapture
    public var diagnoses: [TriageDiagnosis] = []
    public var devices: [TriageDevice] = []
    public var connections: [TriageConnection] = []
    public var deviceInformation: [TriageDeviceInformation] = []
    public var links: [TriageLink] = []
    public var findings: [TriageFinding] = []

    public init(capture: TriageCapture) { self.capture = capture }
}

/// How far a capture's analysis got.
public enum TriageStatus: String, Sendable, CaseIterable {
    /// Read to its end.
    case ok
    /// Read up to damage (a truncated or corrupt record): the facts of the records before it are stored.
    case damaged
    /// Not analysed: it could not be opened, is no capture bletrace reads, or went over `--timeout`.
    case failed
}

/// The `captures` row.
public struct TriageCapture: Sendable, Equatable {
    /// The capture's content hash (hex): see `TriageInputs.captureHash`.
    public var sha256: String
    /// The file as it was found (the path given, or found under a directory given).
    public var path: String
    /// The Bluetooth log inside a bugreport (the zip entry, or the btsnooz section), nil for a plain file.
    public var member: String?
    /// SHA-256 of the file's bytes as stored on disk.
    public var fileSHA256: String
    public var format: String?
    public var linkType: Int?
    /// How the capture was unwrapped (gzip, bugreport zip and entry), outermost first, joined by " / ".
    public var containers: String?
    public var records: Int = 0
    public var firstTime: String?
    public var lastTime: String?
    public var durationMicros: Int?
    public var status: TriageStatus
    public var error: String?
    /// The capturing phone's controller: Read BD_ADDR and Read Local Version Information.
    public var controllerAddress: String?
    public var controllerCompany: Int?
    public var controllerManufacturer: String?
    public var controllerHCIVersion: Int?
    public var controllerSubversion: Int?
    public var devices: Int = 0
    public var connections: Int = 0
    /// Distinct diagnoses, and how many are errors and warnings.
    public var diagnoses: Int = 0
    public var errors: Int = 0
    public var warnings: Int = 0
    public var bletraceVersion: String
    /// UTC, ISO 8601.
    public var analysedAt: String
    public var analysisMillis: Int = 0

    public init(sha256: String, path: String, member: String?, fileSHA256: String, status: TriageStatus,
                bletraceVersion: String, analysedAt: String) {
        self.sha256 = sha256
        self.path = path
        self.member = member
        self.fileSHA256 = fileSHA256
        self.status = status
        self.bletraceVersion = bletraceVersion
        self.analysedAt = analysedAt
    }

    /// How the report names it: the path, and the log inside a bugreport.
    public var displayName: String { member.map { path + " [" + $0 + "]" } ?? path }
}

/// A `diagnoses` row: one grouped diagnosis (as in `analyze`'s `diagnoses` section).
public struct TriageDiagnosis: Sendable, Equatable {
    public var ordinal: Int
    public var id: String
    public var severity: String
    public var count: Int
    /// The peer's address, nil when seen with several peers (`peerCount`).
    public var peer: String?
    public var peerCount: Int
    /// Connection numbers, comma-separated.
    public var connections: String
    public var firstRecord: Int
    public var lastRecord: Int
    public var title: String
}

/// A `devices` row: a device of the inventory (advertisers, peers).
public struct TriageDevice: Sendable, Equatable {
    public var ordinal: Int
    public var address: String
    public var addressType: String
    public var name: String?
    public var transport: String
    public var connectable: Bool
    public var connected: Bool
    public var reports: Int
    public var rssiMax: Int?
}

/// A `connections` row.
public struct TriageConnection: Sendable, Equatable {
    public var number: Int
    public var handle: Int
    public var peer: String?
    public var peerAddressType: String?
    public var role: String?
    /// "le", "br_edr", "cis", "bis".
    public var transport: String
    /// Units as HCI gives them: interval 1.25 ms, timeout 10 ms.
    public var interval: Int?
    public var latency: Int?
    public var timeout: Int?
    public var mtu: Int?
    public var txPHY: String?
    public var rxPHY: String?
    public var encrypted: Bool
    /// "secure_connections" or "legacy" (LE), "classic" for BR/EDR pairing.
    public var pairing: String?
    public var pairingMethod: String?
    /// "ok", "failed", "incomplete".
    public var pairingResult: String?
    public var pairingFailedReason: Int?
    public var openedRecord: Int?
    public var closedRecord: Int?
    public var durationMicros: Int?
    public var disconnectReason: Int?
    public var disconnectReasonName: String?
}

/// A `device_information` row: the Device Information (and Device Name) a GATT server served.
public struct TriageDeviceInformation: Sendable, Equatable {
    public var peer: String
    public var deviceName: String?
    public var manufacturer: String?
    public var model: String?
    public var serial: String?
    public var firmwareRevision: String?
    public var hardwareRevision: String?
    public var softwareRevision: String?
}

/// A `link_stats` row: one connection's ACL traffic.
public struct TriageLink: Sendable, Equatable {
    public var connection: Int
    public var transport: String
    public var spanMicros: Int
    public var txPackets: Int
    public var txBytes: Int
    public var rxPackets: Int
    public var rxBytes: Int
    public var latencyCount: Int
    public var latencyP50Micros: Int?
    public var latencyP95Micros: Int?
    public var latencyMaxMicros: Int?
    public var txPeakBPS: Int
    public var rxPeakBPS: Int
    public var txMeanBPS: Int?
    public var rxMeanBPS: Int?
}

/// A `findings` row: findings grouped as `analyze` groups them (kind, text, peer).
public struct TriageFinding: Sendable, Equatable {
    public var ordinal: Int
    public var kind: String
    public var text: String
    public var peer: String?
    public var count: Int
    public var firstRecord: Int
    public var lastRecord: Int
}
