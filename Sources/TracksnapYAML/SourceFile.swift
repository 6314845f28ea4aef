package import Foundation
package import TracksnapJSON

/// A file read once and parsed at most once, however many ask what it holds: a folder's listing
/// and `tracksnap lint` ask in turn whether it is a RudderStack plan
/// (`TrackingPlan.isRudderStack`), whether it is a cassette (`Cassette.isCassette`), then read
/// the cassette (`Cassette.read`) or the snapshot, profile or plan. Each question parsed the file
/// again: lint took 8 s over a 10,000-interaction VCR cassette, three parses of it. Its YAML is
/// parsed by `documents()` and `document()`, its JSON by `json()`; `FileParses` counts them.
///
/// ```swift
/// let file = SourceFile(path: "Cassettes/login.yml")
/// try file.documents()  // parsed here: the stream's documents
/// try file.document()   // the same parse, when the stream holds one document
/// ```
package final class SourceFile {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    /// Whether a path names a YAML file (`.yml`, `.yaml`).
    package static func isYAML(_ path: String) -> Bool { path.hasSuffix(".yml") || path.hasSuffix(".yaml") }

    package var isYAML: Bool { Self.isYAML(path) }

    /// The file's bytes, or nil when it cannot be read.
    package private(set) lazy var bytes: Data? = FileManager.default.contents(atPath: path)

    private var all: Result<[YAMLDocument], InputError>?
    private var single: Result<YAMLDocument, InputError>?
    private var parsedJSON: Result<JSONDocument, InputError>?

    /// The file as JSON, a comma before a closing bracket allowed and listed in its
    /// `trailingCommas` (as Vinyl's cassettes hold them): a caller that must refuse one reads
    /// those as errors, or the file strictly.
    ///
    /// - Throws: `InputError` when the file cannot be read or is not JSON, at its line and column.
    package func json() throws(InputError) -> JSONDocument {
        let parsed =
            parsedJSON
            ?? Result { () throws(InputError) in
                let bytes = try readBytes()
                do throws(JSONParseError) {
                    return try JSONDocument.parse(bytes, file: path, allowsTrailingCommas: true)
                } catch {
                    throw InputError(error)
                }
            }
        parsedJSON = parsed
        return try parsed.get()
    }

    /// Every document of the file (`YAMLDocument.parseAll`).
    ///
    /// - Throws: `InputError` when the file cannot be read, or as `parseAll` does.
    package func documents() throws(InputError) -> [YAMLDocument] {
        let parsed = all ?? Result { () throws(InputError) in try YAMLDocument.parseAll(try readBytes(), file: path) }
        all = parsed
        return try parsed.get()
    }

    /// The file's one document (`YAMLDocument.parse`): the one `documents()` read when the file
    /// holds one, else parsed as `parse` reads it, so that what it throws is `parse`'s.
    ///
    /// - Throws: `InputError` when the file cannot be read, or as `parse` does.
    package func document() throws(InputError) -> YAMLDocument {
        if case .success(let documents)? = all, documents.count == 1 { return documents[0] }
        let parsed = single ?? Result { () throws(InputError) in try YAMLDocument.parse(try readBytes(), file: path) }
        single = parsed
        return try parsed.get()
    }

    private func readBytes() throws(InputError) -> Data {
        guard let bytes else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw InputError(file: path, message: exists ? "cannot be read (check its permissions)" : "no such file")
        }
        return bytes
    }
}
