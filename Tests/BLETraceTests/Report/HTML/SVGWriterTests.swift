import Testing
@testable import BLETrace

@Suite struct SVGWriterTests {
    @Test func escapesMarkupCharacters() {
        #expect(SVGWriter.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(SVGWriter.escape("plain ✓ text") == "plain ✓ text")
        var w = SVGWriter(width: 10, height: 10)
        w.text(1, 2, "<script>&")
        #expect(w.body == "<text x=\"1\" y=\"2\">&lt;script&gt;&amp;</text>")
        #expect(w.svg(label: "a\"b").contains("aria-label=\"a&quot;b\""))
    }

    @Test func numbersHaveOneDecimalAtMost() {
        #expect(SVGWriter.num(12) == "12")
        #expect(SVGWriter.num(12.04) == "12")
        #expect(SVGWriter.num(12.06) == "12.1")
        #expect(SVGWriter.num(-0.35) == "-0.4" || SVGWriter.num(-0.35) == "-0.3")
        #expect(SVGWriter.num(-7.5) == "-7.5")
        #expect(SVGWriter.num(.nan) == "0")
        #expect(SVGWriter.num(.infinity) == "0")
    }

    @Test func polylineWritesItsPointsAndTheirNumber() {
        var w = SVGWriter(width: 100, height: 50)
        w.polyline([(0, 50), (12.5, 20.25), (100, 0)], class: "series s0")
        #expect(w.body == "<polyline data-points=\"3\" points=\"0,50 12.5,20.3 100,0\" class=\"series s0\"/>")
    }

    @Test func scaleMapsDomainOntoRange() {
        let s = LinearScale(domain: (0, 10), range: (100, 200))
        #expect(s.map(0) == 100)
        #expect(s.map(5) == 150)
        #expect(s.map(10) == 200)
        // A y axis runs upwards: larger values map to smaller coordinates.
        let y = LinearScale(domain: (-100, 0), range: (180, 20))
        #expect(y.map(-100) == 180)
        #expect(y.map(-50) == 100)
        #expect(LinearScale(domain: (3, 3), range: (7, 9)).map(3) == 7)
    }

    @Test func ticksAreRoundValues() {
        #expect(Ticks.values(lo: 0, hi: 10, count: 5) == [0, 2, 4, 6, 8, 10])
        #expect(Ticks.values(lo: 0, hi: 1, count: 5) == [0, 0.2, 0.4, 0.6, 0.8, 1])
        #expect(Ticks.values(lo: -95, hi: -40, count: 4) == [-90, -80, -70, -60, -50, -40])
        #expect(Ticks.values(lo: 3, hi: 1234, count: 5) == [200, 400, 600, 800, 1000, 1200])
        #expect(Ticks.step(lo: 0, hi: 73, count: 4) == 20)
        #expect(Ticks.niceMax(87) == 100)
        #expect(Ticks.niceMax(0) == 1)
        #expect(Ticks.label(0.30000000000000004) == "0.3")
        #expect(Ticks.label(1500) == "1500")
        #expect(Ticks.label(-2.5) == "-2.5")
    }

    @Test func downsamplerStaysBoundedAndEven() {
        var d = Downsampler(capacity: 10)
        for i in 0..<10 { d.add(x: Double(i), y: 0) }
        #expect(d.points.count == 10 && d.stride == 1)
        for i in 10..<1000 { d.add(x: Double(i), y: 0) }
        #expect(d.offered == 1000)
        #expect(d.points.count <= 10)
        // Every kept point is a multiple of the stride, in order.
        #expect(d.points.map { Int($0.x) } == Array(stride(from: 0, to: 1000, by: d.stride)))
    }

    /// A close ten years after the last amount (a clock jump) widens the buckets: the points stay bounded.
    @Test func aFarEndKeepsThePointsBounded() {
        var b = BucketSeries(origin: 0, width: 1_000_000, maxBuckets: 240)
        b.add(at: 500_000, 8)
        let points = b.ratePoints(until: 315_360_000_000_000)
        #expect(!points.isEmpty && points.count <= 480)
        #expect(points.reduce(0) { $0 + $1.y } > 0)
    }

    @Test func bucketsMergeWhenTheSpanGrows() {
        var b = BucketSeries(origin: 1_000_000, width: 1_000_000, maxBuckets: 4)
        b.add(at: 1_000_000, 10)
        b.add(at: 2_500_000, 20)
        #expect(b.buckets == [10, 20])
        b.add(at: 5_200_000, 30)
        // Bucket 4 needs a wider bucket: pairs merge and the width doubles.
        #expect(b.width == 2_000_000)
        #expect(b.buckets == [30, 0, 30])
        #expect(b.total == 60)
        #expect(b.ratePoints(until: 7_000_000).map { $0.y } == [15, 0, 15])
        #expect(b.ratePoints(until: 7_000_000).map { $0.x } == [1, 3, 5])
        // To a close at 11 s: two more buckets of nothing.
        #expect(b.ratePoints(until: 11_000_000).map { $0.y } == [15, 0, 15, 0, 0])
        // A last part of 1.4 s is a rate over 1.4 s, at its middle; one of 0.6 s joins the bucket before it.
        #expect(b.ratePoints(until: 6_400_000).map { $0.x } == [1, 3, 4.7])
        #expect(abs((b.ratePoints(until: 6_400_000).last?.y ?? 0) - 30 / 1.4) < 1e-9)
        #expect(b.ratePoints(until: 5_600_000).map { $0.x } == [1, 3.3])
        #expect(abs((b.ratePoints(until: 5_600_000).last?.y ?? 0) - 30 / 2.6) < 1e-9)
    }

    @Test func percentilesByNearestRank() {
        let v: [Int64] = (1...100).map { Int64($0) }
        #expect(LatencySample.percentile(v, 50) == 50)
        #expect(LatencySample.percentile(v, 95) == 95)
        #expect(LatencySample.percentile(v, 99) == 99)
        #expect(LatencySample.percentile([7], 99) == 7)
        #expect(LatencySample.percentile([], 50) == nil)
        var s = LatencySample(capacity: 10)
        for i in 0..<1000 { s.add(Int64(i)) }
        #expect(s.count == 1000 && s.values.count == 10)
    }

    @Test func lineChartDrawsEachSeriesInsideThePlot() {
        let pts: [(x: Double, y: Double)] = [(0, -60), (1, -70), (2, -65)]
        let svg = SVGChart.line([SVGChart.Series(name: "RSSI", points: pts, style: "s0")], label: "RSSI", xTitle: "s", yTitle: "dBm",
                                width: 300, height: 100, yMin: -80, yMax: -60)
        #expect(svg.hasPrefix("<svg viewBox=\"0 0 300 100\""))
        #expect(svg.contains("data-points=\"3\""))
        // x 0…2 onto 62…282 (6 inside the plot's 56…288), y -80…-60 onto 66…22.
        #expect(svg.contains("points=\"62,22 172,44 282,33\""))
        #expect(!svg.contains("http"))
    }
}
