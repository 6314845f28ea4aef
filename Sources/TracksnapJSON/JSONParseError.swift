/// Malformed JSON: where, and what was wrong.
///
/// ```swift
/// do { _ = try JSONDocument.parse(Array("[1,]".utf8), file: "a.json") }
/// catch { print(error) }  // a.json:1:3: trailing comma: remove the ',' before ']'
/// ```
public struct JSONParseError: LocatedError, Sendable, Hashable {
    /// The file name as given to the parser.
    public let file: String
    /// Where the problem is: the offending character, or the start of the offending token.
    public let location: SourceLocation
    /// What was wrong, and where it helps, what to write instead.
    public let message: String

    /// - Parameters:
    ///   - file: the file name shown in the description.
    ///   - location: the 1-based line and column of the problem.
    ///   - message: a sentence for a person.
    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// The one problem, an error at its line and column.
    public var diagnostics: [Diagnostic] { [Diagnostic(.error, file: file, location: location, message: message)] }

    public var description: String { "\(diagnostics[0].place): \(message)" }
}
