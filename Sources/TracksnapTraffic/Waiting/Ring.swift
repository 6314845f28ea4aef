/// Items in the order they came, forgetting the oldest first: the one ring buffer behind the
/// capture's request logs (`RequestLog`) and the server store's answers and observations
/// (`RecentByID`). Appending and forgetting cost O(1) amortized; a forgotten item is freed at
/// once (its slot emptied), not when the storage is next compacted.
///
/// ```swift
/// var ring = Ring<String>(limit: 2)
/// ring.append("a"); ring.append("b")
/// ring.append("c")  // "a": dropped to stay within the limit
/// ring.all          // ["b", "c"]
/// ```
package struct Ring<Element> {
    /// The most items kept, or nil for no limit.
    package let limit: Int?
    /// `count` items from `start`, wrapping around; the other slots are empty.
    private var storage: [Element?] = []
    private var start = 0
    package private(set) var count = 0

    package init(limit: Int? = nil) {
        self.limit = limit
    }

    /// Oldest first.
    package var all: [Element] { latest(count) }

    /// The latest `count` items (all of them when fewer are held), oldest first.
    package func latest(_ count: Int) -> [Element] {
        let taken = min(max(count, 0), self.count)
        return (self.count - taken..<self.count).compactMap { storage[(start + $0) % storage.count] }
    }

    /// How many slots hold an item: `count`, so that a test can show a dropped item is freed.
    package var retained: Int { storage.lazy.filter { $0 != nil }.count }

    /// Appends an item after the others; when the ring is at its limit, the oldest goes first.
    ///
    /// - Returns: the item dropped to stay within the limit (the new one itself with a limit of 0).
    @discardableResult
    package mutating func append(_ element: Element) -> Element? {
        var dropped: Element?
        if let limit, count >= limit {
            guard limit > 0 else { return element }
            dropped = removeOldest()
        }
        if count == storage.count { grow() }
        storage[(start + count) % storage.count] = element
        count += 1
        return dropped
    }

    /// Forgets the oldest item, and returns it.
    @discardableResult
    package mutating func removeOldest() -> Element? {
        guard count > 0 else { return nil }
        let oldest = storage[start]
        storage[start] = nil
        start = (start + 1) % storage.count
        count -= 1
        return oldest
    }

    package mutating func removeAll() {
        storage = []
        start = 0
        count = 0
    }

    /// Doubles the storage (never beyond the limit), the items laid out from its first slot.
    /// Called when every slot is full. Items already laid out from the first slot (always so
    /// without a limit) are moved by the array's own growth, not copied one by one: a copy
    /// retained every field of every request the store held, a fiftieth of the collector's time.
    private mutating func grow() {
        let doubled = max(1, count * 2)
        let capacity = limit.map { min($0, doubled) } ?? doubled
        if start != 0 {
            storage = Array(storage[start...] + storage[..<start])
            start = 0
        }
        storage.append(contentsOf: repeatElement(nil, count: capacity - storage.count))
    }
}

extension Ring: Sendable where Element: Sendable {}
