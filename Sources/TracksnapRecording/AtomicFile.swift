import Foundation
package import TracksnapJSON
import TracksnapSnapshot

#if canImport(Glibc)
    import Glibc
    private let systemRename = Glibc.rename
#elseif canImport(Darwin)
    import Darwin
    private let systemRename = Darwin.rename
#endif

/// Files written whole or not at all: snapshots, pending snapshots, and the CLI's `--output` reports.
package enum AtomicFile {
    /// Writes text into a temporary file in the target's directory, then renames it over the
    /// target: a reader sees the old file or the new one, never half of one, and a failure
    /// leaves no temporary file behind.
    ///
    /// ```swift
    /// try AtomicFile.write("{}\n", to: "Snapshots/empty.json")
    /// ```
    /// - Parameters:
    ///   - text: the file's whole contents.
    ///   - path: the file.
    ///   - creatingDirectory: create missing directories above the file (a new snapshot's
    ///     folder); without it a missing directory is an error (a mistyped `--output`).
    /// - Throws: `InputError` naming the file and the system's reason.
    package static func write(_ text: String, to path: String, creatingDirectory: Bool = true) throws(InputError) {
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            if creatingDirectory {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try Data(text.utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            let reason = folderProblem(above: path, creatingDirectory: creatingDirectory) ?? error.localizedDescription
            throw InputError(file: path, message: "cannot write the file: \(reason)")
        }
        try rename(temporary.path, to: path)
    }

    /// What is wrong with the folders above a file that could not be written, in the words a
    /// user acts on (Foundation says only "The file doesn't exist"): a folder that is not there,
    /// or a file where a folder should be. Nil when the folders are fine.
    private static func folderProblem(above path: String, creatingDirectory: Bool) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        var existing = folder
        var isDirectory: ObjCBool = false
        while !existing.isEmpty, !FileManager.default.fileExists(atPath: existing, isDirectory: &isDirectory) {
            let parent = (existing as NSString).deletingLastPathComponent
            if parent == existing { break }
            existing = parent
        }
        if !existing.isEmpty, FileManager.default.fileExists(atPath: existing, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            return "\(existing) is a file, not a folder"
        }
        if !creatingDirectory, existing != folder { return "the folder \(folder) does not exist; create it first" }
        return nil
    }

    /// Moves a file over another in one step (both in the same file system).
    /// - Throws: `InputError` naming the target and the system's reason; the source is left as it was.
    package static func rename(_ source: String, to target: String) throws(InputError) {
        guard systemRename(source, target) == 0 else {
            let reason = String(cString: strerror(errno))
            if source.hasSuffix(".tmp") { try? FileManager.default.removeItem(atPath: source) }
            throw InputError(file: target, message: "cannot write the file: \(reason)")
        }
    }
}
