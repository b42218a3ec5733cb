import BLETrace
import Foundation
import MCP

/// A page of a list inside a command-line JSON document (the devices of `devices --format json`, the
/// captures of a triage report): the document keeps its shape with the list cut to the page, and gains
/// `"page": {"offset", "returned", "total", "next_offset"}`. A page holds at least one item and otherwise stays
/// within the byte limit; nothing is left out without `next_offset` saying where it goes on.
enum ListPage {
    /// The page the call's `offset` and `limit` ask for.
    static func answer(_ whole: QueryAnswer, list path: [String], args: ToolArguments, defaultLimit: Int,
                       policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        try answer(whole, list: path, offset: try args.int("offset", atLeast: 0) ?? 0,
                   limit: try args.int("limit", atLeast: 1, atMost: maximumLimit) ?? defaultLimit, maxBytes: policy.maxBytes)
    }

    /// The page the call asks for, of a document already decoded.
    static func answer(_ doc: Value, damage: String?, list path: [String], args: ToolArguments, defaultLimit: Int,
                       policy: ServerPolicy) throws(OptionError) -> ToolAnswer {
        try answer(doc, damage: damage, list: path, offset: try args.int("offset", atLeast: 0) ?? 0,
                   limit: try args.int("limit", atLeast: 1, atMost: maximumLimit) ?? defaultLimit, maxBytes: policy.maxBytes)
    }

    static let maximumLimit = 1000

    static func answer(_ whole: QueryAnswer, list path: [String], offset: Int, limit: Int,
                       maxBytes: Int) throws(OptionError) -> ToolAnswer {
        guard let doc = try? JSONDecoder().decode(Value.self, from: Data(whole.json)) else {
            throw OptionError("the answer is not a JSON document")
        }
        return try answer(doc, damage: whole.damage, list: path, offset: offset, limit: limit, maxBytes: maxBytes)
    }

    /// The same, for a document already decoded.
    static func answer(_ whole: Value, damage: String?, list path: [String], offset: Int, limit: Int,
                       maxBytes: Int) throws(OptionError) -> ToolAnswer {
        var doc = whole
        let items = Self.list(in: doc, at: path) ?? []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let start = min(offset, items.count)
        var page: [Value] = []
        var base = (try? encoder.encode(set(doc, at: path, to: [], page: Self.page(offset, 0, items.count, nil))).count) ?? 0
        base += 64
        var bytes = base
        for item in items[start...] {
            guard page.count < limit else { break }
            let size = ((try? encoder.encode(item).count) ?? 0) + 1
            if !page.isEmpty && bytes + size > maxBytes { break }
            page.append(item)
            bytes += size
        }
        let end = start + page.count
        doc = set(doc, at: path, to: page, page: Self.page(start, page.count, items.count, end < items.count ? end : nil))
        guard let json = try? encoder.encode(doc) else { throw OptionError("the answer could not be encoded") }
        return ToolAnswer(json: Array(json), notes: damage.map { ["bletrace: " + $0] } ?? [])
    }

    static func page(_ offset: Int, _ returned: Int, _ total: Int, _ next: Int?) -> Value {
        .object(["offset": .int(offset), "returned": .int(returned), "total": .int(total),
                 "next_offset": next.map { .int($0) } ?? .null])
    }

    static func list(in v: Value, at path: [String]) -> [Value]? {
        guard let key = path.first else { return v.arrayValue }
        guard let o = v.objectValue, let inner = o[key] else { return nil }
        return list(in: inner, at: Array(path.dropFirst()))
    }

    /// The document with the list at `path` replaced and the page added at the top.
    static func set(_ doc: Value, at path: [String], to items: [Value], page: Value) -> Value {
        guard var o = doc.objectValue else { return doc }
        o = replace(o, path, items)
        o["page"] = page
        return .object(o)
    }

    private static func replace(_ o: [String: Value], _ path: [String], _ items: [Value]) -> [String: Value] {
        guard let key = path.first else { return o }
        var out = o
        if path.count == 1 {
            out[key] = .array(items)
        } else if let inner = o[key]?.objectValue {
            out[key] = .object(replace(inner, Array(path.dropFirst()), items))
        }
        return out
    }
}
