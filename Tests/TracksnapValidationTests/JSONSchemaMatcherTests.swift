import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// `{"$jsonSchema": {…}}` in a snapshot: what any value there may be, rather than one value.
@Suite("A snapshot's $jsonSchema matcher")
struct JSONSchemaMatcherTests {
    let order = """
        {"requests": [{"method": "POST", "body": {
          "revenue": {"$jsonSchema": {"type": "number", "minimum": 0}},
          "items": {"$jsonSchema": {
            "type": "array", "minItems": 1,
            "items": {"type": "object", "required": ["sku"], "properties": {"qty": {"type": "integer"}}}
          }}
        }}]}
        """

    func order(_ body: String) -> CapturedRequest { post("https://collect.example/order", json: body) }

    @Test(
        "a body that is a JSON scalar (2, true, null, \"x\") is JSON by its content type, as RFC 8259 has it: schemas read its value"
    )
    func scalarBodies() throws {
        let cases: [(body: String, schema: String, passes: Bool)] = [
            ("2", #"{"type": "integer"}"#, true), ("2", #"{"const": 2}"#, true), ("2", #"{"enum": [1, 2, 3]}"#, true),
            ("true", #"{"type": "boolean"}"#, true), ("null", #"{"type": "null"}"#, true),
            (#""x""#, #"{"const": "x"}"#, true), (" 2.5 ", #"{"type": "number"}"#, true),
            ("2", #"{"type": "string"}"#, false), ("4", #"{"enum": [1, 2, 3]}"#, false),
            (#""2""#, #"{"type": "integer"}"#, false), ("null", #"{"const": "null"}"#, false),
        ]
        for (body, schema, passes) in cases {
            let expected = try snapshot(#"{"requests": [{"method": "POST", "body": {"$jsonSchema": \#(schema)}}]}"#)
            let result = validate(expected, [post("https://collect.example/n", json: body)])
            #expect(result.findings.isEmpty == passes, "\(body) against \(schema): \(result.findings.map(\.message))")
        }
        // A body no content type calls JSON stays its text.
        let text = CapturedRequest(
            id: "1", method: "POST", url: "https://collect.example/n",
            headers: [.init(name: "Content-Type", value: "text/plain")], body: .text("2"))
        #expect(text.validationView["body"] == .string("2"))
        #expect(post("https://collect.example/n", json: "2").validationView["body"] == .number("2"))
    }

    @Test("values the schema accepts pass, whatever they are")
    func accepts() throws {
        for body in [
            #"{"revenue": 12.5, "items": [{"sku": "A", "qty": 2}]}"#,
            #"{"revenue": 0, "items": [{"sku": "B"}, {"sku": "C", "qty": 1}]}"#,
        ] {
            #expect(validate(try snapshot(order), [order(body)]).findings.isEmpty, "\(body)")
        }
    }

    @Test("each failure is a schema_mismatch naming the keyword and the value's pointer, at the keyword's line")
    func refuses() throws {
        let result = validate(
            try snapshot(order), [order(#"{"revenue": "12.5", "items": [{"sku": "A"}, {"qty": 1.5}]}"#)])
        #expect(result.codes == [.schemaMismatch, .schemaMismatch, .schemaMismatch])
        let byPath = Dictionary(uniqueKeysWithValues: result.findings.map { ($0.path, $0) })
        let revenue = try #require(byPath["/requests/0/body/revenue/$jsonSchema/type"])
        #expect(revenue.message == #"body.revenue: type: "12.5" is not of type number"#)
        #expect(revenue.location?.line == 2)
        #expect(revenue.expected == "number" && revenue.actual == "12.5")
        let sku = try #require(byPath["/requests/0/body/items/$jsonSchema/items/required"])
        #expect(sku.message.hasPrefix("body.items/1: required:"), "\(sku.message)")
        #expect(sku.location?.line == 5)
        let qty = try #require(byPath["/requests/0/body/items/$jsonSchema/items/properties/qty/type"])
        #expect(qty.actual == .number("1.5"))
    }

    @Test("a schema that is not one is an error at its line and column, as every bad snapshot is")
    func badSchema() throws {
        let text = """
            {"requests": [{"body": {
              "revenue": {"$jsonSchema": {"type": "money"}},
              "items": {"$jsonSchema": {"$ref": "#/definitions/item"}}
            }}]}
            """
        do {
            _ = try snapshot(text)
            Issue.record("a bad schema was taken")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("Snapshots/test.json:2:"), "\(message)")
            #expect(message.contains("not a valid draft-07 schema"), "\(message)")
            #expect(message.contains("Snapshots/test.json:3:"), "\(message)")
            #expect(message.contains("#/definitions/item"), "\(message)")
        }
        #expect(throws: InputError.self) { try snapshot(#"{"requests": [{"body": {"a": {"$jsonSchema": 3}}}]}"#) }
    }
}
