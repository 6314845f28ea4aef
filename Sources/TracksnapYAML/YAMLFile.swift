package import Foundation
import Synchronization
package import TracksnapJSON

/// A file read once and its YAML parsed at most once, however many ask what it holds: a folder's
/// listing and `tracksnap lint` ask in turn whether it is a RudderStack plan
/// (`TrackingPlan.isRudderStack`), whether it is a cassette (`Cassette.isCassette`), then read
/// the cassette (`Cassette.read`). Each question parsed the file again: lint took 8 s over a
/// 10,000-interaction VCR cassette, three parses of it.
///
/// ```swift
/// let file = YAMLFile(path: "Cassettes/login.yml")
/// try file.documents()  // parsed here: the stream's documents
/// try file.document()   // the same parse, when the stream holds one document
/// ```
package final class YAMLFile {
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

/// A test's hook: counts the parses (`YAMLDocument.parse`, `parseAll`) of files whose path
/// contains a marker, as `DecoderCalls` counts decodings: so that a test can tell a file was
/// parsed once however many questions were asked of it.
package enum YAMLParses {
    private static let watching = Atomic<Bool>(false)
    private static let counts = Mutex<[String: Int]>([:])

    /// Counts, from now on, the parses of files whose path contains `marker`.
    package static func watch(_ marker: String) {
        counts.withLock { $0[marker] = 0 }
        watching.store(true, ordering: .releasing)
    }

    /// How many times a file marked `marker` was parsed since it was watched.
    package static func count(_ marker: String) -> Int {
        counts.withLock { $0[marker] } ?? 0
    }

    static func parsed(_ file: String) {
        guard watching.load(ordering: .acquiring) else { return }
        counts.withLock { counts in
            for marker in counts.keys where file.contains(marker) { counts[marker, default: 0] += 1 }
        }
    }
}
