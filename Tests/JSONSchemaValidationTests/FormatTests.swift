import JSONSchemaValidation
import Testing
import TracksnapJSON

/// `format` asserted (`Options.assertsFormats`), measured by the suite's optional format files.
@Suite("format assertion")
struct FormatTests {
    /// The formats the option asserts that the suite's `optional/format/` holds, every case of
    /// which agrees.
    static let formats = [
        "date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid",
    ]

    @Test(
        "the suite's optional format cases agree when formats are asserted",
        arguments: [SchemaDraft.draft7, .draft2020_12])
    func suite(draft: SchemaDraft) throws {
        if let missing = OfficialSuite.missing {
            Issue.record(Comment(rawValue: missing))
            return
        }
        let outcome = try OfficialSuite.run(
            OfficialSuite.folder(draft) + "/optional/format", draft: draft,
            options: JSONSchema.Options(assertsFormats: true), only: Set(Self.formats))
        print(
            "JSON-Schema-Test-Suite \(draft.rawValue) optional formats: \(outcome.agreed) of \(outcome.cases) cases agree"
        )
        for disagreement in outcome.disagreements { Issue.record(Comment(rawValue: disagreement.description)) }
    }

    @Test("format is an annotation unless asserted")
    func annotationByDefault() throws {
        let schema: JSONValue = ["format": "date-time"]
        #expect(try JSONSchema(schema).isValid("yesterday"))
        #expect(try !JSONSchema(schema, options: JSONSchema.Options(assertsFormats: true)).isValid("yesterday"))
        #expect(
            try JSONSchema(schema, options: JSONSchema.Options(assertsFormats: true)).isValid("2026-11-24T22:42:11Z"))
    }
}
