/// A problem in a file a user wrote: a snapshot, a profile, a capture.
///
/// ```swift
/// let problem = Diagnostic(.error, file: "Snapshots/checkout.json", location: SourceLocation(line: 12, column: 17),
///                          message: "unknown matcher \"$regx\"; did you mean $regex?")
/// print(problem)  // Snapshots/checkout.json:12:17: error: unknown matcher "$regx"; did you mean $regex?
/// ```
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public var severity: Severity
    public var file: String
    /// The JSON Pointer of the value concerned, if any.
    public var path: String?
    public var location: SourceLocation?
    public var message: String

    public init(
        _ severity: Severity, file: String, path: String? = nil, location: SourceLocation? = nil, message: String
    ) {
        self.severity = severity
        self.file = file
        self.path = path
        self.location = location
        self.message = message
    }

    /// `file:line:column`, or the file alone when the problem has no line: where an editor or a
    /// CI log jumps to.
    public var place: String {
        guard let location else { return file }
        return "\(file):\(location.line):\(location.column)"
    }

    /// `file:line:column: severity: message`, the form editors and compilers use.
    public var description: String { "\(place): \(severity.rawValue): \(message)" }
}
