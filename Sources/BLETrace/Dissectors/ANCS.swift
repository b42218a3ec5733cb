/// Apple Notification Center Service (ANCS): the iPhone is the GATT server; a watch or other accessory
/// subscribes to Notification Source, writes commands to the Control Point and reads answers from Data Source.
/// The byte parsing here is pure; the request a Data Source response answers, and the bytes of a response
/// split over several notifications, are kept in `ANCSSession` (one per connection).
public enum ANCS {
    // The UUIDs as their two halves (7905F431-B5CE-4E99-A40F-4B1E122D00D0, …), constants the compiler lays out:
    // parsed from their text they were made on first use, and every read went through a check that they were.
    public static let service = BLEUUID(high: 0x7905_F431_B5CE_4E99, low: 0xA40F_4B1E_122D_00D0)
    public static let notificationSource = BLEUUID(high: 0x9FBF_120D_6301_42D9, low: 0x8C58_25E6_99A2_1DBD)
    public static let controlPoint = BLEUUID(high: 0x69D1_D8F3_45E1_49A8, low: 0x9821_9BBD_FDAA_D9D9)
    public static let dataSource = BLEUUID(high: 0x22EA_C6E9_24D6_4BB5, low: 0xBE44_B36A_CE7C_7BFB)

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

    /// Names joined by ", ".
    static func write(_ names: [String], into b: inout TextBytes) {
        for (i, n) in names.enumerated() {
            if i > 0 { b.append(string: ", ") }
            b.append(string: n)
        }
    }

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

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("characteristic", "notification_source")
            s.field("event_id", eventID)
            s.field("event", ANCS.eventName(eventID))
            s.field("flags", flags)
            s.list("flag_names") { l in for n in ANCS.flagList(flags) { l.string(n) } }
            s.field("category_id", categoryID)
            s.field("category", ANCS.categoryName(categoryID))
            s.field("category_count", categoryCount)
            s.field("uid", uid)
        }

        public var text: String { TextBytes.string { writeText(into: &$0) } }

        /// "added UID 7: Social [Silent], 2 in category".
        func writeText(into b: inout TextBytes) {
            b.append(string: ANCS.eventName(eventID))
            b.append(string: " UID ")
            b.append(decimal: Int(uid))
            b.append(string: ": ")
            b.append(string: ANCS.categoryName(categoryID))
            let fl = ANCS.flagList(flags)
            if !fl.isEmpty {
                b.append(string: " [")
                ANCS.write(fl, into: &b)
                b.append(UInt8(ascii: "]"))
            }
            b.append(string: ", ")
            b.append(decimal: Int(categoryCount))
            b.append(string: " in category")
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

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("characteristic", "control_point")
            s.field("command_id", id)
            s.field("command", ANCS.commandName(id))
            switch self {
            case let .getNotificationAttributes(uid, attrs):
                s.field("uid", uid)
                ANCS.writeRequested(attrs, command: 0, into: &s)
            case let .getAppAttributes(app, attrs):
                s.field("app_identifier", app)
                ANCS.writeRequested(attrs, command: 1, into: &s)
            case let .performNotificationAction(uid, action):
                s.field("uid", uid)
                s.field("action_id", action)
                s.field("action", ANCS.actionName(action))
            }
        }

        public var text: String { TextBytes.string { writeText(into: &$0) } }

        /// "Get Notification Attributes UID 7: Title (max 32), Message (max 64)".
        func writeText(into b: inout TextBytes) {
            func list(_ a: [RequestedAttribute], _ cmd: UInt8) {
                for (i, x) in a.enumerated() {
                    if i > 0 { b.append(string: ", ") }
                    b.append(string: ANCS.attributeName(x.id, command: cmd))
                    if let m = x.maxLength {
                        b.append(string: " (max ")
                        b.append(decimal: Int(m))
                        b.append(UInt8(ascii: ")"))
                    }
                }
            }
            switch self {
            case let .getNotificationAttributes(uid, attrs):
                b.append(string: "Get Notification Attributes UID ")
                b.append(decimal: Int(uid))
                b.append(string: ": ")
                list(attrs, 0)
            case let .getAppAttributes(app, attrs):
                b.append(string: "Get App Attributes ")
                b.append(string: app)
                b.append(string: ": ")
                list(attrs, 1)
            case let .performNotificationAction(uid, action):
                b.append(string: "Perform ")
                b.append(string: ANCS.actionName(action))
                b.append(string: " action on UID ")
                b.append(decimal: Int(uid))
            }
        }
    }

    static func writeRequested<S: FieldSink>(_ attrs: [RequestedAttribute], command: UInt8, into s: inout S) {
        s.list("attributes") { l in
            for a in attrs {
                l.beginObject()
                l.field("id", a.id)
                l.field("name", ANCS.attributeName(a.id, command: command))
                if let m = a.maxLength { l.field("max_length", m) }
                l.endObject()
            }
        }
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

        public func writeFields<S: FieldSink>(into s: inout S) {
            s.field("characteristic", "data_source")
            s.field("command_id", commandID)
            s.field("command", ANCS.commandName(commandID))
            if let u = uid { s.field("uid", u) }
            if let a = appIdentifier { s.field("app_identifier", a) }
            s.object("attributes") { o in
                for a in attributes { o.field(name: ANCS.attributeKey(a.id, command: commandID), a.value) }
            }
        }

        public var text: String { TextBytes.string { writeText(into: &$0) } }

        /// "Notification Attributes UID 7: Title \"Anna\", Message \"Hi\"".
        func writeText(into b: inout TextBytes) {
            if commandID == 1 {
                b.append(string: "App Attributes ")
                b.append(string: appIdentifier ?? "?")
            } else {
                b.append(string: "Notification Attributes UID ")
                b.append(decimal: Int(uid ?? 0))
            }
            b.append(string: ": ")
            for (i, a) in attributes.enumerated() {
                if i > 0 { b.append(string: ", ") }
                b.append(string: ANCS.attributeName(a.id, command: commandID))
                b.append(string: " \"")
                b.append(string: a.value)
                b.append(UInt8(ascii: "\""))
            }
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
