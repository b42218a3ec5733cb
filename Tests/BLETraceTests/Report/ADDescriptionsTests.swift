import Testing
@testable import BLETrace

/// The memo of AD descriptions (issue #38): sets of two slots, the entry looked at or made last first.
@Suite struct ADDescriptionsTests {
    typealias Key = ADDescriptions.Key

    /// A complete local name ("adv-N") as AD data.
    static func data(_ n: Int) -> [UInt8] {
        let name = Array("adv-\(n)".utf8)
        return [UInt8(name.count + 1), 0x09] + name
    }

    /// The first three names (from `start` on) whose data choose the same set.
    static func sameSet(from start: Int = 0) -> [Key] {
        var bySet: [Int: [Key]] = [:]
        var n = start
        while true {
            let key = Key(data: data(n)[...], rssi: nil)
            bySet[key.set, default: []].append(key)
            if let keys = bySet[key.set], keys.count == 3 { return keys }
            n += 1
        }
    }

    static func description(_ text: String, json: [UInt8]? = nil) -> ADDescriptions.Description {
        ADDescriptions.Description(fields: .string(text), text: text, json: json)
    }

    @Test("two keys of one set both stay; a third puts out the one looked at least recently")
    func twoWays() throws {
        let keys = Self.sameSet()
        let (a, b, c) = (keys[0], keys[1], keys[2])
        #expect(a.set == b.set && b.set == c.set && a != b && b != c)
        let memo = ADDescriptions.Memo()
        #expect(memo.find(a) == nil)
        memo.keep(a, Self.description("a"))
        memo.keep(b, Self.description("b"))
        #expect(memo.find(a)?.text == "a")
        #expect(memo.find(b)?.text == "b")
        // b was looked at last: a goes.
        memo.keep(c, Self.description("c"))
        #expect(memo.find(a) == nil)
        #expect(memo.find(b)?.text == "b")
        #expect(memo.find(c)?.text == "c")
        // c was looked at last: b goes, and a is made again.
        memo.keep(a, Self.description("a"))
        #expect(memo.find(b) == nil)
        #expect(memo.find(c)?.text == "c")
        #expect(memo.find(a)?.text == "a")
    }

    @Test("a description that gains its JSON replaces its own entry, first or second in the set")
    func replacesItsOwn() throws {
        let keys = Self.sameSet(from: 1_000)
        let (a, b) = (keys[0], keys[1])
        let memo = ADDescriptions.Memo()
        memo.keep(a, Self.description("a"))
        memo.keep(b, Self.description("b"))
        memo.keep(b, Self.description("b", json: [0x7B, 0x7D]))
        memo.keep(a, Self.description("a", json: [0x5B, 0x5D]))
        #expect(memo.find(b)?.json == [0x7B, 0x7D])
        #expect(memo.find(a)?.json == [0x5B, 0x5D])
        #expect(memo.slots.compactMap { $0 }.count == 2)
    }

    @Test("a key kept holds its own copy of the data, and equal data finds it")
    func keyCopiesItsData() throws {
        let memo = ADDescriptions.Memo()
        var buffer: [UInt8] = [0xEE] + Self.data(7) + [0xEE]
        let key = Key(data: buffer[1 ..< buffer.count - 1], rssi: -60)
        memo.keep(key, Self.description("seven"))
        buffer.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        #expect(memo.find(Key(data: Self.data(7)[...], rssi: -60))?.text == "seven")
        #expect(memo.find(Key(data: Self.data(7)[...], rssi: -61)) == nil)
    }

    @Test("descriptions through the shared memo read the same as made afresh")
    func sharedMemo() {
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x06, 0x09] + Array("Therm".utf8)
        let made = ADParser.describe(ADParser.parse(data[...]), rssi: -50)
        for _ in 0 ..< 3 {
            #expect(ADDescriptions.text(data[...], rssi: -50) == made.text)
            let json = ADDescriptions.describeJSON(data[...], rssi: -50)
            #expect(json.fields == made.fields)
            var bytes: [UInt8] = []
            JSONOut.write(made.fields, into: &bytes)
            #expect(json.json == bytes)
        }
    }
}
