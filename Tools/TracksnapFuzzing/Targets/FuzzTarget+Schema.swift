import JSONSchemaValidation
import TracksnapJSON

extension FuzzTarget {
    /// The JSON Schema compiler and evaluator: a document `[schema, instance]` (or a schema alone,
    /// validated against itself) that compiles is evaluated both ways, which must agree: the
    /// fast check (`isValid`, which stops at the first failure) and the full one (`validate`).
    static let schema = FuzzTarget(
        "schema", "JSONSchema on a [schema, instance] document; isValid must agree with validate",
        seeds: ["Tests/Fuzz/schema"]
    ) { bytes throws(PropertyViolation) in
        guard let document = try? JSONDocument.parse(bytes, file: "fuzz.json") else { return }
        let (schemaValue, instance): (JSONValue, JSONValue) =
            if let pair = document.value.arrayValue, pair.count == 2 { (pair[0], pair[1]) } else {
                (document.value, document.value)
            }
        guard let schema = try? JSONSchema(schemaValue) else { return }
        if schema.isValid(instance) != schema.validate(instance).isEmpty {
            throw PropertyViolation(target: "schema", "isValid and validate disagree on the instance")
        }
    }
}
