public import TracksnapJSON

/// A capture file that cannot be read: which file, where in it, and what was wrong.
///
/// ```swift
/// do { _ = try CaptureFile.read(path: "broken.har") }
/// catch { print(error) }  // broken.har: log.entries[3].request.url: missing
/// ```
///
/// `line` and `column` are 1-based; `place` is the path of the value inside the document
/// (`log.entries[3].request.url` in a HAR file, `headers[1].value` on an NDJSON line).
public struct CaptureFileError: LocatedError, Sendable, Hashable {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let place: String?
    public let message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, place: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.place = place
        self.message = message
    }

    /// `file[:line[:column]]: [place: ]message`, the form editors and CI logs turn into links.
    public var description: String {
        var out = file
        if let line {
            out += ":\(line)"
            if let column { out += ":\(column)" }
        }
        out += ": "
        if let place, !place.isEmpty { out += place + ": " }
        return out + message
    }

    /// The one problem, with the member's place leading the message; a record of an NDJSON
    /// file, named by its line alone, is located at the line's first column.
    public var diagnostics: [Diagnostic] {
        let location = line.map { SourceLocation(line: $0, column: column ?? 1) }
        let said = place.map { $0.isEmpty ? message : "\($0): \(message)" } ?? message
        return [Diagnostic(.error, file: file, location: location, message: said)]
    }
}
