public import TracksnapJSON
public import TracksnapModel

/// A problem in a file a user wrote: a snapshot, a profile, a capture.
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

    /// `file:line:column: severity: message`, the form editors and compilers use.
    public var description: String {
        var place = file
        if let location { place += ":\(location.line):\(location.column)" }
        return "\(place): \(severity.rawValue): \(message)"
    }
}

/// A file that could not be used, with every error found in it.
///
/// ```swift
/// do { _ = try Snapshot.load(path: "Snapshots/checkout.json") }
/// catch { print(error) }  // Snapshots/checkout.json:12:17: error: invalid pattern "o-[0-9" at offset 6: missing terminating ] for character class
/// ```
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public init(file: String, location: SourceLocation? = nil, message: String) {
        self.diagnostics = [Diagnostic(.error, file: file, location: location, message: message)]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension InputError {
    init(_ error: JSONParseError) {
        self.init(file: error.file, location: error.location, message: error.message)
    }
}
