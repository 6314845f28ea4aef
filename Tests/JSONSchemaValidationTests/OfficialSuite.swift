import Foundation
import JSONSchemaValidation
import TracksnapJSON
import TracksnapTestSupport

/// The official JSON-Schema-Test-Suite (json-schema-org/JSON-Schema-Test-Suite), as
/// `make json-schema-suite` unpacks it from Python jsonschema's source distribution into
/// `.build/json-schema-suite`: `tests/DRAFT/*.json` and the `remotes/` its `$ref`s reach as
/// `http://localhost:1234/…`.
enum OfficialSuite {
    static let root = PackagePaths.root.appending(path: ".build/json-schema-suite")

    /// A case the validator decides otherwise than the suite.
    struct Disagreement: CustomStringConvertible {
        let file: String
        let group: String
        let test: String
        let detail: String
        var description: String { "\(file): \(group) / \(test): \(detail)" }
    }

    struct Outcome {
        var cases = 0
        var disagreements: [Disagreement] = []
        var agreed: Int { cases - disagreements.count }
    }

    /// The suite's folder name for a draft.
    static func folder(_ draft: SchemaDraft) -> String {
        switch draft {
        case .draft4: "draft4"
        case .draft6: "draft6"
        case .draft7: "draft7"
        case .draft2020_12: "draft2020-12"
        }
    }

    /// Why the suite cannot be read, or nil when it is there.
    static var missing: String? {
        FileManager.default.fileExists(atPath: root.appending(path: "tests").path)
            ? nil : "the JSON-Schema-Test-Suite is not in \(root.path): run `make json-schema-suite`"
    }

    /// A registry with every file of `remotes/` known by its `http://localhost:1234/` URI.
    static func registry(_ draft: SchemaDraft) throws -> SchemaRegistry {
        var registry = SchemaRegistry(defaultDraft: draft)
        let remotes = root.appending(path: "remotes")
        let files =
            FileManager.default.enumerator(at: remotes, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path } ?? []
        for file in files {
            let relative = String(file.path.dropFirst(remotes.path.count + 1))
            let document = try JSONDocument.parse(try Data(contentsOf: file), file: "remotes/" + relative)
            registry.add(document, uri: "http://localhost:1234/" + relative)
        }
        return registry
    }

    /// Runs every case of the files in `directory` (relative to `tests/`).
    static func run(
        _ directory: String, draft: SchemaDraft, options: JSONSchema.Options = JSONSchema.Options(),
        only names: Set<String>? = nil
    ) throws -> Outcome {
        let registry = try registry(draft)
        let folder = root.appending(path: "tests").appending(path: directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && (names?.contains(String($0.dropLast(5))) ?? true) }.sorted()
        var outcome = Outcome()
        for name in files {
            let file = directory + "/" + name
            let document = try JSONDocument.parse(try Data(contentsOf: folder.appending(path: name)), file: file)
            for group in document.value.arrayValue ?? [] {
                let groupName = group["description"]?.stringValue ?? "?"
                let tests = group["tests"]?.arrayValue ?? []
                outcome.cases += tests.count
                let schema: JSONSchema
                do {
                    schema = try JSONSchema(group["schema"] ?? .null, registry: registry, options: options)
                } catch {
                    for test in tests {
                        outcome.disagreements.append(
                            Disagreement(
                                file: file, group: groupName, test: test["description"]?.stringValue ?? "?",
                                detail: "the schema was refused: \(error)"))
                    }
                    continue
                }
                for test in tests {
                    let expected = test["valid"]?.boolValue ?? false
                    let instance = test["data"] ?? .null
                    let valid = schema.isValid(instance)
                    let violations = schema.validate(instance)
                    let detail: String? =
                        if valid != expected {
                            "expected \(expected ? "valid" : "invalid"), got \(valid ? "valid" : "invalid")"
                                + (violations.isEmpty
                                    ? "" : " (\(violations.map(\.description).joined(separator: "; ")))")
                        } else if violations.isEmpty != valid {
                            "isValid says \(valid), but validate gives \(violations.count) violations"
                        } else {
                            nil
                        }
                    if let detail {
                        outcome.disagreements.append(
                            Disagreement(
                                file: file, group: groupName, test: test["description"]?.stringValue ?? "?",
                                detail: detail))
                    }
                }
            }
        }
        return outcome
    }
}
