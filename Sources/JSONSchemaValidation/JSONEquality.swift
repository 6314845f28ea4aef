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
}
