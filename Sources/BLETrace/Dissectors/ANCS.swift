/// Apple Notification Center Service (ANCS): the iPhone is the GATT server; a watch or other accessory
/// subscribes to Notification Source, writes commands to the Control Point and reads answers from Data Source.
/// The byte parsing here is pure; the request a Data Source response answers, and the bytes of a response
/// split over several notifications, are kept in `ANCSSession` (one per connection).
public enum ANCS {
    public static let service = BLEUUID(string: "7905F431-B5CE-4E99-A40F-4B1E122D00D0")!
    public static let notificationSource = BLEUUID(string: "9FBF120D-6301-42D9-8C58-25E699A21DBD")!
    public static let controlPoint = BLEUUID(string: "69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")!
    public static let dataSource = BLEUUID(string: "22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")!

    public static func eventName(_ id: UInt8) -> String {
        switch id {
        case 0: return "added"
        case 1: return "modified"
        case 2: return "removed"
        default: return "reserved (\(id))"
        }
    }

    static let categories = ["Other", "Incoming Call", "Missed Call", "Voicemail", "Social", "Schedule", "Email", "News",
                             "Health and Fitness", "Business and Finance", "Location", "Entertainment"]

    public static func categoryName(_ id: UInt8) -> String {
        Int(id) < categories.count ? categories[Int(id)] : "reserved (\(id))"
    }

    static let flagNames = ["silent", "important", "pre-existing", "positive action", "negative action"]

    public static func flagList(_ flags: UInt8) -> [String] { DissectorText.bits(Int(flags), flagNames) }

    public static func commandName(_ id: UInt8) -> String {
        switch id {
        case 0: return "Get Notification Attributes"
        case 1: return "Get App Attributes"
        case 2: return "Perform Notification Action"
        default: return "reserved command \(id)"
        }
    }

    static let notificationAttributes = ["App Identifier", "Title", "Subtitle", "Message", "Message Size", "Date",
                                         "Positive Action Label", "Negative Action Label"]
    static let notificationAttributeKeys = ["app_identifier", "title", "subtitle", "message", "message_size", "date",
                                            "positive_action_label", "negative_action_label"]

    /// Name of a notification attribute (command 0) or app attribute (command 1).
    public static func attributeName(_ id: UInt8, command: UInt8) -> String {
        if command == 1 { return id == 0 ? "Display Name" : "reserved app attribute \(id)" }
        return Int(id) < notificationAttributes.count ? notificationAttributes[Int(id)] : "reserved attribute \(id)"
    }

    /// The JSON key of an attribute.
    public static func attributeKey(_ id: UInt8, command: UInt8) -> String {
        if command == 1 { return id == 0 ? "display_name" : "attribute_\(id)" }
        return Int(id) < notificationAttributeKeys.count ? notificationAttributeKeys[Int(id)] : "attribute_\(id)"
    }

    /// Title, Subtitle and Message are requested with a maximum length.
    public static func takesMaxLength(_ id: UInt8, command: UInt8) -> Bool { command == 0 && (1...3).contains(id) }

    public static func actionName(_ id: UInt8) -> String {
        switch id {
        case 0: return "positive"
        case 1: return "negative"
        default: return "reserved (\(id))"
        }
    }

    /// ANCS application errors, returned in ATT Error Responses to Control Point writes.
    public static func errorName(_ code: UInt8) -> String? {
        switch code {
        case 0xA0: return "Unknown command"
        case 0xA1: return "Invalid command"
        case 0xA2: return "Invalid parameter"
        case 0xA3: return "Action failed"
        default: return nil
        }
    }

    // MARK: Notification Source

    public struct Notification: Sendable, Equatable {
        public var eventID: UInt8
        public var flags: UInt8
        public var categoryID: UInt8
        public var categoryCount: UInt8
        public var uid: UInt32

        public static func parse(_ v: ArraySlice<UInt8>) throws -> Notification {
            var c = ByteCursor(v)
            let n = Notification(eventID: try c.u8(), flags: try c.u8(), categoryID: try c.u8(), categoryCount: try c.u8(),
                                 uid: try c.u32le())
            if !c.isAtEnd { throw c.invalid("\(c.remaining) bytes after the 8-byte notification") }
            return n
        }

