public import TracksnapJSON

/// A schema that cannot be used: invalid against its draft's meta-schema, a `$ref` no schema
/// answers, a `pattern` that is not a regular expression. Each problem is located at the
/// schema file's line and column where the schema came from a parsed file.
///
/// ```swift
/// do { _ = try JSONSchema(document) }
/// catch { print(error) }  // plan/order.json:4:13: error: $ref "#/$defs/adress" resolves to no schema
/// ```
public struct SchemaError: LocatedError, Sendable {
    public let diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
