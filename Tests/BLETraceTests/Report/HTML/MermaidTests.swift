import Testing
@testable import BLETrace

@Suite struct MermaidTests {
    @Test func escapesWhatMermaidTreatsSpecially() {
        #expect(MermaidSequences.escape("a;b#c") == "a#59;b#35;c")
        #expect(MermaidSequences.escape("x\ny\r\tz") == "x y  z")
        #expect(MermaidSequences.escape("<b>`") == "#lt;b#gt;'")
        #expect(MermaidSequences.escape("Read Response: 90%") == "Read Response: 90%")
    }

    @Test func markdownHasADiagramPerConnection() throws {
        let lines = try MarkdownTests.render(Samples.gattSession())
        let start = try #require(lines.firstIndex(of: "```mermaid"))
        #expect(lines[start - 2] == "### Sequence")
        #expect(lines[start + 1] == "sequenceDiagram")
        #expect(lines[start + 4] == "    participant P as Peer C4:7C:8D:6A:11:22")
        let end = try #require(lines[start...].firstIndex(of: "```"))
        let arrows = lines[start..<end].filter { $0.contains("->>") || $0.contains("--x") }
        #expect(arrows.contains("    H->>P: Read Request: handle 0x000E Battery Level (Battery)"))
        // Cut at a space before 56 characters (without the colon before it), then the latency.
        #expect(arrows.contains("    P-->>H: Read Response: handle 0x000E Battery Level (Battery)… (15.30 ms)"))
        // Never inside an address: the whole of it would not fit, so the label stops before it.
        #expect(arrows.first == "    C->>H: LE Connection Complete: handle 0x0040…")
        // Notifications of 89 %, 89 % and 88 %: only the equal values are one arrow.
        #expect(arrows.last == "    P->>H: Handle Value Notification: handle 0x000E Battery Level… ×2")
        // Nothing Mermaid would read as a statement end or an entity inside the arrows' text.
        for a in arrows { #expect(!a.contains(";") || a.contains("#59;")) }
    }

    @Test func diagramsAreBoundedAndPointAtTheRest() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        for i in 0..<10 {
            let h = UInt16(0x0040 + i)
            Samples.gattSession(s, handle: h, peer: BDAddr(0xC4_7C_8D_6A_11_00 + UInt64(i)), notifications: 200)
        }
        let lines = try MarkdownTests.render(s)
        #expect(lines.filter { $0 == "```mermaid" }.count == MermaidSequences.maxConnections)
        var inDiagram = false, arrows = 0
        for l in lines {
            if l == "```mermaid" { inDiagram = true; arrows = 0; continue }
            if inDiagram && l == "```" { inDiagram = false; #expect(arrows <= MermaidSequences.maxArrows); continue }
            if inDiagram && l.contains(">>") { arrows += 1 }
        }
        #expect(lines.contains { $0.contains("--records ") && $0.hasPrefix("The diagram shows the first 40 messages") })
        // The diagrams add at most about 3,000 characters per connection.
        var size = 0
        inDiagram = false
        for l in lines {
            if l == "```mermaid" { inDiagram = true } else if l == "```" { inDiagram = false }
            if inDiagram { size += l.count + 1 }
        }
        #expect(size < MermaidSequences.maxConnections * 3_600)
    }
}
