import BLETrace
import Foundation
import MCP

/// What a tool sends back: the JSON text (what the command line prints), the same as structured content, and
/// the damage line when the capture was damaged part-way (the answer then covers what came before it).
struct ToolAnswer {
    var json: [UInt8]
    /// Lines for the caller besides the JSON: damage, notes the command line prints on standard error.
    var notes: [String] = []

    init(json: [UInt8], notes: [String] = []) {
        self.json = json
        self.notes = notes
    }

    init(_ a: QueryAnswer) {
        self.init(json: a.json, notes: a.damage.map { ["bletrace: " + $0] } ?? [])
    }

    var result: CallTool.Result {
        let text = String(decoding: json, as: UTF8.self)
        let structured = try? JSONDecoder().decode(Value.self, from: Data(json))
        return .init(content: [Self.text(text)] + notes.map { Self.text($0) },
                     structuredContent: structured.flatMap { $0.objectValue != nil ? $0 : nil }, isError: false)
    }

    static func failure(_ message: String) -> CallTool.Result {
        .init(content: [text("bletrace: " + message)], isError: true)
    }

    static func text(_ s: String) -> Tool.Content { .text(text: s, annotations: nil, _meta: nil) }

    /// A document too long for one answer, in pieces: the piece from `offset` (a byte offset into the whole
    /// document, cut at a character boundary), with where the next starts. A piece is not JSON on its own; the
    /// pieces joined are the document.
    static func piece(of whole: QueryAnswer, from offset: Int, maxBytes: Int) throws(OptionError) -> ToolAnswer {
        let json = whole.json
        let notes = whole.damage.map { ["bletrace: " + $0] } ?? []
        if offset == 0 && json.count <= maxBytes { return ToolAnswer(json: json, notes: notes) }
        guard offset <= json.count else {
            throw OptionError("byte_offset \(offset) is past the end of the answer (\(json.count) bytes)")
        }
        var end = min(json.count, offset + maxBytes)
        // Never cut inside a UTF-8 sequence.
        while end < json.count && end > offset + 1 && (json[end] & 0xC0) == 0x80 { end -= 1 }
        var out: [UInt8] = []
        out.append(contentsOf: Array("{\"piece\":{\"byte_offset\":\(offset),\"bytes\":\(end - offset),\"total_bytes\":\(json.count),\"next_byte_offset\":\(end < json.count ? String(end) : "null")},\"text\":".utf8))
        out.append(contentsOf: JSONText.string(String(decoding: json[offset..<end], as: UTF8.self)))
        out.append(0x7D)
        return ToolAnswer(json: out, notes: notes)
    }
}

/// A JSON string literal, escaped.
enum JSONText {
    static func string(_ s: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for u in s.utf8 {
            switch u {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20: out += Array(String(format: "\\u%04x", u).utf8)
            default: out.append(u)
            }
        }
        out.append(0x22)
        return out
    }
}
