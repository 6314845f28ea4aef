import Synchronization

/// A test's hook: counts the parses of files whose path contains a marker (`JSONDocument.parse`,
/// `YAMLDocument.parse` and `parseAll`), as `DecoderCalls` counts decodings: so that a test can
/// tell a file was parsed once however many questions were asked of it (`SourceFile`).
package enum FileParses {
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

    /// Called by each parser with the file it parses.
    package static func parsed(_ file: String) {
        guard watching.load(ordering: .acquiring) else { return }
        counts.withLock { counts in
            for marker in counts.keys where file.contains(marker) { counts[marker, default: 0] += 1 }
        }
    }
}
