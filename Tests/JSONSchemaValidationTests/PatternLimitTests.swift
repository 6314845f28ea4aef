import JSONSchemaValidation
import Testing
import TracksnapJSON

/// A pattern that makes PCRE2 backtrack past its match limit decides nothing: wherever a pattern
/// decides whether a value passes, the value fails, with a message that names the limit.
@Suite("A pattern at PCRE2's match limit fails closed wherever it decides")
struct PatternLimitTests {
    /// `(a+)+$` on `aaaa…b`: exponential backtracking, beyond any match limit.
    static let catastrophic = #"(a+)+$"#
    static let subject = String(repeating: "a", count: 40) + "b"

    func schema(_ json: String) throws -> JSONSchema {
        try JSONSchema(try JSONDocument.parse(Array(json.utf8), file: "schema.json"))
    }

    @Test("pattern, patternProperties and propertyNames with a pattern each refuse the value, naming the limit")
    func everySite() throws {
        let sites = [
            #"{"pattern": "\#(Self.catastrophic)"}"#: JSONValue.string(Self.subject),
            // The member would fail its subschema (a string, not a number): a pattern that cannot
            // decide must not let it escape it.
            #"{"patternProperties": {"\#(Self.catastrophic)": {"type": "number"}}}"#: .object([
                Self.subject: .string("x")
            ]),
            #"{"patternProperties": {"\#(Self.catastrophic)": true}, "additionalProperties": false}"#: .object([
                Self.subject: .number("1")
            ]),
            #"{"propertyNames": {"pattern": "\#(Self.catastrophic)"}}"#: .object([Self.subject: .number("1")]),
        ]
        for (text, instance) in sites {
            let schema = try schema(text)
            #expect(!schema.isValid(instance), "\(text)")
            let violations = schema.validate(instance)
            #expect(violations.count == 1, "\(text): \(violations)")
            #expect(violations.first?.message.contains("limit") == true, "\(text): \(violations)")
        }
    }
}
