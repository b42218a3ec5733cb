import Foundation
import MCP
import Testing
@testable import BLETrace
@testable import BLETraceMCP

/// `bletrace mcp` (issue #39, part 3): the tools answered in process, without a transport, and the whole
/// server driven by PyPI's MCP client (`scripts/check-mcp.py`) where it is installed.
@Suite struct MCPServerTests {
    typealias X = ExitStatusTests

    static func call(_ tool: String, _ args: [String: Value], _ policy: ServerPolicy = ServerPolicy()) -> CallTool.Result {
        BLETraceMCPServer.call(tool, args, policy: policy)
    }

    static func text(_ r: CallTool.Result) -> String {
        guard case let .text(t, _, _)? = r.content.first else { return "" }
        return t
    }

    static func json(_ r: CallTool.Result) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text(r).utf8)) as? [String: Any])
    }

    /// The event lines `analyze --format jsonl` writes for `filter`, without the summary line.
    static func jsonl(_ path: String, filter: EventFilter = EventFilter()) throws -> [String] {
        var run = AnalyzeRun()
        run.format = .jsonl
        run.singleThread = true
        run.filter = filter
        let out = OutputWriter()
        _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        out.flush()
        let lines = String(decoding: out.captured, as: UTF8.self).split(separator: "\n").map(String.init)
        return lines.filter { !$0.hasPrefix("{\"kind\":\"summary\"") }
    }

    @Test func pagerKeepsOnePageOfLinesSplitAcrossBlocks() {
        let text = Array((0..<10).map { "line \($0) " + String(repeating: "x", count: $0) }.joined(separator: "\n").utf8) + [0x0A]
        let pager = LinePager(offset: 3, limit: 4, maxBytes: 1000)
        var i = 0
        // Blocks of 5 bytes: every line is cut somewhere.
        while i < text.count {
            pager.take(text[i..<min(text.count, i + 5)])
            i += 5
        }
        pager.finish()
        #expect(pager.count == 10)
        #expect(pager.lines.map { String(decoding: $0, as: UTF8.self) } == (3..<7).map { "line \($0) " + String(repeating: "x", count: $0) })
    }

    @Test func pagerStopsAtTheByteLimitButNeverReturnsAnEmptyPage() {
        let big = LinePager(offset: 0, limit: 10, maxBytes: 3)
        big.take(Array("aaaa\nbbbb\ncccc".utf8)[...])
        big.finish()
        #expect(big.lines.count == 1)
        #expect(big.full)
        #expect(big.count == 3)
        let two = LinePager(offset: 1, limit: 10, maxBytes: 8)
        two.take(Array("aaaa\nbbbb\ncccc\ndddd\n".utf8)[...])
        two.finish()
        #expect(two.lines.map { String(decoding: $0, as: UTF8.self) } == ["bbbb", "cccc"])
    }

    @Test func eventPagesJoinToTheCLITimeline() throws {
        let path = X.sample("gatt-session.btsnoop")
        let expected = try Self.jsonl(path)
        var got: [String] = []
        var offset: Int? = 0
        var pages = 0
        while let o = offset {
            let page = try CaptureQueries.events(CaptureQuery(path: path), filter: EventFilter(), offset: o, limit: 13, maxBytes: 1 << 20)
            #expect(page.total == expected.count)
            #expect(page.lines.count <= 13)
            got += page.lines.map { String(decoding: $0, as: UTF8.self) }
            offset = page.nextOffset
            pages += 1
        }
        #expect(got == expected)
        #expect(pages == (expected.count + 12) / 13)
    }

    @Test func eventsToolFiltersAsTheCLIDoes() throws {
        let path = X.sample("gatt-session.btsnoop")
        var filter = EventFilter()
        _ = filter.parseLayers("att")
        let expected = try Self.jsonl(path, filter: filter)
        let r = Self.call("events", ["path": .string(path), "layer": "att", "limit": 1000])
        #expect(r.isError == false)
        let doc = try Self.json(r)
        let page = try #require(doc["page"] as? [String: Any])
        #expect(page["total"] as? Int == expected.count)
        #expect(page["next_offset"] is NSNull)
        let events = try #require(doc["events"] as? [[String: Any]])
        #expect(events.count == expected.count)
        #expect(events.allSatisfy { $0["kind"] as? String == "att" })
    }

    @Test func errorsAreTheCommandLinesLines() throws {
        let missing = Self.call("analyze", ["path": "/nonexistent/x.log"])
        #expect(missing.isError == true)
        #expect(Self.text(missing) == "bletrace: /nonexistent/x.log: cannot open /nonexistent/x.log: No such file or directory")
        let records = Self.call("events", ["path": .string(X.sample("scan.btsnoop")), "records": "x"])
        #expect(Self.text(records) == "bletrace: --records: 'x' is not a record range such as 100-200")
        let unknown = Self.call("devices", ["path": .string(X.sample("scan.btsnoop")), "colour": "red"])
        #expect(Self.text(unknown).hasPrefix("bletrace: devices: unknown argument 'colour'"))
        let wrongType = Self.call("record", ["path": .string(X.sample("scan.btsnoop")), "record": "five"])
        #expect(Self.text(wrongType) == "bletrace: record: 'record' must be a whole number 1 or more")
        // A number no conversion may trap on: the server must answer, not crash.
        let huge = Self.call("diff", ["a_path": .string(X.sample("scan.btsnoop")), "b_path": .string(X.sample("scan.btsnoop")),
                                      "timing_threshold": .double(1e300)])
        #expect(Self.text(huge) == "bletrace: --timing-threshold: 1e+300 is not a number of milliseconds (0 to 86400000)")
        let stdin = Self.call("analyze", ["path": "-"])
        #expect(stdin.isError == true)
        #expect(Self.call("nope", [:]).isError == true)
    }

    @Test func recordCarriesItsBytesUnlessRedacting() throws {
        let path = X.sample("gatt-session.btsnoop")
        let plain = try Self.json(Self.call("record", ["path": .string(path), "record": 40]))
        #expect(plain["record"] as? Int == 40)
        let raw = try #require(plain["raw"] as? String)
        #expect(raw.count == 2 * (plain["length"] as? Int ?? 0))
        #expect(!(plain["events"] as? [Any] ?? []).isEmpty)
        let redacted = try Self.json(Self.call("record", ["path": .string(path), "record": 40], ServerPolicy(redact: true)))
        #expect(redacted["raw"] is NSNull)
        let past = Self.call("record", ["path": .string(path), "record": 100_000])
        #expect(Self.text(past).hasPrefix("bletrace: \(path): no record 100000: the capture holds "))
    }

    @Test func forcedRedactionCannotBeTurnedOffByACall() throws {
        let path = X.sample("scan.btsnoop")
        let plain = Self.text(Self.call("devices", ["path": .string(path)]))
        let forced = Self.text(Self.call("devices", ["path": .string(path), "redact": false], ServerPolicy(redact: true)))
        #expect(plain.contains("00:07:80:4C:B1:E5"))
        #expect(!forced.contains("00:07:80:4C:B1:E5"))
    }

    @Test func rootsKeepOtherFilesOut() throws {
        let roots = try ServerPolicy.resolveRoots([TestSupport.packageRoot.appendingPathComponent("samples").path])
        let policy = ServerPolicy(roots: roots)
        #expect(Self.call("analyze", ["path": .string(X.sample("scan.btsnoop"))], policy).isError == false)
        let outside = Self.call("analyze", ["path": .string(TestSupport.packageRoot.appendingPathComponent("Package.swift").path)], policy)
        #expect(Self.text(outside).contains("outside the folders this server reads"))
        // A way out through "..", resolved before the check.
        let dotdot = Self.call("analyze", ["path": .string(X.sample("../Package.swift"))], policy)
        #expect(Self.text(dotdot).contains("outside the folders this server reads"))
        #expect(throws: OptionError.self) { _ = try ServerPolicy.resolveRoots(["/nonexistent/folder"]) }
    }

    @Test func longDocumentsComeInPiecesThatJoinToTheWhole() throws {
        let path = X.sample("diff-bad.btsnoop")
        let whole = try CaptureQueries.summary(CaptureQuery(path: path))
        #expect(whole.json.count > 4096)
        var joined = ""
        var offset: Int? = 0
        var pieces = 0
        while let o = offset {
            let r = Self.call("analyze", ["path": .string(path), "byte_offset": .int(o)], ServerPolicy(maxBytes: 1000))
            let doc = try Self.json(r)
            let piece = try #require(doc["piece"] as? [String: Any])
            let text = try #require(doc["text"] as? String)
            #expect(text.utf8.count <= 1000)
            joined += text
            offset = piece["next_byte_offset"] as? Int
            pieces += 1
        }
        #expect(Array(joined.utf8) == whole.json)
        #expect(pieces >= (whole.json.count + 999) / 1000)
    }

    @Test func listPagesKeepTheDocumentsShape() throws {
        let path = X.sample("scan.btsnoop")
        var all: [[String: Any]] = []
        var offset: Int? = 0
        while let o = offset {
            let doc = try Self.json(Self.call("devices", ["path": .string(path), "offset": .int(o), "limit": 4]))
            let devices = try #require(doc["devices"] as? [String: Any])
            #expect(devices["count"] as? Int == 6)
            all += try #require(devices["devices"] as? [[String: Any]])
            offset = (doc["page"] as? [String: Any])?["next_offset"] as? Int
        }
        #expect(all.count == 6)
        #expect(Set(all.compactMap { $0["address"] as? String }).count == 6)
    }

    @Test func everyToolHasAnObjectSchemaThatNamesItsArguments() {
        #expect(AgentTools.all.map { $0.name } == ["analyze", "events", "record", "diagnoses", "devices", "gatt", "diff", "triage_report"])
        for t in AgentTools.all {
            let schema = t.definition.inputSchema.objectValue
            #expect(schema?["type"]?.stringValue == "object")
            let props = Set((schema?["properties"]?.objectValue ?? [:]).keys)
            #expect(Set(t.required).isSubset(of: props), "\(t.name)")
        }
    }

    static let client = X.binary != nil && CIConsumerTests.python(["mcp", "jsonschema"])

    /// The real client: PyPI's `mcp` starts `bletrace mcp`, lists the tools and calls each on the samples and the
    /// shared captures up to 1 MB (every call decodes its capture again; the larger ones are checked the same way
    /// by hand, see docs/mcp.md), comparing every answer with the CLI's JSON. The release binary is used when it
    /// was built from the sources as they are (CI builds it first): a debug build takes minutes longer.
    @Test(.enabled(if: client))
    func aRealMCPClientGetsWhatTheCLIPrints() throws {
        var captures = ["gatt-session.btsnoop", "pairing-failed.pcap", "ancs-iphone.pklg", "scan.btsnoop", "encrypted-link.pcap"].map(X.sample)
        if let shared = TestSupport.sharedCaptures {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []
            for n in names.sorted() where !n.hasSuffix(".md") {
                let p = shared.appendingPathComponent(n).path
                let size = (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? nil
                if let s = size, s <= 1 << 20 { captures.append(p) }
            }
        }
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/check-mcp.py").path
        let r = try TestSupport.runProgram("/usr/bin/env", ["python3", script, Self.fastestBinary()] + captures, joined: true)
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.contains("mcp: every answer matches the CLI"), "\(r.out)")
        #expect(r.out.contains("captures: \(captures.count) checked"), "\(r.out)")
        print(r.out)
    }

    /// The release binary when it was built after the last change to Sources (CI builds it first), else the
    /// debug one.
    static func fastestBinary() -> String {
        let release = TestSupport.packageRoot.appendingPathComponent(".build/release/bletrace").path
        let fm = FileManager.default
        guard let built = (try? fm.attributesOfItem(atPath: release))?[.modificationDate] as? Date else { return X.binary! }
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources").path
        let files = fm.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        for f in files where f.hasSuffix(".swift") {
            let changed = (try? fm.attributesOfItem(atPath: sources + "/" + f))?[.modificationDate] as? Date
            if let c = changed, c > built { return X.binary! }
        }
        return release
    }
}