        public var fields: Fields {
            var f = Fields()
            f.add("characteristic", "notification_source")
            f.add("event_id", Int(eventID))
            f.add("event", ANCS.eventName(eventID))
            f.add("flags", Int(flags))
            f.add("flag_names", DissectorText.list(ANCS.flagList(flags)))
            f.add("category_id", Int(categoryID))
            f.add("category", ANCS.categoryName(categoryID))
            f.add("category_count", Int(categoryCount))
            f.add("uid", Int(uid))
            return f
        }

        public var text: String {
            let fl = ANCS.flagList(flags)
            return "\(ANCS.eventName(eventID)) UID \(uid): \(ANCS.categoryName(categoryID))" + (fl.isEmpty ? "" : " [" + fl.joined(separator: ", ") + "]")
                + ", \(categoryCount) in category"
        }
    }

    // MARK: Control Point

    /// One requested attribute, with its maximum length where the attribute takes one.
    public struct RequestedAttribute: Sendable, Equatable {
        public var id: UInt8
        public var maxLength: UInt16?
    }

    public enum Command: Sendable, Equatable {
        case getNotificationAttributes(uid: UInt32, attributes: [RequestedAttribute])
        case getAppAttributes(appIdentifier: String, attributes: [RequestedAttribute])
        case performNotificationAction(uid: UInt32, action: UInt8)

        public var id: UInt8 {
            switch self {
            case .getNotificationAttributes: return 0
            case .getAppAttributes: return 1
            case .performNotificationAction: return 2
            }
        }

        public static func parse(_ v: ArraySlice<UInt8>) throws -> Command {
            var c = ByteCursor(v)
            let cmd = try c.u8()
            switch cmd {
            case 0:
                let uid = try c.u32le()
                let attrs = try requested(&c, command: 0)
                return .getNotificationAttributes(uid: uid, attributes: attrs)
            case 1:
                let app = try nulTerminated(&c)
                let attrs = try requested(&c, command: 1)
                return .getAppAttributes(appIdentifier: app, attributes: attrs)
            case 2:
                let uid = try c.u32le()
                let action = try c.u8()
                if !c.isAtEnd { throw c.invalid("\(c.remaining) bytes after the action") }
                return .performNotificationAction(uid: uid, action: action)
            default:
                throw ByteError.invalid(offset: 0, reason: "unknown command ID \(cmd)")
            }
        }

        static func requested(_ c: inout ByteCursor, command: UInt8) throws -> [RequestedAttribute] {
            var out: [RequestedAttribute] = []
            while !c.isAtEnd {
                let id = try c.u8()
                out.append(RequestedAttribute(id: id, maxLength: ANCS.takesMaxLength(id, command: command) ? try c.u16le() : nil))
            }
            if out.isEmpty { throw c.invalid("no attributes requested") }
            return out
        }

        public var fields: Fields {
            var f = Fields()
            f.add("characteristic", "control_point")
            f.add("command_id", Int(id))
            f.add("command", ANCS.commandName(id))
            switch self {
            case let .getNotificationAttributes(uid, attrs):
                f.add("uid", Int(uid))
                f.add("attributes", ANCS.requestedFields(attrs, command: 0))
            case let .getAppAttributes(app, attrs):
                f.add("app_identifier", app)
                f.add("attributes", ANCS.requestedFields(attrs, command: 1))
            case let .performNotificationAction(uid, action):
                f.add("uid", Int(uid))
                f.add("action_id", Int(action))
                f.add("action", ANCS.actionName(action))
            }
            return f
        }

        public var text: String {
            func list(_ a: [RequestedAttribute], _ cmd: UInt8) -> String {
                a.map { ANCS.attributeName($0.id, command: cmd) + ($0.maxLength.map { " (max \($0))" } ?? "") }.joined(separator: ", ")
            }
            switch self {
            case let .getNotificationAttributes(uid, attrs): return "Get Notification Attributes UID \(uid): " + list(attrs, 0)
            case let .getAppAttributes(app, attrs): return "Get App Attributes \(app): " + list(attrs, 1)
            case let .performNotificationAction(uid, action): return "Perform \(ANCS.actionName(action)) action on UID \(uid)"
            }
        }
    }

