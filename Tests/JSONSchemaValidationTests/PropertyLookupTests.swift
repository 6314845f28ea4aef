import JSONSchemaValidation
import Testing
import TracksnapJSON

/// `properties` finds a member's schema by comparing names rather than hashing them, up to a
/// few dozen names, and checks the node's `required` as it goes while only validity is wanted:
/// `isValid` and `validate` must agree with each other and with a `Dictionary`'s lookup.
@Suite("properties and required found without hashing")
struct PropertyLookupTests {
    /// An object schema of `count` integer properties `p0`…, requiring the second and the last.
    private static func schema(count: Int) throws -> JSONSchema {
        let names = (0..<count).map { "p\($0)" }
        return try JSONSchema(
            .object([
                "type": .string("object"),
                "properties": .object(Dictionary(uniqueKeysWithValues: names.map { ($0, ["type": "integer"]) })),
                "required": .array([.string(names[1]), .string(names[count - 1])]),
            ]))
    }

    @Test(
        "a required property is missing, or a property is of the wrong type, with few or many properties",
        arguments: [3, 30, 70])
    func required(count: Int) throws {
        let schema = try Self.schema(count: count)
        let all = Dictionary(uniqueKeysWithValues: (0..<count).map { ("p\($0)", JSONValue.number(1)) })
        let cases: [(JSONValue, [String])] = [
            (.object(all), []),
            (.object(["p1": .number(1), "p\(count - 1)": .number(2), "other": .string("x")]), []),
            (.object(all.filter { $0.key != "p1" }), ["\"p1\" is a required property"]),
            (.object(all.filter { $0.key != "p\(count - 1)" }), ["\"p\(count - 1)\" is a required property"]),
            (.object(all.merging(["p0": .string("x")]) { $1 }), ["\"x\" is not of type integer"]),
        ]
        for (instance, messages) in cases {
            #expect(schema.isValid(instance) == messages.isEmpty, "\(count) properties: \(instance)")
            #expect(schema.validate(instance).map(\.message) == messages, "\(count) properties: \(instance)")
        }
    }

    @Test(
        "an object's failures are listed in its keys' order, whatever order its dictionary holds them in: a report is the same in every run",
        arguments: [
            "properties", "additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties",
        ])
    func failuresInKeyOrder(keyword: String) throws {
        let names = (0..<40).map { "k\($0)" }
        let integer: JSONValue = ["type": "integer"]
        let schema: JSONValue =
            switch keyword {
            case "properties": ["properties": .object(Dictionary(uniqueKeysWithValues: names.map { ($0, integer) }))]
            case "patternProperties": ["patternProperties": ["^k": integer]]
            case "propertyNames": ["propertyNames": ["maxLength": 1]]
            case "unevaluatedProperties":
                ["$schema": "https://json-schema.org/draft/2020-12/schema", "unevaluatedProperties": integer]
            default: [keyword: integer]
            }
        let instance = JSONValue.object(Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.string("x")) }))
        let violations = try JSONSchema(schema).validate(instance)
        #expect(violations.count == names.count, "\(violations)")
        let order = violations.map { keyword == "propertyNames" ? $0.message : $0.instancePath }
        #expect(order == order.sorted(), "\(order)")
    }

    @Test("a name is found as a Dictionary finds it: by canonical equivalence, whatever its UTF-8 length")
    func canonicalEquivalence() throws {
        // The Kelvin sign (3 bytes) is canonically "K" (1 byte); "é" is one scalar or two.
        let schema = try JSONSchema(
            .object([
                "properties": .object(["K": ["type": "integer"], "caf\u{E9}": ["type": "integer"]]),
                "required": .array([.string("K")]),
            ]))
        let cases: [(JSONValue, Bool)] = [
            (.object(["\u{212A}": .number(1)]), true),
            (.object(["\u{212A}": .string("x")]), false),
            (.object(["K": .number(1), "cafe\u{301}": .string("x")]), false),
            (.object(["cafe\u{301}": .number(1)]), false),
        ]
        for (instance, valid) in cases {
            #expect(schema.isValid(instance) == valid, "\(instance)")
            #expect(schema.validate(instance).isEmpty == valid, "\(instance)")
        }
    }
}
