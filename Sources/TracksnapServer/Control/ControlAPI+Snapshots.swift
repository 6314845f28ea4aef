import Foundation
import NIOCore
import NIOHTTP1
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension ControlAPI {
    /// Where `GET snapshots` looks, under the root: `Snapshots`, the folder the Swift guides write
    /// and `tracksnap review` searches by default, and `snapshots`, the one the Python guide's
    /// pytest projects keep. A folder that does not exist is left out.
    static let snapshotFolders = ["Snapshots", "snapshots"]
    /// `GET snapshots` lists at most this many files.
    static let snapshotListLimit = 1_000

    /// `GET snapshots`: the snapshots under the root's `Snapshots/` and `snapshots/` folders, and
    /// the pending recordings beside them (`X.new.json`), each with its diff against the snapshot,
    /// as `tracksnap review` shows it. What the inspector picks a snapshot from and reviews.
    ///
    /// ```text
    /// GET /__tracksnap/snapshots
    /// → 200 {"folder": "Snapshots", "truncated": false, "snapshots": [
    ///        {"file": "Snapshots/checkout.json", "exists": true,
    ///         "pending": "Snapshots/checkout.new.json", "diff": "--- Snapshots/checkout.json\n+++ …"}]}
    /// ```
    ///
    /// A file that resolves outside the root (a symlink out of it) is left out, never read. On a
    /// file system that ignores case, the two folders are one and listed once.
    func listSnapshots() -> ControlReply {
        .later { [workspace] () async throws(ControlError) in
            var searched: [String] = []
            var seen = Set<String>()
            var names = Set<String>()
            for shownFolder in Self.snapshotFolders {
                let folder: String
                do throws(InputError) {
                    folder = try workspace.path(shownFolder, field: "the snapshot folder")
                } catch {
                    throw ControlError(.conflict, error.description)
                }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                    seen.insert(folder).inserted
                else { continue }
                searched.append(shownFolder)
                for name in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
                where name.hasSuffix(".json") && !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                    let file = PendingSnapshot.snapshotPath(for: name)
                    names.insert((shownFolder as NSString).appendingPathComponent(file))
                }
            }
            let sorted = names.sorted()
            var listed: [SnapshotListAnswer.Item] = []
            for shown in sorted.prefix(Self.snapshotListLimit) {
                guard let file = try? workspace.path(shown, field: "snapshot") else { continue }
                var item = SnapshotListAnswer.Item(file: shown, exists: FileManager.default.fileExists(atPath: file))
                let pending = PendingSnapshot.path(for: shown)
                if let resolved = try? workspace.path(pending, field: "snapshot"),
                    FileManager.default.fileExists(atPath: resolved)
                {
                    item.pending = pending
                    item.diff = PendingSnapshot.diff(resolved, display: workspace.display)
                }
                listed.append(item)
            }
            return .answer(
                .ok,
                SnapshotListAnswer(
                    folder: (searched.isEmpty ? [Self.snapshotFolders[0]] : searched).joined(separator: ", "),
                    truncated: sorted.count > Self.snapshotListLimit, snapshots: listed))
        }
    }

    /// What the inspector's review does with a pending recording.
    enum PendingDecision: String {
        /// Moves `X.new.json` over `X.json`, as `tracksnap accept` does.
        case accept
        /// Deletes `X.new.json`, as `tracksnap reject` does.
        case reject
    }

    /// `POST snapshots/accept`, `POST snapshots/reject`: a pending recording under the root
    /// accepted or rejected.
    ///
    /// ```text
    /// POST /__tracksnap/snapshots/accept {"snapshot": "Snapshots/checkout.json"}
    /// → 200 {"snapshot": "Snapshots/checkout.json", "pending": "Snapshots/checkout.new.json", "decision": "accept"}
    /// ```
    ///
    /// No pending file: 404. A path outside the root, or a pending file that is a symbolic
    /// link (accepting it would put a link where the snapshot was): 400, and nothing changes.
    func decide(_ decision: PendingDecision, _ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let body = try ControlBody(
            request.body.readableBytesView, fields: ["snapshot"],
            example: #"{"snapshot": "Snapshots/checkout.json"}"#)
        guard let named = try body.string("snapshot"), named.hasSuffix(".json") else {
            throw .badRequest("snapshot (the snapshot's path under the root, X.json or X.new.json) is required")
        }
        // The folder resolved, the file not: a pending file that is a link is seen as one.
        let parent = (named as NSString).deletingLastPathComponent
        let folder = try resolve(parent.isEmpty ? "." : parent, field: "snapshot").path
        let name = (named as NSString).lastPathComponent
        let snapshot = (folder as NSString).appendingPathComponent(PendingSnapshot.snapshotPath(for: name))
        let pending = (folder as NSString).appendingPathComponent(PendingSnapshot.path(for: name))
        return .later { [workspace] () async throws(ControlError) in
            let shown = workspace.display(pending)
            let attributes = try? FileManager.default.attributesOfItem(atPath: pending)
            guard let attributes else { throw .notFound("no pending snapshot \(shown) to \(decision)") }
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw .badRequest("\(shown) is not a regular file; it is left as it is")
            }
            do throws(InputError) {
                switch decision {
                case .accept: try PendingSnapshot.accept(pending, display: workspace.display)
                case .reject: try PendingSnapshot.reject(pending)
                }
            } catch {
                throw ControlError(.conflict, error, shownBy: workspace)
            }
            return .answer(
                .ok,
                PendingDecisionAnswer(
                    snapshot: workspace.display(snapshot), pending: shown, decision: decision.rawValue))
        }
    }
}
