import Testing
@testable import BLETrace

@Suite("InPlaceArray: the links' storage")
struct InPlaceArrayTests {
    /// Counts its instances alive, to show the array releases what it holds.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let n: Int
        init(_ n: Int) { self.n = n; Tracked.alive += 1 }
        deinit { Tracked.alive -= 1 }
    }

    @Test func growsKeepsOrderAndChangesInPlace() {
        let a = InPlaceArray<[Int]>(capacity: 1)
        #expect(a.isEmpty)
        for i in 0..<100 { a.append([i]) }
        #expect(a.count == 100 && !a.isEmpty)
        #expect(a.elements.map { $0[0] } == Array(0..<100))
        a[42].append(7)
        a[99][0] = -1
        #expect(a[42] == [42, 7] && a[99] == [-1] && a[0] == [0])
        a.append(repeating: [5], count: 3)
        #expect(a.count == 103 && a[100] == [5] && a[102] == [5])
        a.append(repeating: [9], count: 0)
        #expect(a.count == 103)
    }

    @Test func releasesItsElements() {
        Tracked.alive = 0
        do {
            let a = InPlaceArray<Tracked>(capacity: 2)
            for i in 0..<10 { a.append(Tracked(i)) }
            a.append(repeating: Tracked(99), count: 4)
            #expect(Tracked.alive == 11)
            #expect(a[3].n == 3 && a[13].n == 99)
        }
        #expect(Tracked.alive == 0)
    }
}
