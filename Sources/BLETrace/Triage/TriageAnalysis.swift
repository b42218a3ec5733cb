import Foundation

/// One capture to triage: a file, or one Bluetooth log inside a bugreport (`log`, as `--log N` picks it).
public struct TriageUnit: Sendable, Equatable {
    public var path: String
    public var log: Int?
    public var member: String?
    /// The capture's content hash and its file's (`TriageInputs.captureHash`).
    public var sha256: String
    public var fileSHA256: String
    /// Why the file could not be opened or listed; the unit is then stored as failed.
    public var openError: String?

    public init(path: String, log: Int? = nil, member: String? = nil, sha256: String, fileSHA256: String, openError: String? = nil) {
        self.path = path
        self.log = log
        self.member = member
        self.sha256 = sha256
        self.fileSHA256 = fileSHA256
        self.openError = openError
    }
}

/// Analyses one capture through the library's standard layers (one pass, no event sink) and takes its facts
/// from the typed summary values: the connection table, the diagnoses, the device inventory, the SMP pairings,
/// the identity cards, the link statistics and the findings.
public enum TriageAnalysis {
    public struct Options: Sendable {
        /// Replace addresses and names as `analyze --redact` does (one redactor per capture).
        public var redact = false
        /// Seconds one capture may take; nil: no limit.
        public var timeout: Double?
        public var version = BLETraceVersion.string
        public init() {}
    }

    public static func analyse(_ unit: TriageUnit, options: Options) -> TriageRecord {
        let started = DispatchTime.now().uptimeNanoseconds
        var c = TriageCapture(sha256: unit.sha256, path: unit.path, member: unit.member, fileSHA256: unit.fileSHA256,
                              status: .failed, bletraceVersion: options.version, analysedAt: Timestamp.now.iso8601)
        func finish(_ r: TriageRecord) -> TriageRecord {
            var r = r
            r.capture.analysisMillis = Int((DispatchTime.now().uptimeNanoseconds &- started) / 1_000_000)
            return r
        }
        if let e = unit.openError {
            c.error = e
            return finish(TriageRecord(capture: c))
        }
        let opened: OpenedCapture
        do {
            opened = try InputOpener.open(path: unit.path, log: unit.log)
        } catch let e as CaptureError {
            c.error = e.description
            if e.isTruncation { c.status = .damaged } // cut short before any record: damaged, not unreadable
            return finish(TriageRecord(capture: c))
        } catch {
            c.error = "\(error)"
            return finish(TriageRecord(capture: c))
        }
        c.format = opened.reader.format.rawValue
        c.linkType = opened.reader.linkType
        c.containers = opened.containers.isEmpty ? nil : opened.containers.joined(separator: " / ")

        let reader = DeadlineReader(opened.reader, seconds: options.timeout)
        let analyzer = Analyzer(options: DecodeOptions(), sink: nil)
        let controller = ControllerFacts()
        let redactor = options.redact ? Redactor() : nil
        analyzer.chain.taps = [controller] + (redactor.map { [$0] } ?? [])
        let summary = analyzer.run(reader, path: unit.path, containers: opened.containers)
        c.records = summary.stats.records
        c.firstTime = summary.stats.first?.iso8601
        c.lastTime = summary.stats.last?.iso8601
        if let a = summary.stats.first, let b = summary.stats.last { c.durationMicros = Int(b.micros - a.micros) }
        if reader.timedOut, let t = options.timeout {
            c.error = "timeout after \(TriageAnalysis.seconds(t)) s (at record \(summary.stats.records))"
            return finish(TriageRecord(capture: c))
        }
        c.status = summary.error == nil ? .ok : .damaged
        c.error = summary.error?.description
        redactor?.learn(summary: summary)
        var record = TriageRecord(capture: c)
        facts(summary, analyzer.layers, controller, into: &record)
        if let r = redactor { redact(&record, r) }
        return finish(record)
    }

    static func seconds(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e15 ? String(Int(t)) : String(t)
    }

    static func layer<T>(_ layers: [AnalysisLayer], _ type: T.Type) -> T? { layers.lazy.compactMap { $0 as? T }.first }

