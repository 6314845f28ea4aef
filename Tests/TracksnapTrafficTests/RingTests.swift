import Testing
import TracksnapTestSupport
import TracksnapTraffic

@Suite("A ring keeps items in the order they came and forgets the oldest first")
struct RingTests {
    @Test(
        "with a limit, each append past it drops the oldest and frees it at once; the items stay in order",
        arguments: [1, 2, 3, 8, 9])
    func limited(limit: Int) {
        var ring = Ring<Int>(limit: limit)
        var dropped: [Int] = []
        for item in 1...(3 * limit + 5) {
            if let gone = ring.append(item) { dropped.append(gone) }
            #expect(ring.retained == ring.count && ring.count <= limit)
        }
        #expect(dropped == Array(1...(2 * limit + 5)))
        #expect(ring.all == Array((2 * limit + 6)...(3 * limit + 5)))
    }

    @Test("without a limit it grows; forgetting and appending in turn keep the order, and a limit of 0 keeps nothing")
    func unlimited() {
        var ring = Ring<String>()
        for item in ["a", "b", "c"] { ring.append(item) }
        #expect(ring.removeOldest() == "a")
        for item in ["d", "e", "f"] { ring.append(item) }
        #expect(ring.removeOldest() == "b")
        #expect(ring.all == ["c", "d", "e", "f"] && ring.count == 4 && ring.retained == 4)
        ring.removeAll()
        #expect(ring.removeOldest() == nil && ring.all.isEmpty)
        ring.append("g")
        #expect(ring.all == ["g"])

        var none = Ring<Int>(limit: 0)
        #expect(none.append(1) == 1 && none.count == 0)
    }

    @Test(
        "appends and removals in any order hold what an array holds, through every growth, wrapped or not",
        arguments: [nil, 1, 5, 64] as [Int?])
    func likeAnArray(limit: Int?) {
        var random = SeededGenerator(seed: 30)
        var ring = Ring<String>(limit: limit)
        var model: [String] = []
        for step in 0..<2_000 {
            if Int.random(in: 0..<3, using: &random) == 0 {
                #expect(ring.removeOldest() == model.first)
                if !model.isEmpty { model.removeFirst() }
            } else {
                let dropped = ring.append("item \(step)")
                model.append("item \(step)")
                if let limit, model.count > limit {
                    #expect(dropped == model.removeFirst())
                } else {
                    #expect(dropped == nil)
                }
            }
            #expect(ring.all == model && ring.count == model.count && ring.retained == model.count)
        }
    }
}
