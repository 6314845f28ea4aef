import TracksnapJSON

/// JSON Schema's equality (`enum`, `const`, `uniqueItems`): numbers by value (`1` equals `1.0`),
/// objects by members whatever their order, never a boolean equal to a number.
enum JSONEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if x == y { return true }
            // Two integers that fit an Int, as most enums of numbers hold: without the exact reader.
            if let i = Int(x), let j = Int(y) { return i == j }
            return JSONValue.decimalKey(x).map { $0 == JSONValue.decimalKey(y) } ?? false
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// The value in a form `Hashable` agrees with `equal` on: each number written as its exact
    /// value's one key (`1`, `1.0` and `10e-1` all `1e0`); objects are dictionaries already,
    /// whatever their members' order. `uniqueItems` hashes items by it, in one pass.
    ///
    /// ```swift
    /// JSONEquality.canonical([1.0, ["b": 2, "a": 1]]) == JSONEquality.canonical([1, ["a": 1, "b": 2.0]])  // true
    /// ```
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text): .number(JSONValue.decimalKey(text) ?? text)
        case .array(let items): .array(items.map(canonical))
        case .object(let members): .object(members.mapValues(canonical))
        default: value
        }
    }

    /// The first pair of equal items, `(earlier, later)` with the smallest `later`, or nil
    /// when all differ: one pass, each item hashed once in its canonical form.
    static func firstDuplicate(in items: [JSONValue]) -> (Int, Int)? {
        var seen: [JSONValue: Int] = [:]
        seen.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let key = canonical(item)
            if let earlier = seen[key], equal(items[earlier], item) { return (earlier, index) }
            if seen[key] == nil { seen[key] = index }
        }
        return nil
    }
}
