/// A line and column in a file, both 1-based; the column counts Unicode scalars.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A parsed JSON file that remembers where every value stands in its text.
///
/// SKELETON: the real parser replaces this file.
public struct JSONDocument: Sendable {
    /// The file the text came from, as given to the parser (used in messages).
    public let file: String
    public let value: JSONValue
    /// The location of every value, keyed by its JSON Pointer (`""` is the root, `/events/0/name`).
    public let locations: [String: SourceLocation]

    public init(file: String, value: JSONValue, locations: [String: SourceLocation]) {
        self.file = file
        self.value = value
        self.locations = locations
    }

    /// Parses JSON text (UTF-8, an optional BOM is skipped).
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name used in error messages.
    ///   - trackLocations: record every value's location (snapshots); off for captures, where speed matters.
    /// - Throws: `JSONParseError` naming the file, line, column and what was expected.
    public static func parse(_ bytes: some Collection<UInt8>, file: String, trackLocations: Bool = true) throws(JSONParseError) -> JSONDocument {
        throw JSONParseError(file: file, location: SourceLocation(line: 1, column: 1), message: "not implemented")
    }
}

/// Malformed JSON: where, and what was wrong.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let location: SourceLocation
    public let message: String
    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }
    public var description: String { "\(file):\(location.line):\(location.column): \(message)" }
}
