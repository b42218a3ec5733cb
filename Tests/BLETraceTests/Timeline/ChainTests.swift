import Foundation
import Testing
@testable import BLETrace

/// The chain is the one place that says which stage sees what: its stage list is the documented one, and no
/// stage keeps a list of callbacks through which a consumer could join from elsewhere.
@Suite struct ChainTests {
    /// The stage names between the `<!-- chain -->` markers of docs/architecture.md, in order.
    static func documentedStages() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/architecture.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let parts = text.components(separatedBy: "<!-- chain -->")
        try #require(parts.count == 3, "docs/architecture.md has one block between two <!-- chain --> markers")
        return parts[1].split(separator: "\n").compactMap { line in
            // "| 3 | `SignalingLayer` | …": the type name in the second column.
            let cols = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cols.count > 3, Int(cols[1]) != nil else { return nil }
            return cols[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
    }

    @Test func standardChainIsTheDocumentedOne() throws {
        let analyzer = Analyzer(sink: nil)
        analyzer.addAudio()
        analyzer.addActivityLog()
        #expect(analyzer.chain.stages == (try ChainTests.documentedStages()))
    }

    @Test func everyStandardStageIsBoundToThePipeline() {
        let chain = Chain.standard()
        let p = Pipeline(chain: chain, emit: { _ in })
        #expect(p.fixedChannels[0x0004] === chain.att)
        #expect(p.fixedChannels[0x0006] === chain.smp && p.fixedChannels[0x0007] === chain.smp)
        #expect(p.fixedChannels[0x0001] === chain.signaling && p.fixedChannels[0x0005] === chain.signaling)
        #expect(p.dynamicChannels === chain.signaling)
    }

    /// A list of closures in the pipeline, the chain or any stage would let a consumer join outside the chain.
    @Test func noStageKeepsCallbackLists() {
        let analyzer = Analyzer(sink: nil)
        analyzer.addAudio()
        analyzer.addActivityLog()
        var objects: [AnyObject] = [analyzer.pipeline, analyzer.chain]
        objects += analyzer.layers
        for o in objects {
            for child in Mirror(reflecting: o).children {
                let type = String(describing: Swift.type(of: child.value))
                #expect(!(type.contains("Array<") && type.contains("->")), "\(Swift.type(of: o)).\(child.label ?? "?"): \(type)")
            }
        }
    }
}
