import Foundation
package import TracksnapJSON
import TracksnapSnapshot
import TracksnapValidation

/// Pending snapshots: a recording written as `X.new.json` beside `X.json` for review, then
/// accepted (moved over `X.json`) or rejected (deleted).
///
/// ```swift
/// PendingSnapshot.path(for: "Snapshots/checkout.json")  // "Snapshots/checkout.new.json"
/// try PendingSnapshot.accept("Snapshots/checkout.json")
/// ```
package enum PendingSnapshot {
    static let suffix = ".new.json"

    /// The pending file of a snapshot: `X.new.json` for `X.json` (or for `X.new.json` itself).
    package static func path(for snapshot: String) -> String {
        if snapshot.hasSuffix(suffix) { return snapshot }
        return (snapshot.hasSuffix(".json") ? String(snapshot.dropLast(5)) : snapshot) + suffix
    }

    /// The snapshot a pending file replaces: `X.json` for `X.new.json` (or for `X.json` itself).
    package static func snapshotPath(for path: String) -> String {
        path.hasSuffix(suffix) ? String(path.dropLast(suffix.count)) + ".json" : path
    }

    /// Moves the pending file over the snapshot, in one step, once it reads as a snapshot: one
    /// edited by hand into something else, or cut short, would replace a snapshot that works.
    ///
    /// - Parameters:
    ///   - snapshot: `X.json` or `X.new.json`.
    ///   - display: how the message names the snapshot.
    /// - Returns: the snapshot's path.
    /// - Throws: `InputError` when there is no pending file, it is no snapshot (its errors, then
    ///   what is kept), or it cannot be moved.
    @discardableResult
    package static func accept(_ snapshot: String, display: (String) -> String = { $0 }) throws(InputError)
        -> String
    {
        let pending = try existingPending(snapshot)
        let target = snapshotPath(for: pending)
        do throws(InputError) {
            _ = try Snapshot.load(path: pending)
        } catch {
            let shown = display(target)
            let kept =
                FileManager.default.fileExists(atPath: target) ? "\(shown) is kept as it is" : "nothing is written"
            throw InputError(
                error.diagnostics + [
                    Diagnostic(
                        .error, file: pending,
                        message:
                            "not accepted, since it is no snapshot: \(kept); fix it, or reject it (tracksnap reject \(shown))"
                    )
                ])
        }
        try AtomicFile.rename(pending, to: target)
        return target
    }

    /// Deletes the pending file.
    ///
    /// - Parameter snapshot: `X.json` or `X.new.json`.
    /// - Returns: the pending file's path.
    /// - Throws: `InputError` when there is no pending file or it cannot be deleted.
    @discardableResult
    package static func reject(_ snapshot: String) throws(InputError) -> String {
        let pending = try existingPending(snapshot)
        do {
            try FileManager.default.removeItem(atPath: pending)
        } catch {
            throw InputError(file: pending, message: "cannot be deleted: \(error.localizedDescription)")
        }
        return pending
    }

    /// How a pending file differs from its snapshot, as `diff -u` prints it: empty when their
    /// lines are the same; every line added when there is no snapshot yet.
    ///
    /// - Parameters:
    ///   - pending: the pending file (`X.new.json`), which is read, with `X.json`.
    ///   - display: how the diff's header names a file.
    package static func diff(_ pending: String, display: (String) -> String = { $0 }) -> String {
        let target = snapshotPath(for: pending)
        let new = FileManager.default.contents(atPath: pending).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let old = FileManager.default.contents(atPath: target).map { String(decoding: $0, as: UTF8.self) }
        return LineDiff.unified(
            old: old ?? "", new: new, oldName: old == nil ? "(no snapshot yet)" : display(target),
            newName: display(pending))
    }

    /// Every pending file at or under these paths (files as given, directories searched), sorted.
    ///
    /// - Throws: `InputError` for a path that does not exist.
    package static func find(in paths: [String]) throws(InputError) -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError(file: path, message: "no such file or directory")
            }
            if !isDirectory.boolValue {
                let pending = self.path(for: path)
                if FileManager.default.fileExists(atPath: pending) { found.append(pending) }
                continue
            }
            let below = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(suffix) }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            found += below
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    private static func existingPending(_ snapshot: String) throws(InputError) -> String {
        let pending = path(for: snapshot)
        guard FileManager.default.fileExists(atPath: pending) else {
            throw InputError(
                file: pending,
                message:
                    "no pending snapshot to review (record one with `tracksnap record \(snapshotPath(for: snapshot)) --pending`)"
            )
        }
        return pending
    }
}
