/// The ANCS dissector: which characteristic a value belongs to, the per-connection session that pairs a Data
/// Source response with its request and gathers one split over notifications, and the typed value it returns.
/// What the ANCS dissector reports to the joined view.
public enum ANCSEvent: Sendable, Equatable {
    case notification(ANCS.Notification)
    case command(ANCS.Command)
    case response(ANCS.Response)
    case error(code: UInt8, command: ANCS.Command?)
}

/// Per-connection ANCS state: the last Get … Attributes request written to the Control Point, and the bytes of
/// a Data Source response not yet complete.
public final class ANCSSession {
    @exclusivity(unchecked) public var request: ANCS.Command?
    @exclusivity(unchecked) public var buffer: [UInt8] = []
    @exclusivity(unchecked) public var parts = 0
    /// The last command written to the Control Point (for naming an error response).
    @exclusivity(unchecked) public var lastCommand: ANCS.Command?
    /// Bound on a response gathered from notifications (the longest attribute is 65,535 bytes; eight of them).
    static let maxBuffer = 1 << 20
    public init() {}
}

/// The ANCS characteristics.
public struct ANCSDissector: ValueDissector {
    public let name = "ancs"
    public let uuids: [BLEUUID] = [ANCS.notificationSource, ANCS.controlPoint, ANCS.dataSource]
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid {
        case ANCS.notificationSource:
            do {
                let n = try ANCS.Notification.parse(v)
                return Dissection(name, value: ANCSValue.notification(n))
            } catch {
                return .invalid(name, "notification: \(error)")
            }
        case ANCS.controlPoint:
            let session = ctx.state.get(ANCSSession.self) { ANCSSession() }
            do {
                let cmd = try ANCS.Command.parse(v)
                session.lastCommand = cmd
                if cmd.id != 2 {
                    session.request = cmd
                    session.buffer.removeAll(keepingCapacity: true)
                    session.parts = 0
                }
                return Dissection(name, value: ANCSValue.command(cmd))
            } catch {
                session.lastCommand = nil
                return .invalid(name, "control point command: \(error)")
            }
        default:
            return dataSource(v, ctx.state.get(ANCSSession.self) { ANCSSession() })
        }
    }

    func dataSource(_ v: ArraySlice<UInt8>, _ s: ANCSSession) -> Dissection {
        // A response in one notification needs no copy.
        let gathered: ArraySlice<UInt8>
        if s.buffer.isEmpty {
            gathered = v
        } else {
            if s.buffer.count + v.count > ANCSSession.maxBuffer { s.buffer.removeAll() }
            s.buffer.append(contentsOf: v)
            gathered = s.buffer[...]
        }
        s.parts += 1
        let part = s.parts
        switch ANCS.parseResponse(gathered, request: s.request) {
        case let .complete(r, consumed):
            let extra = gathered.count - consumed
            s.buffer.removeAll(keepingCapacity: true)
            s.parts = 0
            s.request = nil
            let bad = r.attributes.first(where: { $0.invalidUTF8 })
            let problem = extra > 0 ? "\(extra) bytes after the response" : bad.map { "\(ANCS.attributeName($0.id, command: r.commandID)) is not valid UTF-8" }
            return Dissection(name, value: ANCSValue.response(r, parts: part, length: consumed), problem: problem)
        case .incomplete:
            if s.buffer.isEmpty { s.buffer.append(contentsOf: v) }
            return Dissection(name, value: ANCSValue.fragment(part: part, have: s.buffer.count, request: s.request))
        case let .invalid(reason):
            s.buffer.removeAll(keepingCapacity: true)
            s.parts = 0
            s.request = nil
            return Dissection(name, value: ANCSValue.invalidDataSource, problem: reason)
        }
    }

    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? {
        guard ctx.uuid == ANCS.controlPoint, ANCS.errorName(code) != nil else { return nil }
        // The request failed: no Data Source response will follow.
        let s = ctx.state.get(ANCSSession.self) { ANCSSession() }
        let failed = s.lastCommand
        s.request = nil
        s.buffer.removeAll()
        s.parts = 0
        return Dissection(name, value: ANCSValue.error(code: code, command: failed))
    }
}

