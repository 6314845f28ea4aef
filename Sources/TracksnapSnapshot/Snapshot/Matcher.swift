public import JSONSchemaValidation
public import Patterns
public import TracksnapJSON

/// An expectation about one JSON value, as a snapshot file writes it.
///
/// A plain JSON value is a literal; objects match as a subset, arrays element by element.
/// Patterns are written explicitly:
/// ```json
/// { "order_id": { "$regex": "o-[0-9]+" }, "ts": { "$type": "string" }, "debug": { "$absent": true },
///   "items": { "$jsonSchema": { "type": "array", "minItems": 1 } },
///   "signals": { "$unordered": [{ "type": "appLaunched" }, { "type": "screenShown" }] } }
/// ```
public indirect enum Matcher: Sendable, Hashable {
    /// A scalar that must be equal (numbers compare by value; in parameters and headers, whose
    /// captured values are always strings, a number or boolean compares by its JSON text).
    case literal(JSONValue)
    /// `{"$regex": "…"}`: a PCRE2 pattern the whole value must match; numbers and booleans by their JSON text.
    case regex(Pattern)
    /// `{"$type": "…"}`: any value of that JSON type.
    case type(ValueType)
    /// `{"$any": true}`: present, with any value.
    case any
    /// `{"$absent": true}`: must not be present.
    case absent
    /// `{"$literal": …}`: exactly this value, with no matcher inside (for keys beginning with `$`).
    case exact(JSONValue)
    /// An object: every member must match; with `strict`, no other key may be present.
    case object([Member], strict: Bool?)
    /// An array, element by element.
    case array([Matcher])
    /// `{"$unordered": […]}`: an array holding exactly these elements in any order (a set, or a
    /// multiset when an element repeats); its elements are paired with the captured ones by
    /// content, as entries are under `"order": "any"`.
    case unordered([Matcher])
    /// A Szimpla string: the literal value, or an anchored pattern that matches it.
    case szimpla(String, Pattern?)
    /// `{"$jsonSchema": {…}}`: a value the JSON Schema accepts (draft-07 unless its `$schema`
    /// says otherwise).
    case jsonSchema(SchemaMatcher)

    /// A compiled JSON Schema with the JSON it was written as, which is what two of them
    /// compare by.
    public struct SchemaMatcher: Sendable, Hashable {
        public let schema: JSONSchema
        /// The schema as the snapshot writes it.
        public let json: JSONValue
        /// Where the `$jsonSchema` object stands in its snapshot: a failure's keyword is there.
        public let pointer: String

        public init(schema: JSONSchema, json: JSONValue, pointer: String) {
            self.schema = schema
            self.json = json
            self.pointer = pointer
        }

        public static func == (a: SchemaMatcher, b: SchemaMatcher) -> Bool {
            a.json == b.json && a.pointer == b.pointer
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(json)
            hasher.combine(pointer)
        }
    }

    /// One member of an object matcher.
    public struct Member: Sendable, Hashable {
        /// The key looked up in the captured value (lower-cased for headers).
        public var key: String
        /// The key as the snapshot file writes it, for JSON Pointers.
        public var token: String
        public var matcher: Matcher

        public init(key: String, token: String? = nil, matcher: Matcher) {
            self.key = key
            self.token = token ?? key
            self.matcher = matcher
        }

        /// A data key as a snapshot file writes it: one beginning with `$` (Mixpanel's `$os`) gets
        /// another `$`, so that it does not read as a matcher.
        ///
        /// ```swift
        /// Matcher.Member.token(for: "$os")  // "$$os"
        /// ```
        public static func token(for key: String) -> String {
            key.hasPrefix("$") ? "$" + key : key
        }
    }

    /// The JSON types `$type` accepts.
    public enum ValueType: String, Sendable, CaseIterable {
        case string, number, integer, boolean, object, array, null

        public func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.number, .number), (.boolean, .bool), (.object, .object),
                (.array, .array), (.null, .null):
                true
            case (.integer, .number(let text)):
                !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            default:
                false
            }
        }
    }

    /// The matcher written back as the JSON a snapshot holds (`{"$regex": "…"}`), for reports.
    public var json: JSONValue {
        switch self {
        case .literal(let value): value
        case .regex(let pattern): ["$regex": .string(pattern.source)]
        case .type(let type): ["$type": .string(type.rawValue)]
        case .any: ["$any": true]
        case .absent: ["$absent": true]
        case .exact(let value): ["$literal": value]
        case .object(let members, _):
            .object(Dictionary(members.map { ($0.token, $0.matcher.json) }, uniquingKeysWith: { _, last in last }))
        case .array(let items): .array(items.map(\.json))
        case .unordered(let items): ["$unordered": .array(items.map(\.json))]
        case .szimpla(let string, _): .string(string)
        case .jsonSchema(let matcher): ["$jsonSchema": matcher.json]
        }
    }

    /// Whether a value (nil: absent) satisfies the matcher, without explaining why not.
    ///
    /// Used by filters and identity checks; validation uses `Comparator` for findings.
    public func accepts(_ value: JSONValue?, lenient: Bool = false) -> Bool {
        switch self {
        case .absent: return value == nil
        case .any: return value != nil
        default: break
        }
        guard let value else { return false }
        switch self {
        case .literal(let expected): return Matcher.literalEquals(expected, value, lenient: lenient)
        case .regex(let pattern):
            guard let text = value.scalarText else { return false }
            return (try? pattern.matches(text)) ?? false
        case .type(let type): return type.accepts(value)
        case .exact(let expected): return Matcher.literalEquals(expected, value, lenient: false)
        case .object(let members, let strict):
            guard let object = value.objectValue else { return false }
            if strict == true, object.keys.contains(where: { key in !members.contains { $0.key == key } }) {
                return false
            }
            return members.allSatisfy { $0.matcher.accepts(object[$0.key], lenient: lenient) }
        case .array(let items):
            guard let array = value.arrayValue, array.count == items.count else { return false }
            return zip(items, array).allSatisfy { $0.accepts($1, lenient: lenient) }
        case .unordered(let items):
            guard let array = value.arrayValue, array.count == items.count else { return false }
            // Accepted when some pairing accepts every element: the least-cost assignment costs 0.
            let pairing = Assignment.minimumCost(rows: items.count, columns: array.count) { e, a in
                items[e].accepts(array[a], lenient: lenient) ? 0 : 1
            }
            return pairing.enumerated().allSatisfy { e, a in a >= 0 && items[e].accepts(array[a], lenient: lenient) }
        case .szimpla(let string, let pattern):
            guard let text = value.scalarText else { return false }
            return text == string || ((try? pattern?.matches(text)) ?? false) == true
        case .jsonSchema(let matcher): return matcher.schema.isValid(value)
        case .absent, .any: return true
        }
    }

    /// `accepts(_:)`, or the error of a pattern that could not decide (PCRE2's match or depth
    /// limit) in a `$regex`, a Szimpla pattern or a `$jsonSchema`: a profile's filter fails the
    /// run with it rather than drop the request.
    public func decide(_ value: JSONValue?) throws(PatternError) -> Bool {
        guard let value else { return accepts(nil) }
        switch self {
        case .regex(let pattern):
            guard let text = value.scalarText else { return false }
            return try pattern.matches(text)
        case .szimpla(let string, let pattern):
            guard let text = value.scalarText else { return false }
            if text == string { return true }
            return try pattern?.matches(text) == true
        case .jsonSchema(let matcher): return try matcher.schema.decide(value)
        default: return accepts(value)
        }
    }

    /// Literal equality: numbers by their exact decimal value, everything else exactly; with `lenient`, a number or
    /// boolean also equals a string holding its JSON text.
    public static func literalEquals(_ expected: JSONValue, _ actual: JSONValue, lenient: Bool) -> Bool {
        switch (expected, actual) {
        case (.number(let a), .number(let b)):
            return a == b || (JSONValue.decimalKey(a).map { $0 == JSONValue.decimalKey(b) } ?? false)
        case (.number, .string(let text)) where lenient, (.bool, .string(let text)) where lenient:
            return expected.scalarText == text
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { literalEquals($0, $1, lenient: lenient) }
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && a.allSatisfy { key, value in b[key].map { literalEquals(value, $0, lenient: lenient) } ?? false }
        default:
            return expected == actual
        }
    }
}
