/// A parsed JSON file that remembers where every value stands in its text.
///
/// ```swift
/// let document = try JSONDocument.parse(Array(#"{"events": [{"name": "open"}]}"#.utf8), file: "s.json")
/// document.value["events"]                 // .array([.object(["name": "open"])])
/// document.locations["/events/0/name"]     // line 1, column 22
/// document.keyLocations["/events/0/name"]  // line 1, column 14
/// ```
public struct JSONDocument: Sendable {
    /// The file the text came from, as given to the parser (used in messages).
    public let file: String
    public let value: JSONValue
    /// The location of every value, keyed by its JSON Pointer (`""` is the root, `/events/0/name`).
    ///
    /// Empty when the document was parsed without `trackLocations`.
    public let locations: [String: SourceLocation]
    /// The location of the key of every object member, keyed by the member's JSON Pointer.
    ///
    /// Empty when the document was parsed without `trackLocations`.
    public let keyLocations: [String: SourceLocation]
    /// The JSON Pointers of object members whose key appears more than once in the same object,
    /// sorted; the last occurrence is the one kept in `value` (and in `keyLocations`).
    public let duplicateKeys: [String]
    /// Where the document had a comma before a closing bracket, when parsed allowing them.
    public let trailingCommas: [SourceLocation]

    /// - Parameters:
    ///   - file: the name used in messages.
    ///   - value: the parsed value.
    ///   - locations: each value's location by JSON Pointer.
    ///   - keyLocations: each object member's key location by the member's JSON Pointer.
    ///   - duplicateKeys: the pointers of members whose key was repeated.
    public init(
        file: String,
        value: JSONValue,
        locations: [String: SourceLocation],
        keyLocations: [String: SourceLocation] = [:],
        duplicateKeys: [String] = [],
        trailingCommas: [SourceLocation] = []
    ) {
        self.file = file
        self.value = value
        self.locations = locations
        self.keyLocations = keyLocations
        self.duplicateKeys = duplicateKeys
        self.trailingCommas = trailingCommas
    }

    /// Parses JSON text (RFC 8259, UTF-8; a leading BOM is skipped).
    ///
    /// ```swift
    /// let document = try JSONDocument.parse(try Data(contentsOf: url), file: url.path)
    /// ```
    /// Numbers keep their source text (`12.50` stays `12.50`). Objects keep the last of repeated
    /// keys and list them in `duplicateKeys`. Nesting is limited to 512 levels.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name used in error messages.
    ///   - trackLocations: record every value's and key's location (snapshots); off for captures,
    ///     where speed matters.
    ///   - allowsTrailingCommas: read a comma before a closing bracket as if it were not there,
    ///     listing where in `trailingCommas` (cassettes: Vinyl reads its fixtures' trailing commas).
    /// - Throws: `JSONParseError` naming the file, line, column and what was wrong.
    public static func parse(
        _ bytes: some Collection<UInt8>,
        file: String,
        trackLocations: Bool = true,
        allowsTrailingCommas: Bool = false
    ) throws(JSONParseError) -> JSONDocument {
        FileParses.parsed(file)
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) in
            Result { () throws(JSONParseError) -> JSONDocument in
                var parser = JSONParser(
                    bytes: buffer, file: file, trackLocations: trackLocations,
                    allowsTrailingCommas: allowsTrailingCommas)
                return try parser.parseDocument()
            }
        }
        let result = bytes.withContiguousStorageIfAvailable(parse) ?? Array(bytes).withUnsafeBufferPointer(parse)
        return try result.get()
    }
}
