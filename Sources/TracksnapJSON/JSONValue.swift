import Foundation

/// A JSON value as tracksnap reads and writes it.
///
/// Numbers keep the text they were written with, so that `12.50` in a snapshot is shown as
/// written and a `$regex` can match a number by its JSON text.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as the JSON text it was written with (`12.5`, `-3`, `1e6`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public static func number(_ value: Int) -> JSONValue { .number(String(value)) }
    /// A number from a `Double`: integral values without a fraction (`3`, not `3.0`).
    ///
    /// ```swift
    /// JSONValue.number(12.5)  // .number("12.5")
    /// ```
    /// JSON has no NaN or infinity: like JavaScript's `JSON.stringify`, they become `null`
    /// (writing `nan` or `inf` would produce a file no JSON reader accepts).
    public static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value.rounded() == value, abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// The JSON type name used by `$type`: `string`, `number`, `boolean`, `object`, `array`, `null`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The text a scalar is matched by: a string's contents, a number's or boolean's JSON text.
    /// `nil` for objects and arrays.
    package var scalarText: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .array, .object: nil
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
