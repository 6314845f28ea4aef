import Testing

@testable import TracksnapServer

@Suite("What the store keeps for its latest requests, by id, oldest forgotten first")
struct RecentByIDTests {
    @Test("a new id goes last, a known one is replaced in place, and the oldest is forgotten first")
    func order() {
        var kept = RecentByID<Int>()
        #expect(kept.keep(1, for: "a") == nil)
        #expect(kept.keep(2, for: "b") == nil)
        #expect(kept.keep(3, for: "a") == 1)
        #expect(kept.count == 2)
        #expect(kept.removeOldest() == 3)
        #expect(kept["a"] == nil)
        #expect(kept["b"] == 2)
        #expect(kept.removeOldest() == 2)
        #expect(kept.removeOldest() == nil)
        #expect(kept.count == 0)
    }

    @Test("kept as a window of 100 over 10,000 ids, it holds exactly the latest 100")
    func window() {
        var kept = RecentByID<Int>()
        for number in 0..<10_000 {
            kept.keep(number, for: String(number))
            if kept.count > 100 { kept.removeOldest() }
        }
        #expect(kept.count == 100)
        #expect(kept["9899"] == nil)
        #expect((9_900..<10_000).allSatisfy { kept[String($0)] == $0 })
        kept.removeAll()
        #expect(kept.count == 0 && kept["9999"] == nil)
    }
}