    /// The facts, from typed values only.
    static func facts(_ s: Summary, _ layers: [AnalysisLayer], _ controller: ControllerFacts, into r: inout TriageRecord) {
        r.capture.controllerAddress = controller.address?.description
        if let v = controller.version {
            r.capture.controllerCompany = Int(v.company)
            r.capture.controllerManufacturer = AssignedNumbers.companyName(v.company)
            r.capture.controllerHCIVersion = Int(v.hci)
            r.capture.controllerSubversion = Int(v.subversion)
        }
        r.capture.connections = s.connectionCount
        r.capture.diagnoses = s.diagnoses.count
        r.capture.errors = s.diagnoses.filter { $0.severity == .error }.count
        r.capture.warnings = s.diagnoses.filter { $0.severity == .warning }.count

        for (i, d) in s.diagnoses.enumerated() {
            r.diagnoses.append(TriageDiagnosis(
                ordinal: i + 1, id: d.id.rawValue, severity: d.severity.name, count: d.count, peer: d.peer?.description,
                peerCount: d.peerCount, connections: d.connections.map(String.init).joined(separator: ","),
                firstRecord: d.firstRecord, lastRecord: d.lastRecord, title: DiagnosisText.title(d)))
        }

        if let inventory = layer(layers, DeviceInventory.self) {
            let all = inventory.devices
            r.capture.devices = all.count
            for (i, d) in all.prefix(TriageAnalysis.maxDevices).enumerated() {
                r.devices.append(TriageDevice(
                    ordinal: i + 1, address: d.address.description, addressType: d.addressType.name, name: d.names.first,
                    transport: d.bredr ? "br_edr" : "le", connectable: d.connectable, connected: d.connected,
                    reports: d.reports, rssiMax: d.rssiMax))
            }
        }

        let stats = layer(layers, LinkStatistics.self)
        var pairings: [Int: PairingAttempt] = [:]
        for a in layer(layers, SMPLayer.self)?.attempts ?? [] { pairings[a.connection] = a }   // the last attempt counts
        for conn in s.connections {
            var x = TriageConnection(number: conn.id, handle: Int(conn.handle), peer: conn.peer?.description,
                                     peerAddressType: conn.peerType?.name, role: conn.role.map(HCIText.role),
                                     transport: !conn.transportKnown ? "unknown" : conn.iso != nil ? "iso" : conn.le ? "le" : "br_edr",
                                     interval: conn.interval, latency: conn.latency, timeout: conn.timeout, encrypted: conn.encrypted)
            if let l = stats?.link(conn.id), let m = stats?.limits(l) {
                x.mtu = m.attMTU
                if conn.le && conn.iso == nil {
                    x.txPHY = LinkLimits.phyName(m.txPHY)
                    x.rxPHY = LinkLimits.phyName(m.rxPHY)
                }
            }
            if let a = pairings[conn.id] {
                x.pairing = a.secureConnections.map { $0 ? "secure_connections" : "legacy" }
                x.pairingMethod = a.method?.rawValue
                x.pairingResult = a.failedReason != nil ? "failed" : a.encryptionRecord != nil || !a.keys.isEmpty ? "ok" : "incomplete"
                x.pairingFailedReason = a.failedReason.map(Int.init)
            } else if let p = conn.pairing {
                x.pairing = "classic"
                x.pairingMethod = p.method.map(TriageAnalysis.classicMethod)
                x.pairingResult = p.succeeded.map { $0 ? "ok" : "failed" } ?? "incomplete"
                if p.succeeded == false { x.pairingFailedReason = (p.status ?? p.authentication).map(Int.init) }
            }
            x.openedRecord = conn.openedRecord
            x.closedRecord = conn.closedRecord
            if let a = conn.openedAt, let b = conn.closedAt { x.durationMicros = Int(b.micros - a.micros) }
            if let d = conn.disconnectReason {
                x.disconnectReason = Int(d)
                x.disconnectReasonName = HCIText.status(d)
            }
            r.connections.append(x)
        }

        if let identity = layer(layers, IdentityLayer.self) {
            for card in identity.allCards {
                r.deviceInformation.append(TriageDeviceInformation(
                    peer: card.device, deviceName: card.string("device_name"), manufacturer: card.string("manufacturer_name"),
                    model: card.string("model_number"), serial: card.string("serial_number"),
                    firmwareRevision: card.string("firmware_revision"), hardwareRevision: card.string("hardware_revision"),
                    softwareRevision: card.string("software_revision")))
            }
        }

        if let st = stats {
            for l in st.orderedLinks {
                let span = LinkStatistics.span(l)
                r.links.append(TriageLink(
                    connection: l.connection, transport: l.le ? "le" : "br_edr", spanMicros: Int(LinkStatistics.activeSpan(l)),
                    txPackets: l.tx.aclPackets, txBytes: l.tx.aclBytes, rxPackets: l.rx.aclPackets, rxBytes: l.rx.aclBytes,
                    latencyCount: l.latency.count, latencyP50Micros: l.latency.percentile(50).map { Int($0) },
                    latencyP95Micros: l.latency.percentile(95).map { Int($0) },
                    latencyMaxMicros: l.latency.count > 0 ? Int(l.latency.max) : nil,
                    txPeakBPS: l.tx.throughput.peakBitsPerSecond, rxPeakBPS: l.rx.throughput.peakBitsPerSecond,
                    txMeanBPS: l.tx.throughput.meanBitsPerSecond(over: span), rxMeanBPS: l.rx.throughput.meanBitsPerSecond(over: span)))
            }
        }

        if let findings = layer(layers, Findings.self) {
            let groups = Findings.groups(findings.list, peer: findings.peerName)
            for (i, g) in groups.enumerated() {
                r.findings.append(TriageFinding(ordinal: i + 1, kind: g.kind.rawValue, text: g.text, peer: g.peer, count: g.count,
                                                firstRecord: g.firstRecord, lastRecord: g.lastRecord))
            }
        }
    }

