import TracksnapJSON
import TracksnapYAML

extension FuzzTarget {
    /// The YAML stream reader (RudderStack plans, `---` between documents): whatever it accepts
    /// stays within its limits taken together — no more than `documentLimit` documents, and no
    /// more than `valueLimit` values in all of them (aliases expanded).
    static let yamlStream = FuzzTarget(
        "yaml", "YAMLDocument.parseAll; the stream's documents and values together within the limits",
        seeds: ["Tests/Fuzz/yaml", "Tests/Fuzz/cassette"]
    ) { bytes throws(PropertyViolation) in
        guard let documents = try? YAMLDocument.parseAll(bytes, file: "fuzz.yaml") else { return }
        guard documents.count <= YAMLDocument.documentLimit else {
            throw PropertyViolation(target: "yaml", "more documents accepted than the limit")
        }
        var values = 0
        for document in documents {
            values += count(document.document.value)
        }
        guard values <= YAMLDocument.valueLimit else {
            throw PropertyViolation(target: "yaml", "the stream holds \(values) values, more than the limit")
        }
    }

    /// How many values a value is, itself and every member and item, as the reader counts them.
    private static func count(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): 1 + items.reduce(0) { $0 + count($1) }
        case .object(let members): 1 + members.values.reduce(0) { $0 + count($1) }
        default: 1
        }
    }
}
