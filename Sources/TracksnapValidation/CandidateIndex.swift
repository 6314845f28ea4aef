import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// Finds the captured values that could match an expected entry exactly, by hashing.
///
/// An entry's literal leaves (`/parameters/ev = "purchase"`) and their paths form its *shape*;
/// every captured value is projected onto each shape and hashed, so candidates are found in
/// one lookup instead of comparing every entry with every request. Candidates still have to be
/// verified with the full comparison (patterns, strictness).
struct CandidateIndex {
    private enum Step: Hashable {
        case key(String)
        case index(Int)
        case count
    }

    private struct Leaf: Hashable {
        var steps: [Step]
        /// Parameters and headers: compared by text.
        var lenient: Bool
    }

    private var shapes: [[Leaf]] = []
    private var shapeOfExpected: [Int] = []
    private var keyOfExpected: [String] = []
    private var actualsByKey: [[String: [Int]]] = []
    private var expectedByKey: [[String: [Int]]] = []
    private var keysOfActual: [[String]] = []

    /// - Parameters:
    ///   - tokens: where the values stand in their entry, for the ignore rules (empty for entries;
    ///     an array's path and `*` for the elements of a `$unordered`).
    ///   - lenient: the values are compared by text (inside `parameters` or `headers`).
    init(expected: [Matcher], actual: [JSONValue], ignore: IgnoreRules, tokens: [String] = [], lenient: Bool = false) {
        var shapeIndex: [[Leaf]: Int] = [:]
        for matcher in expected {
            var leaves: [(Leaf, String)] = []
            var tokens = tokens
            Self.collect(matcher, steps: [], tokens: &tokens, ignore: ignore, lenient: lenient, into: &leaves)
            let shape = leaves.map(\.0)
            let index =
                shapeIndex[shape]
                ?? {
                    shapes.append(shape)
                    shapeIndex[shape] = shapes.count - 1
                    return shapes.count - 1
                }()
            shapeOfExpected.append(index)
            keyOfExpected.append(leaves.map(\.1).joined(separator: "\u{1F}"))
        }
        actualsByKey = Array(repeating: [:], count: shapes.count)
        expectedByKey = Array(repeating: [:], count: shapes.count)
        for (e, shape) in shapeOfExpected.enumerated() {
            expectedByKey[shape][keyOfExpected[e], default: []].append(e)
        }
        keysOfActual = actual.map { value in shapes.map { Self.project(value, $0) } }
        for (a, keys) in keysOfActual.enumerated() {
            for (shape, key) in keys.enumerated() where expectedByKey[shape][key] != nil {
                actualsByKey[shape][key, default: []].append(a)
            }
        }
    }

    /// Captured values (ascending) whose literal leaves equal those of expected entry `e`.
    func candidates(forExpected e: Int) -> [Int] {
        actualsByKey[shapeOfExpected[e]][keyOfExpected[e]] ?? []
    }

    /// Expected entries (ascending) whose literal leaves equal those of captured value `a`.
    func candidates(forActual a: Int) -> [Int] {
        var result: [Int] = []
        for (shape, key) in keysOfActual[a].enumerated() {
            result += expectedByKey[shape][key] ?? []
        }
        return result.count > 1 ? result.sorted() : result
    }

    private static func collect(
        _ matcher: Matcher, steps: [Step], tokens: inout [String], ignore: IgnoreRules, lenient: Bool = false,
        into leaves: inout [(Leaf, String)]
    ) {
        let lenient = lenient || steps.first == .key("parameters") || steps.first == .key("headers")
        switch matcher {
        case .literal(let value):
            leaves.append((Leaf(steps: steps, lenient: lenient), text(value, lenient: lenient)))
        case .object(let members, _):
            for member in members {
                tokens.append(member.token)
                defer { tokens.removeLast() }
                if !ignore.isEmpty, ignore.ignores(tokens) { continue }
                collect(
                    member.matcher, steps: steps + [.key(member.key)], tokens: &tokens, ignore: ignore,
                    lenient: lenient, into: &leaves)
            }
        case .array(let items):
            leaves.append((Leaf(steps: steps + [.count], lenient: false), String(items.count)))
            for (index, item) in items.enumerated() {
                tokens.append(String(index))
                defer { tokens.removeLast() }
                if !ignore.isEmpty, ignore.ignores(tokens) { continue }
                collect(
                    item, steps: steps + [.index(index)], tokens: &tokens, ignore: ignore, lenient: lenient,
                    into: &leaves)
            }
        case .unordered(let items):
            // Its elements may stand anywhere: only its length is a literal leaf.
            leaves.append((Leaf(steps: steps + [.count], lenient: false), String(items.count)))
        default:
            break
        }
    }

    private static func project(_ value: JSONValue, _ shape: [Leaf]) -> String {
        var parts: [String] = []
        parts.reserveCapacity(shape.count)
        for leaf in shape {
            var current: JSONValue? = value
            var counted: String?
            for step in leaf.steps {
                switch step {
                case .key(let key): current = current?.objectValue?[key]
                case .index(let index):
                    guard let array = current?.arrayValue, index < array.count else {
                        current = nil
                        break
                    }
                    current = array[index]
                case .count: counted = current?.arrayValue.map { String($0.count) }
                }
            }
            parts.append(counted ?? current.map { text($0, lenient: leaf.lenient) } ?? "\u{0}")
        }
        return parts.joined(separator: "\u{1F}")
    }

    /// The hashed form of a scalar: its text, with the type unless compared by text, numbers by value.
    private static func text(_ value: JSONValue, lenient: Bool) -> String {
        if lenient { return value.scalarText ?? value.serialized() }
        if let decimal = value.decimalKey { return "n:" + decimal }
        return value.typeName + ":" + (value.scalarText ?? value.serialized())
    }
}
