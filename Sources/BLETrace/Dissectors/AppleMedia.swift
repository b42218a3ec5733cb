/// Apple Media Service (AMS): an accessory controls media playback on an iPhone (the GATT server) through
/// Remote Command, and follows the player, queue and track through Entity Update and Entity Attribute.
public struct AppleMediaDissector: ValueDissector {
    public static let service = BLEUUID(string: "89D3502B-0F36-433A-8EF4-C502AD55F8DC")!
    public static let remoteCommand = BLEUUID(string: "9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2")!
    public static let entityUpdate = BLEUUID(string: "2F7CABCE-808D-411F-9A0C-BB92BA96C102")!
    public static let entityAttribute = BLEUUID(string: "C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7")!

    public let name = "ams"
    public let uuids: [BLEUUID] = [AppleMediaDissector.remoteCommand, AppleMediaDissector.entityUpdate, AppleMediaDissector.entityAttribute]
    public init() {}

    static let commands = ["Play", "Pause", "Toggle Play/Pause", "Next Track", "Previous Track", "Volume Up", "Volume Down",
                           "Advance Repeat Mode", "Advance Shuffle Mode", "Skip Forward", "Skip Backward", "Like Track",
                           "Dislike Track", "Bookmark Track"]
    static let entities = ["Player", "Queue", "Track"]
    static let attributes = [["Name", "Playback Info", "Volume"], ["Index", "Count", "Shuffle Mode", "Repeat Mode"],
                             ["Artist", "Album", "Title", "Duration"]]

    public static func commandName(_ id: UInt8) -> String { Int(id) < commands.count ? commands[Int(id)] : "reserved (\(id))" }
    public static func entityName(_ id: UInt8) -> String { Int(id) < entities.count ? entities[Int(id)] : "reserved (\(id))" }
    public static func attributeName(_ id: UInt8, entity: UInt8) -> String {
        guard Int(entity) < attributes.count, Int(id) < attributes[Int(entity)].count else { return "attribute \(id)" }
        return attributes[Int(entity)][Int(id)]
    }

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        var c = ByteCursor(v)
        switch ctx.uuid {
        case AppleMediaDissector.remoteCommand:
            if ctx.fromClient {
                guard v.count == 1, let id = v.first else { return .invalid(name, DissectorText.length(v.count, expected: 1)) }
                return Dissection(name, value: Value.command(id))
            }
            return Dissection(name, value: Value.supported(v))
        case AppleMediaDissector.entityUpdate:
            guard let entity = try? c.u8() else { return .invalid(name, "empty value") }
            if ctx.fromClient { return Dissection(name, value: Value.subscribe(entity: entity, attributes: c.rest())) }
            guard let attr = try? c.u8(), let flags = try? c.u8() else { return .invalid(name, "entity update shorter than 3 bytes") }
            let value = c.rest()
            return Dissection(name, value: Value.update(entity: entity, attribute: attr, flags: flags, value: value),
                              problem: DissectorText.utf8(value) == nil ? "value is not valid UTF-8" : nil)
        default:
            if ctx.fromClient {
                guard v.count == 2, let entity = try? c.u8(), let attr = try? c.u8() else {
                    return .invalid(name, DissectorText.length(v.count, expected: 2))
                }
                return Dissection(name, value: Value.select(entity: entity, attribute: attr))
            }
            return Dissection(name, value: Value.attributeValue(v), problem: DissectorText.utf8(v) == nil ? "value is not valid UTF-8" : nil)
        }
    }

    /// What one AMS value says. Byte lists and strings stay slices of the value until rendered.
    public enum Value: DecodedValue, Equatable {
        /// Remote Command written by the accessory.
        case command(UInt8)
        /// Remote Command notified by the iPhone: the commands it supports now.
        case supported(ArraySlice<UInt8>)
        /// Entity Update written by the accessory: the attributes it wants updates of.
        case subscribe(entity: UInt8, attributes: ArraySlice<UInt8>)
        /// Entity Update notified by the iPhone (flag bit 0: the value was truncated).
        case update(entity: UInt8, attribute: UInt8, flags: UInt8, value: ArraySlice<UInt8>)
        /// Entity Attribute written by the accessory: which attribute to read in full.
        case select(entity: UInt8, attribute: UInt8)
        /// Entity Attribute read: the full value.
        case attributeValue(ArraySlice<UInt8>)

        typealias D = AppleMediaDissector

        public func writeFields<S: FieldSink>(into s: inout S) {
            switch self {
            case let .command(id):
                s.field("characteristic", "remote_command")
                s.field("command_id", id)
                s.field("command", D.commandName(id))
            case let .supported(ids):
                s.field("characteristic", "remote_command")
                s.list("supported_commands") { l in for id in ids { l.string(D.commandName(id)) } }
            case let .subscribe(entity, attrs):
                s.field("characteristic", "entity_update")
                s.field("entity_id", entity)
                s.field("entity", D.entityName(entity))
                s.list("attributes") { l in for a in attrs { l.string(D.attributeName(a, entity: entity)) } }
            case let .update(entity, attr, flags, value):
                s.field("characteristic", "entity_update")
                s.field("entity_id", entity)
                s.field("entity", D.entityName(entity))
                s.field("attribute_id", attr)
                s.field("attribute", D.attributeName(attr, entity: entity))
                s.field("truncated", flags & 1 != 0)
                s.field("value", DissectorText.utf8(value) ?? "")
            case let .select(entity, attr):
                s.field("characteristic", "entity_attribute")
                s.field("entity", D.entityName(entity))
                s.field("attribute", D.attributeName(attr, entity: entity))
            case let .attributeValue(v):
                s.field("characteristic", "entity_attribute")
                s.field("value", DissectorText.utf8(v) ?? "")
            }
        }

        public var text: String {
            switch self {
            case let .command(id): return "command " + D.commandName(id)
            case let .supported(ids): return "supported: " + ids.map { D.commandName($0) }.joined(separator: ", ")
            case let .subscribe(entity, attrs):
                return "subscribe to \(D.entityName(entity)): " + attrs.map { D.attributeName($0, entity: entity) }.joined(separator: ", ")
            case let .update(entity, attr, flags, value):
                return "\(D.entityName(entity)) \(D.attributeName(attr, entity: entity)) \"\(DissectorText.utf8(value) ?? "")\""
                    + (flags & 1 != 0 ? " (truncated)" : "")
            case let .select(entity, attr): return "select \(D.entityName(entity)) \(D.attributeName(attr, entity: entity))"
            case let .attributeValue(v): return "\"\(DissectorText.utf8(v) ?? "")\""
            }
        }
    }
}
