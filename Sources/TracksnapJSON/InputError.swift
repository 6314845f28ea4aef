/// A file that could not be used, with every error found in it.
///
/// ```swift
/// do { _ = try Snapshot.load(path: "Snapshots/checkout.json") }
/// catch { print(error) }  // Snapshots/checkout.json:12:17: error: invalid pattern "o-[0-9" at offset 6: missing terminating ] for character class
/// ```
public struct InputError: LocatedError, Sendable {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public init(file: String, location: SourceLocation? = nil, message: String) {
        self.diagnostics = [Diagnostic(.error, file: file, location: location, message: message)]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension InputError {
    /// The same problems, as a file that could not be used: malformed JSON in a snapshot, a
    /// capture that cannot be read.
    public init(_ error: some LocatedError) { self.init(error.diagnostics) }
}
