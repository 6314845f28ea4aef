import JSONSchemaValidation
import Testing

@Suite("the official JSON-Schema-Test-Suite")
struct OfficialSuiteTests {
    @Test("every required case of the draft agrees", arguments: SchemaDraft.allCases)
    func requiredCases(draft: SchemaDraft) throws {
        if let missing = OfficialSuite.missing {
            Issue.record(Comment(rawValue: missing))
            return
        }
        let outcome = try OfficialSuite.run(OfficialSuite.folder(draft), draft: draft)
        print("JSON-Schema-Test-Suite \(draft.rawValue): \(outcome.agreed) of \(outcome.cases) cases agree")
        #expect(outcome.cases > 0)
        for disagreement in outcome.disagreements { Issue.record(Comment(rawValue: disagreement.description)) }
    }
}
