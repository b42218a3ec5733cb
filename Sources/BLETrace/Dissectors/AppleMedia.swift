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
        var f = Fields()
        var c = ByteCursor(v)
        switch ctx.uuid {
        case AppleMediaDissector.remoteCommand:
            f.add("characteristic", "remote_command")
            let ids = Array(v)
            if ctx.fromClient {
                guard ids.count == 1 else { return .invalid(name, DissectorText.length(ids.count, expected: 1)) }
                f.add("command_id", Int(ids[0]))
                f.add("command", AppleMediaDissector.commandName(ids[0]))
                return Dissection(name, fields: f, text: "command " + AppleMediaDissector.commandName(ids[0]))
            }
            f.add("supported_commands", DissectorText.list(ids.map { AppleMediaDissector.commandName($0) }))
            return Dissection(name, fields: f, text: "supported: " + ids.map { AppleMediaDissector.commandName($0) }.joined(separator: ", "))
        case AppleMediaDissector.entityUpdate:
            f.add("characteristic", "entity_update")
            guard let entity = try? c.u8() else { return .invalid(name, "empty value") }
            f.add("entity_id", Int(entity))
            f.add("entity", AppleMediaDissector.entityName(entity))
            if ctx.fromClient {
                let attrs = Array(c.rest())
                f.add("attributes", DissectorText.list(attrs.map { AppleMediaDissector.attributeName($0, entity: entity) }))
                return Dissection(name, fields: f, text: "subscribe to \(AppleMediaDissector.entityName(entity)): "
                                  + attrs.map { AppleMediaDissector.attributeName($0, entity: entity) }.joined(separator: ", "))
            }
            guard let attr = try? c.u8(), let flags = try? c.u8() else { return .invalid(name, "entity update shorter than 3 bytes") }
            let attrName = AppleMediaDissector.attributeName(attr, entity: entity)
            f.add("attribute_id", Int(attr))
            f.add("attribute", attrName)
            f.add("truncated", flags & 1 != 0)
            let value = DissectorText.utf8(c.rest())
            f.add("value", value ?? "")
            return Dissection(name, fields: f, text: "\(AppleMediaDissector.entityName(entity)) \(attrName) \"\(value ?? "")\"" + (flags & 1 != 0 ? " (truncated)" : ""),
                              problem: value == nil ? "value is not valid UTF-8" : nil)
        default:
            f.add("characteristic", "entity_attribute")
            if ctx.fromClient {
                guard v.count == 2, let entity = try? c.u8(), let attr = try? c.u8() else {
                    return .invalid(name, DissectorText.length(v.count, expected: 2))
                }
                f.add("entity", AppleMediaDissector.entityName(entity))
                f.add("attribute", AppleMediaDissector.attributeName(attr, entity: entity))
                return Dissection(name, fields: f, text: "select \(AppleMediaDissector.entityName(entity)) \(AppleMediaDissector.attributeName(attr, entity: entity))")
            }
            let value = DissectorText.utf8(v)
            f.add("value", value ?? "")
            return Dissection(name, fields: f, text: "\"\(value ?? "")\"", problem: value == nil ? "value is not valid UTF-8" : nil)
        }
    }
}
