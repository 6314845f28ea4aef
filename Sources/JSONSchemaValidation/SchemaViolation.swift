public import TracksnapJSON

/// One way an instance fails its schema: the keyword, where in the instance, where in the
/// schema, and why.
///
/// ```swift
/// for violation in schema.validate(event) { print(violation) }
/// // plan/order.json:5:17: /revenue: type: "12" is not of type number
/// ```
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// The keyword that failed (`type`, `required`, `additionalProperties`…).
    public var keyword: String
    /// The JSON Pointer of the failing value in the instance (`""` is the whole instance).
    public var instancePath: String
    /// The keyword's absolute location: the schema resource's URI and the JSON Pointer of the
    /// keyword in it (`file:///plan/order.json#/properties/revenue/type`).
    public var schemaPath: String
    /// The schema file, when the schema was read from one.
    public var file: String?
    /// The keyword's line and column in `file`, when the schema was parsed with locations.
    public var location: SourceLocation?
    public var message: String

    public init(
        keyword: String, instancePath: String, schemaPath: String, file: String? = nil,
        location: SourceLocation? = nil, message: String
    ) {
        self.keyword = keyword
        self.instancePath = instancePath
        self.schemaPath = schemaPath
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file:line:column: pointer: keyword: message`, or the schema path in place of the file.
    public var description: String {
        var place = schemaPath
        if let file {
            place = file
            if let location { place += ":\(location.line):\(location.column)" }
        }
        return "\(place): \(instancePath.isEmpty ? "(root)" : instancePath): \(keyword): \(message)"
    }
}
