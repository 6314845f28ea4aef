import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// The official JSON-Schema-Test-Suite (`make json-schema-suite` unpacks it into
/// `.build/json-schema-suite`) through the path a user's schema takes: each case a snapshot whose
/// request's body is `{"$jsonSchema": SCHEMA}`, validated against a captured POST whose body is
/// the case's data sent as `application/json`. JSONSchemaValidationTests run the same cases
/// through the engine's own API; both counts are printed.
@Suite("The JSON-Schema-Test-Suite through a snapshot's $jsonSchema matcher on a captured body")
struct OfficialSuiteSnapshotTests {
    static let tests = PackagePaths.root.appending(path: ".build/json-schema-suite/tests")

    /// The suite's folders, and the `$schema` each case's schema is given when it names none (a
    /// snapshot's `$jsonSchema` is draft-07 unless its schema says otherwise).
    static let drafts = [
        ("draft4", "http://json-schema.org/draft-04/schema#"), ("draft6", "http://json-schema.org/draft-06/schema#"),
        ("draft7", "http://json-schema.org/draft-07/schema#"),
        ("draft2020-12", "https://json-schema.org/draft/2020-12/schema"),
    ]

    @Test("every required case agrees with the suite", arguments: drafts.map(\.0))
    func requiredCases(folder: String) throws {
        guard FileManager.default.fileExists(atPath: Self.tests.path) else {
            Issue.record("the JSON-Schema-Test-Suite is not in \(Self.tests.path): run `make json-schema-suite`")
            return
        }
        let dialect = Self.drafts.first { $0.0 == folder }?.1 ?? ""
        let directory = Self.tests.appending(path: folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var (cases, remote) = (0, 0)
        var disagreements: [String] = []
        for name in files {
            let document = try JSONDocument.parse(try Data(contentsOf: directory.appending(path: name)), file: name)
            for group in document.value.arrayValue ?? [] {
                let tests = group["tests"]?.arrayValue ?? []
                var schema = group["schema"] ?? .null
                // A snapshot has no registry of remote documents: a case whose $ref reaches the
                // suite's remotes/ (http://localhost:1234/…) is counted apart.
                if schema.serialized().contains("localhost:1234") {
                    remote += tests.count
                    continue
                }
                cases += tests.count
                if var members = schema.objectValue, members["$schema"] == nil {
                    members["$schema"] = .string(dialect)
                    schema = .object(members)
                }
                let entry: JSONValue = .object([
                    "method": "POST", "url": "https://suite.example/case", "body": .object(["$jsonSchema": schema]),
                ])
                let where_ = "\(name): \(group["description"]?.stringValue ?? "?")"
                let expected: Snapshot
                do {
                    expected = try snapshot(JSONValue.object(["requests": .array([entry])]).serialized())
                } catch {
                    disagreements += tests.map {
                        "\(where_) / \($0["description"]?.stringValue ?? "?"): refused: \(error)"
                    }
                    continue
                }
                for test in tests {
                    let data = (test["data"] ?? .null).serialized()
                    let result = validate(expected, [post("https://suite.example/case", json: data)])
                    let valid = test["valid"]?.boolValue ?? false
                    if result.findings.isEmpty != valid {
                        disagreements.append(
                            "\(where_) / \(test["description"]?.stringValue ?? "?"): expected \(valid ? "valid" : "invalid"), \(data): \(result.findings.map(\.message))"
                        )
                    }
                }
            }
        }
        print(
            "JSON-Schema-Test-Suite \(folder) through a snapshot's $jsonSchema on a captured body: \(cases - disagreements.count) of \(cases) cases agree (\(remote) left out: their $ref reaches remotes/)"
        )
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) disagree:\n\(disagreements.prefix(40).joined(separator: "\n"))")
    }
}