    static func requestedFields(_ attrs: [RequestedAttribute], command: UInt8) -> FieldValue {
        .list(attrs.map { a in
            var f = Fields()
            f.add("id", Int(a.id))
            f.add("name", ANCS.attributeName(a.id, command: command))
            if let m = a.maxLength { f.add("max_length", Int(m)) }
            return .object(f)
        })
    }

    static func nulTerminated(_ c: inout ByteCursor) throws -> String {
        var bytes: [UInt8] = []
        while true {
            let b = try c.u8()
            if b == 0 { break }
            bytes.append(b)
        }
        guard let s = DissectorText.utf8(bytes[...]) else { throw c.invalid("app identifier is not valid UTF-8") }
        return s
    }

    // MARK: Data Source

    /// One attribute in a Data Source response.
    public struct Attribute: Sendable, Equatable {
        public var id: UInt8
        public var value: String
        /// True when the bytes were not valid UTF-8 (the value then holds replacement characters).
        public var invalidUTF8: Bool = false
    }

    /// A Data Source response: notification attributes for a UID, or app attributes for an app identifier.
    public struct Response: Sendable, Equatable {
        public var commandID: UInt8
        public var uid: UInt32?
        public var appIdentifier: String?
        public var attributes: [Attribute]

        public var fields: Fields {
            var f = Fields()
            f.add("characteristic", "data_source")
            f.add("command_id", Int(commandID))
            f.add("command", ANCS.commandName(commandID))
            if let u = uid { f.add("uid", Int(u)) }
            if let a = appIdentifier { f.add("app_identifier", a) }
            var attrs = Fields()
            for a in attributes { attrs.add(ANCS.attributeKey(a.id, command: commandID), a.value) }
            f.add("attributes", attrs)
            return f
        }

        public var text: String {
            let head = commandID == 1 ? "App Attributes \(appIdentifier ?? "?")" : "Notification Attributes UID \(uid ?? 0)"
            return head + ": " + attributes.map { "\(ANCS.attributeName($0.id, command: commandID)) \"\($0.value)\"" }.joined(separator: ", ")
        }
    }

    /// The outcome of parsing Data Source bytes gathered so far.
    public enum ResponseParse: Sendable, Equatable {
        case complete(Response, consumed: Int)
        /// More notifications must follow.
        case incomplete
        case invalid(String)
    }

