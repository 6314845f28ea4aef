import Foundation
import TracksnapCore
#if canImport(Glibc)
import Glibc
private let systemRename = Glibc.rename
#elseif canImport(Darwin)
import Darwin
private let systemRename = Darwin.rename
#endif

/// Files written whole or not at all.
enum AtomicFile {
    /// Writes text into a temporary file in the target's directory, then renames it over the
    /// target: a reader sees the old file or the new one, never half of one, and a failure
    /// leaves no temporary file behind.
    ///
    /// ```swift
    /// try AtomicFile.write("{}\n", to: "Snapshots/empty.json")
    /// ```
    /// - Throws: `InputError` naming the file and the system's reason.
    static func write(_ text: String, to path: String) throws(InputError) {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw InputError(file: path, message: "cannot be written: \(error.localizedDescription)")
        }
        try rename(temporary.path, to: path)
    }

    /// Moves a file over another in one step (both in the same file system).
    /// - Throws: `InputError` naming the target and the system's reason; the source is left as it was.
    static func rename(_ source: String, to target: String) throws(InputError) {
        guard systemRename(source, target) == 0 else {
            let reason = String(cString: strerror(errno))
            if source.hasSuffix(".tmp") { try? FileManager.default.removeItem(atPath: source) }
            throw InputError(file: target, message: "cannot be written: \(reason)")
        }
    }
}
