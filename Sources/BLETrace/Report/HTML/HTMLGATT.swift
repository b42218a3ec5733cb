/// The GATT tree of each server with its latest decoded values, the identity cards, the battery summary and
/// the ANCS notifications table.
enum HTMLGATT {
    static let maxServers = 20, maxANCS = 500

    static func section(_ s: Summary, att: ATTLayer?, log: ActivityLog?, identity: IdentityLayer?, page: HTMLPage) -> String {
        let dbs = (att?.databases ?? [:]).filter { !$0.value.isEmpty }
        let cards = identity?.described ?? [], ancs = HTMLHeader.section(s, "ancs")
        guard !dbs.isEmpty || !cards.isEmpty || ancs != nil else { return "" }
        var h = "<h2 id=\"gatt\">GATT and values</h2>\n"
        for key in dbs.keys.sorted().prefix(maxServers) {
            guard let db = dbs[key] else { continue }
            let title = key == "local" ? "GATT database of the local host (served to the peer)" : "GATT database of " + page.t(key)
            h += "<h3>\(title)</h3>\n" + tree(db, tracks: log?.values[key] ?? [:], page: page)
        }
        if dbs.count > maxServers { h += "<p class=\"muted\">\(dbs.count - maxServers) more databases (<code>bletrace gatt</code> lists them all).</p>\n" }
        if !cards.isEmpty { h += identityCards(cards, page: page) }
        if let a = ancs { h += ancsTable(a, page: page) }
        return h
    }

    static func tree(_ db: GATTDatabase, tracks: [UInt16: ActivityLog.ValueTrack], page: HTMLPage) -> String {
        var h = "<ul class=\"gatt\">\n"
        for e in GATTPaths(db).entries {
            let depth = min(4, e.path.split(separator: "/").count - 1)
            let name = page.t(GATTPaths.leafLabel(e.path))
            let uuid = page.t(e.path.split(separator: "/").last.map(String.init) ?? "")
            var line = "<li class=\"d\(depth)\">"
            switch e.kind {
            case .service:
                line += "<b>\(name)</b> <code>\(uuid)</code> (\(Hex.hex(e.handle, width: 4))–\(Hex.hex(e.second ?? e.handle, width: 4)))" + (e.primary == false ? ", secondary" : "")
            case .include:
                line += "\(name) (\(Hex.hex(e.handle, width: 4)))"
            case .characteristic:
                let vh = e.second ?? e.handle
                line += "\(name) <code>\(uuid)</code> (\(Hex.hex(vh, width: 4)))"
                if let p = e.properties { line += " [\(ATTNames.properties(p).joined(separator: ", "))]" }
                if let t = tracks[vh] {
                    line += value(t, page: page)
                    if t.notifications > 1 { line += " <span class=\"muted\">(\(t.notifications) notifications)</span>" }
                }
            case .descriptor:
                line += "\(name) <code>\(uuid)</code> (\(Hex.hex(e.handle, width: 4)))"
                if let t = tracks[e.handle] { line += value(t, page: page) }
            }
            h += line + "</li>\n"
        }
        return h + "</ul>\n"
    }

    static func value(_ t: ActivityLog.ValueTrack, page: HTMLPage) -> String {
        let how = t.latest.opcode == 0x1B || t.latest.opcode == 0x1D || t.latest.opcode == 0x23 ? "notified" : "read"
        return ": <code>\(page.t(t.latest.text))</code> <span class=\"muted\">(\(how), record \(t.latest.record))</span>"
    }

    /// A table per device with what its GATT server told about itself, in the text summary's words.
    static func identityCards(_ cards: [(device: String, parts: [IdentityLayer.Part])], page: HTMLPage) -> String {
        var h = "<h3 id=\"identity\">Identity</h3>\n"
        for card in cards.prefix(50) {
            h += "<table class=\"identity\">\n<tr><th>Device</th><td><code>\(page.t(card.device))</code></td></tr>\n"
            for p in card.parts { h += "<tr><th>\(HTMLPage.e(p.title))</th><td>\(page.t(p.value))</td></tr>\n" }
            h += "</table>\n"
        }
        if cards.count > 50 { h += "<p class=\"muted\">\(cards.count - 50) more (see the text or JSON summary).</p>\n" }
        return h
    }

    static func scalar(_ v: FieldValue) -> String {
        switch v {
        case let .string(s): return s
        case let .int(n): return "\(n)"
        case let .double(d): return "\(d)"
        case let .bool(b): return b ? "yes" : "no"
        default: return ""
        }
    }

    static let ancsColumns = ["uid", "category", "app_identifier", "app_name", "title", "subtitle", "message", "date", "first_record", "removed_record"]

    static func ancsTable(_ a: Fields, page: HTMLPage) -> String {
        guard case let .list(list)? = a["notifications"], !list.isEmpty else { return "" }
        var h = "<h3 id=\"ancs\">ANCS notifications</h3>\n<table class=\"ancs\">\n<tr>"
            + ancsColumns.map { "<th>\(HTMLPage.e($0.replacingAll("_", with: " ")))</th>" }.joined() + "</tr>\n"
        for case let .object(n) in list.prefix(maxANCS) {
            h += "<tr>" + ancsColumns.map { k in
                let v = n[k].map(scalar) ?? ""
                return k == "first_record" || k == "removed_record" || k == "uid" ? "<td class=\"n\">\(HTMLPage.e(v))</td>" : "<td>\(page.t(v))</td>"
            }.joined() + "</tr>\n"
        }
        h += "</table>\n"
        if list.count > maxANCS { h += "<p class=\"muted\">\(list.count - maxANCS) more (see the JSON summary).</p>\n" }
        return h
    }
}
