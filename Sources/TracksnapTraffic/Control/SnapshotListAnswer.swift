/// The snapshots under the server's root and the pending recordings beside them, as `GET
/// /__tracksnap/snapshots` answers them (`SnapshotList` in `Schemas/control-api.openapi.json`):
/// what the inspector picks a snapshot from and reviews.
///
/// ```json
/// {"folder": "Snapshots", "truncated": false, "snapshots": [
///   {"file": "Snapshots/checkout.json", "exists": true, "pending": "Snapshots/checkout.new.json", "diff": "--- …"}]}
/// ```
public struct SnapshotListAnswer: Sendable, Hashable, Codable {
    /// One snapshot, or a first recording still pending.
    public struct Item: Sendable, Hashable, Codable {
        /// The snapshot, relative to the root.
        public var file: String
        /// False for a first recording, pending with no snapshot yet.
        public var exists: Bool
        /// Its pending recording (`X.new.json`), if any.
        public var pending: String?
        /// How the pending recording differs from the snapshot, as `diff -u` prints it (and
        /// `tracksnap review` shows it): empty when their lines are the same.
        public var diff: String?

        package init(file: String, exists: Bool, pending: String? = nil, diff: String? = nil) {
            self.file = file
            self.exists = exists
            self.pending = pending
            self.diff = diff
        }
    }

    /// The folders searched, relative to the root, comma-separated: those of `Snapshots` and
    /// `snapshots` (a pytest project's) that exist, `Snapshots` when neither does.
    public var folder: String
    /// More files were found than are listed; the first ones, by name, are.
    public var truncated: Bool
    public var snapshots: [Item]

    package init(folder: String, truncated: Bool, snapshots: [Item]) {
        self.folder = folder
        self.truncated = truncated
        self.snapshots = snapshots
    }
}

/// A pending recording accepted or rejected, as `POST /__tracksnap/snapshots/accept` and
/// `…/reject` answer it (`PendingDecision` in `Schemas/control-api.openapi.json`).
///
/// ```json
/// {"snapshot": "Snapshots/checkout.json", "pending": "Snapshots/checkout.new.json", "decision": "accept"}
/// ```
public struct PendingDecisionAnswer: Sendable, Hashable, Codable {
    /// The snapshot, relative to the root: where an accepted recording now is.
    public var snapshot: String
    /// The pending file, moved or deleted.
    public var pending: String
    /// `accept` or `reject`.
    public var decision: String

    package init(snapshot: String, pending: String, decision: String) {
        self.snapshot = snapshot
        self.pending = pending
        self.decision = decision
    }
}