    /// Devices kept per capture (the inventory of a busy scan can hold thousands).
    static let maxDevices = 1000

    static func classicMethod(_ m: ClassicPairing.Method) -> String {
        switch m {
        case .justWorks: return "Just Works"
        case .numericComparison: return "Numeric Comparison"
        case .passkeyEntry: return "Passkey Entry"
        case .outOfBand: return "Out of Band"
        case .legacyPIN: return "Legacy PIN"
        }
    }

    /// Every string that may identify a person or device passes the capture's redactor, as in `analyze --redact`.
    static func redact(_ r: inout TriageRecord, _ x: Redactor) {
        func opt(_ s: String?) -> String? { s.map { x.redact($0) } }
        r.capture.controllerAddress = opt(r.capture.controllerAddress)
        r.capture.error = opt(r.capture.error)
        for i in r.diagnoses.indices {
            r.diagnoses[i].peer = opt(r.diagnoses[i].peer)
            r.diagnoses[i].title = x.redact(r.diagnoses[i].title)
        }
        for i in r.devices.indices {
            r.devices[i].address = x.redact(r.devices[i].address)
            r.devices[i].name = opt(r.devices[i].name)
        }
        for i in r.connections.indices { r.connections[i].peer = opt(r.connections[i].peer) }
        for i in r.deviceInformation.indices {
            var d = r.deviceInformation[i]
            d.peer = x.redact(d.peer)
            d.deviceName = opt(d.deviceName)
            d.serial = opt(d.serial)
            d.manufacturer = opt(d.manufacturer)
            d.model = opt(d.model)
            d.firmwareRevision = opt(d.firmwareRevision)
            d.hardwareRevision = opt(d.hardwareRevision)
            d.softwareRevision = opt(d.softwareRevision)
            r.deviceInformation[i] = d
        }
        for i in r.findings.indices {
            r.findings[i].text = x.redact(r.findings[i].text)
            r.findings[i].peer = opt(r.findings[i].peer)
        }
    }
}

/// The capturing controller's facts: Read BD_ADDR and Read Local Version Information.
final class ControllerFacts: EventTap {
    var address: BDAddr?
    var version: (hci: UInt8, lmp: UInt8, company: UInt16, subversion: UInt16)?

    func event(_ e: TraceEvent) {}

    func hciEvent(_ body: HCIEventBody) {
        guard case let .commandComplete(c) = body.params, c.status == 0 else { return }
        switch c.decoded {
        case let .address(a): if address == nil { address = a }
        case let .localVersion(hci, lmp, company, sub): if version == nil { version = (hci, lmp, company, sub) }
        default: break
        }
    }
}

/// A reader that stops with an error once its capture has taken longer than allowed (`--timeout`): checked every
/// 1024 records, so a capture is cut within a few milliseconds of its deadline.
final class DeadlineReader: RecordReader {
    struct Expired: Error {}
    let inner: RecordReader
    let deadline: UInt64?
    var n = 0
    private(set) var timedOut = false

    init(_ inner: RecordReader, seconds: Double?) {
        self.inner = inner
        if let s = seconds, s.isFinite, s > 0 {
            deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(min(s, 1e9) * 1e9)
        } else {
            deadline = nil
        }
    }

    var format: CaptureFormat { inner.format }
    var linkType: Int { inner.linkType }
    var position: Int { inner.position }

    func next() throws -> Record? {
        if let d = deadline {
            n &+= 1
            if n & 0x3FF == 0 || n == 1, DispatchTime.now().uptimeNanoseconds > d {
                timedOut = true
                throw Expired()
            }
        }
        return try inner.next()
    }
}

extension Timestamp {
    /// The wall clock now.
    static var now: Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(micros: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }
}