/// What the ANCS dissector made of one value: a notification, a command, a whole response, a part of one still
/// being gathered, or an ANCS error answering a command. Names and text are made when rendered.
public enum ANCSValue: DecodedValue, Equatable {
    case notification(ANCS.Notification)
    case command(ANCS.Command)
    /// A complete Data Source response, gathered from `parts` notifications (`length` bytes).
    case response(ANCS.Response, parts: Int, length: Int)
    /// Part `part` of a Data Source response: `have` bytes so far, answering `request` where it was seen.
    case fragment(part: Int, have: Int, request: ANCS.Command?)
    /// Data Source bytes that do not make a response (the problem says why).
    case invalidDataSource
    /// An ANCS application error answering a Control Point write (the command, where it was seen).
    case error(code: UInt8, command: ANCS.Command?)

    public func writeFields<S: FieldSink>(into s: inout S) {
        s.object("ancs") { o in
            switch self {
            case let .notification(n): n.writeFields(into: &o)
            case let .command(c): c.writeFields(into: &o)
            case let .response(r, parts, length):
                r.writeFields(into: &o)
                if parts > 1 {
                    o.field("reassembled", true)
                    o.field("parts", parts)
                    o.field("length", length)
                }
            case let .fragment(part, have, _):
                o.field("characteristic", "data_source")
                o.field("fragment", part)
                o.field("have", have)
            case .invalidDataSource:
                o.field("characteristic", "data_source")
            case let .error(code, command):
                o.field("characteristic", "control_point")
                o.field("error", code)
                o.field("error_name", ANCS.errorName(code) ?? "reserved")
                if let c = command { o.field("command", ANCS.commandName(c.id)) }
            }
        }
    }

    public var text: String { TextBytes.string { writeText(into: &$0) } }

    public var serviceErrorName: String? {
        guard case let .error(code, _) = self else { return nil }
        return "ANCS " + (ANCS.errorName(code) ?? "reserved")
    }

    public func writeText(into b: inout TextBytes) {
        switch self {
        case let .notification(n): n.writeText(into: &b)
        case let .command(c): c.writeText(into: &b)
        case let .response(r, parts, _):
            r.writeText(into: &b)
            if parts > 1 {
                b.append(string: " (reassembled from ")
                b.append(decimal: parts)
                b.append(string: " notifications)")
            }
        case let .fragment(part, have, request):
            switch request {
            case let .getNotificationAttributes(uid, _)?:
                b.append(string: "Notification Attributes UID ")
                b.append(decimal: Int(uid))
            case let .getAppAttributes(app, _)?:
                b.append(string: "App Attributes ")
                b.append(string: app)
            default:
                b.append(string: "response")
            }
            b.append(string: ": part ")
            b.append(decimal: part)
            b.append(string: ", ")
            b.append(decimal: have)
            b.append(string: " bytes so far")
        case .invalidDataSource: b.append(string: "Data Source")
        case let .error(code, command):
            b.append(string: "ANCS error ")
            b.append(hex: UInt64(code), width: 2)
            b.append(UInt8(ascii: " "))
            b.append(string: ANCS.errorName(code) ?? "reserved")
            if let c = command {
                b.append(string: " (")
                c.writeText(into: &b)
                b.append(UInt8(ascii: ")"))
            }
        }
    }

    /// What the joined ANCS view receives; nothing for a part of a response or bytes that make none.
    public var event: ANCSEvent? {
        switch self {
        case let .notification(n): return .notification(n)
        case let .command(c): return .command(c)
        case let .response(r, _, _): return .response(r)
        case let .error(code, command): return .error(code: code, command: command)
        case .fragment, .invalidDataSource: return nil
        }
    }

    public var summaryFact: SummaryFact? { event.map { .ancs($0) } }
    /// A response with bytes left over or an attribute that is not UTF-8 still counts in the view.
    public var factDespiteProblem: Bool { true }
}
