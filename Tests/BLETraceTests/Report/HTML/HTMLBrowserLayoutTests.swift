import Foundation
import XCTest
@testable import BLETrace

/// Issue #27's HTML fixes seen as a browser lays the page out: a probe script appended to the rendered report
/// measures the DOM in headless Chromium (text boxes with `getBBox`, rows, markers, points) and writes what it
/// found into the page, which `--dump-dom` returns. Skipped when chromium is not installed.
final class HTMLBrowserLayoutTests: XCTestCase {
    /// Measures the page; one `key=value` line per fact, in `<pre id="probe">`.
    static let probe = """
    <script>(function(){
    var out=[];function put(k,v){out.push(k+'='+v);}
    function all(root,sel){return Array.prototype.slice.call(root.querySelectorAll(sel));}
    function texts(root,sel){return all(root,sel).map(function(e){return e.textContent;});}
    function overlapping(list){var n=0;for(var i=0;i<list.length;i++)for(var j=i+1;j<list.length;j++){
      var a=list[i].getBBox(),b=list[j].getBBox();
      if(a.x<b.x+b.width&&b.x<a.x+a.width&&a.y<b.y+b.height&&b.y<a.y+a.height)n++;}return n;}
    function outside(svg){var w=svg.viewBox.baseVal.width,n=0;all(svg,'text').forEach(function(t){var b=t.getBBox();if(b.x<-0.5||b.x+b.width>w+0.5)n++;});return n;}
    var rows=all(document,'table.devices tr');put('device-rows',rows.length-1);
    put('devices',texts(document,'table.devices td:first-child').join(' '));
    put('connection-rows',texts(document,'h3[id^="connection-"] + table th').join('|'));
    put('connection-values',texts(document,'h3[id^="connection-"] + table td').join('|'));
    put('encryption-markers',all(document,'svg.connections circle.m-encryption').length);
    put('identity',texts(document,'table.identity tr').join('|'));
    all(document,'svg.sequence').forEach(function(s,i){put('sequence-outside-'+i,outside(s));if(i==0)put('sequence-labels',texts(s,'text.label').join('|'));});
    var lat=document.querySelector('svg[aria-label="ATT response latency distribution"]');
    if(lat){put('latency-bars',all(lat,'rect.bar').length);put('mark-labels',all(lat,'text.mark-label').length);
      put('mark-overlaps',overlapping(all(lat,'text.mark-label')));put('tick-overlaps',overlapping(all(lat,'text.tick')));put('latency-outside',outside(lat));}
    var tp=document.querySelector('svg[aria-label^="throughput of connection"]');
    if(tp){var l=tp.querySelector('polyline');put('throughput-first-x',l.points.getItem(0).x);put('throughput-last-x',l.points.getItem(l.points.numberOfItems-1).x);}
    all(document,'div.rssi').forEach(function(d){put('rssi-lines '+d.getAttribute('data-device'),all(d,'polyline').length);});
    put('timeline',document.getElementById('timeline')?1:0);
    var pre=document.createElement('pre');pre.id='probe';pre.textContent=out.join('\\n');document.body.appendChild(pre);})();</script>
    """