    /// Parses a Data Source response from `bytes` (possibly gathered from several notifications). With the
    /// request it answers, the response is complete once every requested attribute has arrived; without one,
    /// the attributes run to the end of the bytes.
    public static func parseResponse(_ bytes: ArraySlice<UInt8>, request: Command?) -> ResponseParse {
        var c = ByteCursor(bytes)
        do {
            guard let cmd = try? c.u8() else { return .incomplete }
            var r = Response(commandID: cmd, uid: nil, appIdentifier: nil, attributes: [])
            var wanted: [RequestedAttribute]? = nil
            switch cmd {
            case 0:
                guard c.remaining >= 4 else { return .incomplete }
                let uid = try c.u32le()
                r.uid = uid
                if case let .getNotificationAttributes(ruid, attrs)? = request {
                    if ruid != uid { return .invalid("answers UID \(uid), but the request asked for UID \(ruid)") }
                    wanted = attrs
                }
            case 1:
                guard c.bytes[c.index...].contains(0) else { return .incomplete }
                let app = try nulTerminated(&c)
                r.appIdentifier = app
                if case let .getAppAttributes(rapp, attrs)? = request {
                    if rapp != app { return .invalid("answers app \(app), but the request asked for \(rapp)") }
                    wanted = attrs
                }
            default:
                return .invalid("unknown command ID \(cmd) in a Data Source response")
            }
            if let req = request, req.id != cmd {
                return .invalid("a \(commandName(cmd)) response, but the request was \(commandName(req.id))")
            }
            while wanted.map({ r.attributes.count < $0.count }) ?? !c.isAtEnd {
                guard c.remaining >= 3 else {
                    if wanted == nil { return .invalid("attribute header cut short: \(c.remaining) byte\(c.remaining == 1 ? "" : "s") left") }
                    return .incomplete
                }
                let id = try c.u8()
                let n = Int(try c.u16le())
                guard c.remaining >= n else {
                    if wanted == nil { return .invalid("\(attributeName(id, command: cmd)) claims \(n) bytes, \(c.remaining) left") }
                    return .incomplete
                }
                let v = try c.bytes(n)
                if let w = wanted {
                    guard let req = w.first(where: { $0.id == id }) else {
                        return .invalid("\(attributeName(id, command: cmd)) was not requested")
                    }
                    if let m = req.maxLength, n > Int(m) {
                        return .invalid("\(attributeName(id, command: cmd)) is \(n) bytes, longer than the \(m) requested")
                    }
                }
                if let s = DissectorText.utf8(v) {
                    r.attributes.append(Attribute(id: id, value: s))
                } else {
                    r.attributes.append(Attribute(id: id, value: String(decoding: v, as: UTF8.self), invalidUTF8: true))
                }
            }
            return .complete(r, consumed: c.offset)
        } catch {
            return .invalid("\(error)")
        }
    }
}

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
    public var request: ANCS.Command?
    public var buffer: [UInt8] = []
    public var parts = 0
    /// The last command written to the Control Point (for naming an error response).
    public var lastCommand: ANCS.Command?
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
                return wrap(n.fields, text: n.text, payload: .notification(n))
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
                return wrap(cmd.fields, text: cmd.text, payload: .command(cmd))
            } catch {
                session.lastCommand = nil
                return .invalid(name, "control point command: \(error)")
            }
        default:
            return dataSource(v, ctx.state.get(ANCSSession.self) { ANCSSession() })
        }
    }

    func wrap(_ f: Fields, text: String, payload: ANCSEvent?, problem: String? = nil) -> Dissection {
        var out = Fields()
        out.add("ancs", f)
        return Dissection(name, fields: out, text: text, problem: problem, payload: payload)
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
            var f = r.fields
            if part > 1 {
                f.add("reassembled", true)
                f.add("parts", part)
                f.add("length", consumed)
            }
            let bad = r.attributes.first(where: { $0.invalidUTF8 })
            let problem = extra > 0 ? "\(extra) bytes after the response" : bad.map { "\(ANCS.attributeName($0.id, command: r.commandID)) is not valid UTF-8" }
            return wrap(f, text: r.text + (part > 1 ? " (reassembled from \(part) notifications)" : ""), payload: .response(r), problem: problem)
        case .incomplete:
            if s.buffer.isEmpty { s.buffer.append(contentsOf: v) }
            var f = Fields()
            f.add("characteristic", "data_source")
            f.add("fragment", part)
            f.add("have", s.buffer.count)
            var what = "response"
            if case let .getNotificationAttributes(uid, _)? = s.request { what = "Notification Attributes UID \(uid)" }
            if case let .getAppAttributes(app, _)? = s.request { what = "App Attributes \(app)" }
            return wrap(f, text: "\(what): part \(part), \(s.buffer.count) bytes so far", payload: nil)
        case let .invalid(reason):
            s.buffer.removeAll(keepingCapacity: true)
            s.parts = 0
            s.request = nil
            var f = Fields()
            f.add("characteristic", "data_source")
            return wrap(f, text: "Data Source", payload: nil, problem: reason)
        }
    }

    public func dissectError(_ code: UInt8, _ ctx: ValueContext) -> Dissection? {
        guard ctx.uuid == ANCS.controlPoint, let n = ANCS.errorName(code) else { return nil }
        // The request failed: no Data Source response will follow.
        let s = ctx.state.get(ANCSSession.self) { ANCSSession() }
        let failed = s.lastCommand
        s.request = nil
        s.buffer.removeAll()
        s.parts = 0
        var f = Fields()
        f.add("characteristic", "control_point")
        f.add("error", Int(code))
        f.add("error_name", n)
        if let c = failed { f.add("command", ANCS.commandName(c.id)) }
        return wrap(f, text: "ANCS error \(Hex.hex(code, width: 2)) \(n)" + (failed.map { " (\($0.text))" } ?? ""), payload: .error(code: code, command: failed))
    }
}
