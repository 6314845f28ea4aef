import JSONSchemaValidation
import Testing
import TracksnapJSON

/// A schema that cannot be used is a located error, never a crash.
@Suite("a bad schema is an error at its line")
struct SchemaErrorTests {
    private func problems(_ text: String) throws -> [Diagnostic] {
        let document = try JSONDocument.parse(Array(text.utf8), file: "plan/order.json")
        do {
            _ = try JSONSchema(document)
        } catch {
            return error.diagnostics
        }
        Issue.record("the schema was accepted")
        return []
    }

    @Test("a $ref no schema answers names the reference, at the $ref")
    func unresolvableReference() throws {
        let found = try problems(
            """
            {
              "properties": {
                "address": {"$ref": "#/definitions/adress"}
              },
              "definitions": {"address": {"type": "object"}}
            }
            """)
        #expect(
            found.map(\.description) == [
                ##"plan/order.json:3:25: error: $ref "#/definitions/adress" resolves to no schema"##
            ])
    }

    @Test("a pattern that is no regular expression says PCRE2's reason")
    func badPattern() throws {
        let found = try problems(#"{"properties": {"sku": {"type": "string", "pattern": "^(ab"}}}"#)
        #expect(found.count == 1)
        #expect(found.first?.place == "plan/order.json:1:54")
        #expect(found.first?.message.hasPrefix(#"pattern "^(ab" is not a valid regular expression"#) == true)
    }

    @Test("a schema its meta-schema refuses is located at the offending value")
    func metaSchema() throws {
        let found = try problems(
            """
            {
              "$schema": "http://json-schema.org/draft-07/schema#",
              "properties": {"revenue": {"type": "money"}}
            }
            """)
        #expect(found.count == 1)
        #expect(found.first?.place == "plan/order.json:3:38")
        #expect(
            found.first?.message
                == #"not a valid draft-07 schema: anyOf: "money" matches none of the 2 schemas (nearest: enum: "money" is not one of ["array","boolean","integer","null","number","object","string"])"#
        )
    }

    @Test("a $ref to another file of the registry resolves by its $id; unknown, it is an error")
    func acrossFiles() throws {
        let address = try JSONDocument.parse(
            Array(#"{"$id": "https://plans.example/address.json", "type": "object", "required": ["city"]}"#.utf8),
            file: "plan/address.json")
        let order = try JSONDocument.parse(
            Array(#"{"properties": {"ship_to": {"$ref": "https://plans.example/address.json"}}}"#.utf8),
            file: "plan/order.json")
        var registry = SchemaRegistry()
        registry.add(address)
        let schema = try JSONSchema(order, registry: registry)
        #expect(schema.isValid(["ship_to": ["city": "Lyon"]]))
        let violations = schema.validate(["ship_to": [:]])
        #expect(
            violations.map(\.description) == [
                #"plan/address.json:1:65: /ship_to: required: "city" is a required property"#
            ])
        #expect(throws: SchemaError.self) { try JSONSchema(order) }
    }
}

@Suite("a violation names its keyword, the instance's pointer and the schema's place")
struct SchemaViolationTests {
    @Test("each failing value is reported at its pointer with the keyword's file, line and column")
    func located() throws {
        let document = try JSONDocument.parse(
            Array(
                """
                {
                  "$schema": "https://json-schema.org/draft/2020-12/schema",
                  "type": "object",
                  "properties": {
                    "revenue": {"type": "number", "minimum": 0},
                    "items": {"type": "array", "items": {"required": ["sku"]}}
                  },
                  "additionalProperties": false
                }
                """.utf8), file: "plan/order.json")
        let schema = try JSONSchema(document)
        #expect(schema.draft == .draft2020_12)
        let violations = schema.validate(["revenue": "12", "items": [["sku": "a"], [:]], "coupon": "X"])
        #expect(
            Set(violations.map(\.description)) == [
                #"plan/order.json:5:17: /revenue: type: "12" is not of type number"#,
                #"plan/order.json:6:42: /items/1: required: "sku" is a required property"#,
                #"plan/order.json:8:3: /coupon: additionalProperties: "X" is not allowed here"#,
            ])
        #expect(
            violations.first { $0.keyword == "type" }?.schemaPath == "file:///plan/order.json#/properties/revenue/type")
        #expect(!schema.isValid(["revenue": -1]))
        #expect(schema.isValid(["revenue": 12.5, "items": []]))
    }

    @Test("numbers compare exactly, beyond a Double's precision")
    func exactNumbers() throws {
        let schema = try JSONSchema(["maximum": .number("9007199254740992"), "multipleOf": .number("0.01")])
        #expect(schema.isValid(.number("9007199254740992")))
        #expect(!schema.isValid(.number("9007199254740993")))
        #expect(schema.isValid(.number("19.99")))
        #expect(!schema.isValid(.number("19.999")))
    }

    /// Written out, `3e1000000000` is a billion digits: an implementation that expands it runs
    /// out of memory or past the time limit, which a loaded machine does not come near otherwise.
    @Test("multipleOf with an exponent of a billion is decided at once, exactly", .timeLimit(.minutes(1)))
    func hugeExponents() throws {
        #expect(try JSONSchema(["multipleOf": .number("0.3")]).isValid(.number("3e1000000000")))
        #expect(try !JSONSchema(["multipleOf": 3]).isValid(.number("1e1000000000")))
        #expect(try JSONSchema(["multipleOf": .number("1e-8")]).isValid(.number("1e308")))
        #expect(try !JSONSchema(["maximum": 1]).isValid(.number("1e9223372036854775000")))
        #expect(try JSONSchema(["minimum": -1]).isValid(.number("1e-9223372036854775000")))
    }
}

@Suite("recursion")
struct RecursionTests {
    @Test("a $ref cycle that never moves into the instance fails, it does not crash")
    func cycle() throws {
        let schema = try JSONSchema([
            "$defs": ["a": ["$ref": "#/$defs/b"], "b": ["$ref": "#/$defs/a"]], "$ref": "#/$defs/a",
        ])
        #expect(!schema.isValid(1))
        #expect(schema.validate(1).first?.message.contains("nest more than 100 deep") == true)
    }

    @Test("a recursive schema follows a deep instance; one too deep to validate fails with a message, never a crash")
    func deepInstance() throws {
        let schema = try JSONSchema(["type": "array", "items": ["$ref": "#"]])
        var deep: JSONValue = []
        for _ in 0..<150 { deep = [deep] }
        #expect(schema.isValid(deep))
        var wrong: JSONValue = [1]
        for _ in 0..<150 { wrong = [wrong] }
        #expect(schema.validate(wrong).map(\.instancePath) == [String(repeating: "/0", count: 151)])
        var tooDeep: JSONValue = []
        for _ in 0..<511 { tooDeep = [tooDeep] }
        #expect(!schema.isValid(tooDeep))
        #expect(
            schema.validate(tooDeep).map(\.message) == [
                "the instance nests too deep to validate (more than 500 schemas deep)"
            ])
    }
}