    /// The probe's facts for `html`, as the browser measured them.
    static func probe(_ html: String) throws -> [String: String] {
        let page = TestSupport.temporaryFile(Array(html.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8), suffix: ".html")
        defer { try? FileManager.default.removeItem(atPath: page) }
        let dom = String(decoding: try HTMLBrowserTests.runChromium(["--dump-dom"], page: page), as: UTF8.self)
        guard let a = dom.range(of: "<pre id=\"probe\">"), let b = dom[a.upperBound...].range(of: "</pre>") else { return [:] }
        var facts: [String: String] = [:]
        for line in dom[a.upperBound..<b.lowerBound].split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            facts[String(line[..<eq])] = String(line[line.index(after: eq)...]).replacingOccurrences(of: "&amp;", with: "&")
        }
        return facts
    }

    /// A scan with a five-minute pause, then, 100 s in, the GATT session (notified 89 %, 89 %, 88 %; an error).
    static func lateSession() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: Samples.local)
        s.startScan()
        for burst in 0..<2 {
            for i in 0..<20 {
                s.advert(addressType: 1, address: Samples.watch, data: HCIBuilder.ad(0x01, [0x06]), rssi: Int8(-60 - i % 5))
                s.advance(ms: 200)
            }
            if burst == 0 { s.advance(ms: 300_000) }
        }
        s.advance(ms: 100_000)
        Samples.gattSession(s, handle: 0x0040, peer: Samples.thermo)
        return s
    }

    func testSequenceChartsAndIdentityAsLaidOut() throws {
        guard HTMLBrowserTests.chromium != nil else { throw XCTSkip("chromium is not installed") }
        let f = try HTMLBrowserLayoutTests.probe(try HTMLReportTests.render(HTMLBrowserLayoutTests.lateSession().writer.bytes))
        XCTAssertEqual(f["timeline"], "1", "no probe output")
        // Identity in the text summary's words.
        let identity = try XCTUnwrap(f["identity"])
        XCTAssertTrue(identity.contains("AppearanceThermometer"), identity)
        XCTAssertTrue(identity.contains("PnP IDSIG vendor 0x0059 (Nordic Semiconductor ASA) product 0x0001 version 1.0.0"), identity)
        XCTAssertFalse(identity.contains("vendor_id_source") || identity.contains("category"), identity)
        // Sequence: equal values collapse, the error keeps its name, and no text leaves the picture.
        let labels = try XCTUnwrap(f["sequence-labels"]).split(separator: "|").map(String.init)
        XCTAssertTrue(labels.contains("Handle Value Notification: handle 0x000E Battery Level (Battery): 89% ×2"), "\(labels)")
        XCTAssertTrue(labels.contains("Handle Value Notification: handle 0x000E Battery Level (Battery): 88%"), "\(labels)")
        XCTAssertTrue(labels.contains { $0.hasSuffix(": Read Not Permitted (15.30 ms)") }, "\(labels)")
        XCTAssertEqual(f["sequence-outside-0"], "0")
        // Latency: bins from the data, percentile and bin labels apart, inside the picture.
        XCTAssertGreaterThan(Int(f["latency-bars"] ?? "") ?? 0, 3)
        XCTAssertEqual(f["mark-labels"], "3")
        XCTAssertEqual(f["mark-overlaps"], "0")
        XCTAssertEqual(f["tick-overlaps"], "0")
        XCTAssertEqual(f["latency-outside"], "0")
        // Throughput over the connection's lifetime: from the plot's left edge (x 56) to near its right (628).
        XCTAssertLessThan(Double(f["throughput-first-x"] ?? "") ?? 999, 56 + 572 / 5)
        XCTAssertGreaterThan(Double(f["throughput-last-x"] ?? "") ?? 0, 628 - 572 / 5)
        // RSSI: the five-minute pause breaks the line.
        XCTAssertEqual(f["rssi-lines \(Samples.watch)"], "2")
    }

    func testSummaryOnlyPageHasNoTimeline() throws {
        guard HTMLBrowserTests.chromium != nil else { throw XCTSkip("chromium is not installed") }
        let path = TestSupport.temporaryFile(Samples.gattSession().writer.bytes, suffix: ".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var run = AnalyzeRun()
        run.format = .html
        run.summaryOnly = true
        let out = OutputWriter()
        _ = try run.run(open: { try InputOpener.open(path: path) }, path: path, out: out)
        let f = try HTMLBrowserLayoutTests.probe(out.text)
        XCTAssertEqual(f["timeline"], "0")
        XCTAssertNotNil(f["latency-bars"])
    }

    /// Connected devices lead the devices table of a scan with 120 devices.
    func testConnectedDeviceIsInTheTable() throws {
        guard HTMLBrowserTests.chromium != nil else { throw XCTSkip("chromium is not installed") }
        let s = Scenario(format: .btsnoop(datalink: 1002))
        for i in 0..<120 {
            s.advert(addressType: 1, address: BDAddr(0xC0_00_00_00_10_00 + UInt64(i)), data: HCIBuilder.ad(0x01, [0x06]), rssi: -70)
        }
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.disconnect(handle: 0x0040)
        let f = try HTMLBrowserLayoutTests.probe(try HTMLReportTests.render(s.writer.bytes, path: "many.btsnoop"))
        XCTAssertEqual(f["device-rows"], "100")
        XCTAssertEqual(f["devices"]?.split(separator: " ").first.map(String.init), Samples.thermo.description)
    }

    /// Sniffer captures (crackle's, when ../shared/captures is present): the peer's role, the keys and
    /// results, and the encryption marker.
    func testSnifferConnectionAsLaidOut() throws {
        guard HTMLBrowserTests.chromium != nil else { throw XCTSkip("chromium is not installed") }
        guard let path = HTMLReportFixesTests.shared(HTMLReportFixesTests.crackle) else { throw XCTSkip("no shared captures") }
        let f = try HTMLBrowserLayoutTests.probe(try HTMLReportTests.render(file: path))
        let rows = try XCTUnwrap(f["connection-rows"]).split(separator: "|").map(String.init)
        XCTAssertFalse(rows.contains("Local role"))
        for r in ["Roles", "TK cracked", "STK", "LTK", "Decrypted"] { XCTAssertTrue(rows.contains(r), r) }
        XCTAssertTrue(try XCTUnwrap(f["connection-values"]).contains("7f62c053f104a5bbe68b1d896a2ed49c (distributed at record 589)"))
        XCTAssertEqual(f["encryption-markers"], "1")
        XCTAssertEqual(f["sequence-outside-0"], "0")
    }
}
