import TracksnapTraffic

/// What the store keeps for its latest requests, by request id, oldest first: the answers the
/// server gave (`CapturedAnswer`) and what is observed of each request (`Observation`). The one home of
/// the "forget the oldest first" bookkeeping both had written out: an id's first value is
/// appended, a later one replaces it in place, and `removeOldest()` forgets in the order the ids
/// came. The ids' order is a `Ring`, the one the request log is kept in: each forgetting costs
/// O(1) amortized.
struct RecentByID<Value> {
    private var values: [String: Value] = [:]
    private var order = Ring<String>()

    /// How many ids are kept.
    var count: Int { order.count }

    subscript(id: String) -> Value? { values[id] }

    /// Keeps `value` for `id`, after the others if the id is new; returns the value it replaced.
    @discardableResult
    mutating func keep(_ value: Value, for id: String) -> Value? {
        let old = values.updateValue(value, forKey: id)
        if old == nil { order.append(id) }
        return old
    }

    /// Forgets the oldest id kept, and returns its value.
    @discardableResult
    mutating func removeOldest() -> Value? {
        guard let oldest = order.removeOldest() else { return nil }
        return values.removeValue(forKey: oldest)
    }

    mutating func removeAll() {
        values = [:]
        order.removeAll()
    }
}
