import Testing
@testable import BLETrace

/// Filters compose: every pair of filters selects exactly the events both select alone, a device given by
/// name selects what the same device given by address does, and a filter that selects nothing says so.
@Suite struct FilterPairTests {
    static let sample = TestSupport.packageRoot.appendingPathComponent("samples/diff-good.btsnoop").path

    /// The records `analyze` shows with `filter` (through the command's own code: `AnalyzeRun`).
    static func shown(_ filter: EventFilter, path: String = sample) throws -> (records: [Int], notes: [String]) {
        var run = AnalyzeRun()
        run.format = .jsonl
        run.filter = filter
        let out = OutputWriter()
        let result = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        var records: [Int] = []
        for line in out.text.split(separator: "\n") where line.hasPrefix("{\"record\":") {
            let digits = line.dropFirst(10).prefix { $0.isNumber }
            if let n = Int(digits) { records.append(n) }
        }
        return (records, result.filterNotes)
    }

    /// One filter of each kind, each chosen to overlap the others on the sample (Thermo-42 advertises, then
    /// is connected as connection 1).
    static let single: [(String, @Sendable (inout EventFilter) -> Void)] = [
        ("device name", { $0.devices = ["Thermo-42"] }),
        ("connection", { $0.connections = [1] }),
        ("layer", { _ = $0.parseLayers("att") }),
        ("records", { $0.records = 20...60 }),
        ("from", { $0.from = 0.3 }),
        ("to", { $0.to = 1.0 }),
    ]

    @Test func everyPairSelectsWhatBothSelect() throws {
        var alone: [String: Set<Int>] = [:]
        for (name, apply) in FilterPairTests.single {
            var f = EventFilter()
            apply(&f)
            alone[name] = Set(try FilterPairTests.shown(f).records)
            #expect(alone[name]?.isEmpty == false, "\(name) alone")
        }
        for (i, (a, applyA)) in FilterPairTests.single.enumerated() {
            for (b, applyB) in FilterPairTests.single[(i + 1)...] {
                var f = EventFilter()
                applyA(&f)
                applyB(&f)
                let both = try FilterPairTests.shown(f)
                let expected = (alone[a] ?? []).intersection(alone[b] ?? [])
                #expect(Set(both.records) == expected, "\(a) + \(b)")
                #expect(!expected.isEmpty, "\(a) + \(b) overlap on the sample")
                #expect(both.notes.isEmpty, "\(a) + \(b): \(both.notes)")
            }
        }
    }

    @Test func deviceByNameSelectsWhatItsAddressSelects() throws {
        for (name, apply) in FilterPairTests.single where name != "device name" {
            var byName = EventFilter(), byAddress = EventFilter()
            byName.devices = ["thermo-42"]
            byAddress.devices = ["C4:7C:8D:6A:11:22"]
            apply(&byName)
            apply(&byAddress)
            let n = try FilterPairTests.shown(byName).records
            #expect(!n.isEmpty, "--device NAME with \(name)")
            #expect(n == (try FilterPairTests.shown(byAddress).records), "--device NAME with \(name)")
        }
        // The example of `analyze --help`.
        var help = EventFilter()
        help.devices = ["Thermo-42"]
        _ = help.parseLayers("att,smp")
        help.from = 0.5
        help.to = 2
        let r = try FilterPairTests.shown(help).records
        help.devices = ["C4:7C:8D:6A:11:22"]
        #expect(!r.isEmpty)
        #expect(r == (try FilterPairTests.shown(help).records))
    }

    /// A name known only from a Device Name read in the middle of the connection selects the connection from
    /// its start: the name is resolved over the whole capture.
    @Test func nameReadLateSelectsTheWholeConnection() throws {
        let path = TestSupport.packageRoot.appendingPathComponent("samples/gatt-session.btsnoop").path
        var byName = EventFilter(), byAddress = EventFilter()
        byName.devices = ["Thermo-42"]
        byAddress.devices = ["C4:7C:8D:6A:11:22"]
        let n = try FilterPairTests.shown(byName, path: path)
        #expect(n.records == (try FilterPairTests.shown(byAddress, path: path).records))
        #expect(n.records.count > 40)
        #expect(n.notes.isEmpty)
    }

    @Test func filtersThatSelectNothingSaySo() throws {
        var f = EventFilter()
        f.devices = ["nosuch"]
        let none = try FilterPairTests.shown(f)
        #expect(none.records.isEmpty)
        #expect(none.notes.contains { $0.hasPrefix("--device nosuch: no device") })
        #expect(none.notes.contains { $0.hasPrefix("the filters selected no events") })
        f = EventFilter()
        f.connections = [5]
        let c = try FilterPairTests.shown(f)
        #expect(c.records.isEmpty)
        #expect(c.notes.first == "--connection 5: the capture has 1 connection")
        f = EventFilter()
        f.devices = ["C4:7C:8D:6A:11:22"]
        #expect(try FilterPairTests.shown(f).notes.isEmpty)
    }
}

/// `--time delta` measures from the previous record of the capture, shown or not: the first row a filter
/// shows has its real delta, not 0 (issue #27).
@Suite struct FilteredDeltaTests {
    static func firstDelta(records: ClosedRange<Int>) throws -> String {
        var run = AnalyzeRun()
        run.style = TextStyle(color: false, time: .delta, width: 0)
        run.filter.records = records
        run.summaryOnly = false
        let out = OutputWriter()
        let path = TestSupport.packageRoot.appendingPathComponent("samples/gatt-session.btsnoop").path
        _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        let first = try #require(out.text.split(separator: "\n").first)
        return String(first.split(separator: " ", omittingEmptySubsequences: true)[1])
    }

    @Test func firstShownRowHasItsRealDelta() throws {
        // Record 21 comes 15 ms after record 20 (a fragment after a completed-packets event).
        #expect(try Self.firstDelta(records: 21...23) == "0.015000")
        #expect(try Self.firstDelta(records: 20...23) == "0.000300")
        // The first record of the capture has no previous one.
        #expect(try Self.firstDelta(records: 1...3) == "0.000000")
    }
}
