import JSONSchemaValidation
import Testing
import TracksnapJSON
import TracksnapTestSupport

/// Nothing a schema holds crashes the compiler or the evaluator: keywords with values of every
/// JSON type, compiled without the meta-schema check that would refuse most of them first.
@Suite("malformed schemas")
struct MalformedSchemaTests {
    private static let keywords = [
        "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "format", "items", "prefixItems", "additionalItems", "minItems",
        "maxItems",
        "uniqueItems", "contains", "minContains", "maxContains", "properties", "patternProperties",
        "additionalProperties", "required", "dependencies", "dependentRequired", "dependentSchemas", "propertyNames",
        "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref",
        "$dynamicRef", "$dynamicAnchor", "$anchor", "$id", "id", "$defs", "definitions", "unevaluatedProperties",
        "unevaluatedItems", "$schema",
    ]
    private static let strings = [
        "", "#", "#/", "#/definitions/x", "#/$defs", "x", "string", "integer", "(", "[", "\\", "^a$", "date-time",
        "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-04/schema#", "urn:x", "../a",
    ]

    private struct Random {
        var generator: SeededGenerator
        mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }

        mutating func value(_ depth: Int) -> JSONValue {
            switch below(depth > 3 ? 5 : 8) {
            case 0: return .null
            case 1: return .bool(below(2) == 0)
            case 2: return .number(["0", "-1", "2", "1.5", "1e400", "-0", "3e-9", "99999999999999999999"][below(8)])
            case 3, 4: return .string(MalformedSchemaTests.strings[below(MalformedSchemaTests.strings.count)])
            case 5: return .array((0..<below(4)).map { _ in value(depth + 1) })
            default: return schema(depth + 1)
            }
        }

        mutating func schema(_ depth: Int) -> JSONValue {
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(5) {
                members[MalformedSchemaTests.keywords[below(MalformedSchemaTests.keywords.count)]] = value(depth)
            }
            return .object(members)
        }
    }

    @Test("2,000 random malformed schemas compile or are refused, and validate without crashing")
    func neverCrashes() {
        var random = Random(generator: SeededGenerator(seed: 7))
        var compiled = 0
        var refused = 0
        for _ in 0..<2_000 {
            let schema = random.schema(0)
            let instances = (0..<4).map { _ in random.value(1) }
            do {
                let options = JSONSchema.Options(assertsFormats: random.below(2) == 0, checksMetaSchema: false)
                let validator = try JSONSchema(schema, options: options)
                compiled += 1
                for instance in instances {
                    #expect(validator.isValid(instance) == validator.validate(instance).isEmpty)
                }
            } catch {
                refused += 1
                #expect(!error.diagnostics.isEmpty)
            }
        }
        #expect(compiled > 200 && refused > 200, "compiled \(compiled), refused \(refused)")
    }
}
