package import TracksnapTraffic

/// What `SnapshotRecorder.record(_:snapshotAt:mode:pending:)` did.
package struct RecordOutcome: Sendable, Hashable {
    /// The file written (`X.json`, or `X.new.json` when pending), or the snapshot left as it was.
    package var file: String
    /// Whether a file was written.
    package var recorded: Bool
    /// How many requests the recorded snapshot lists (0 when nothing was written).
    package var requests: Int
    /// How many events it lists; nil when it lists none because it records requests only.
    package var events: Int?
    /// Why nothing was written, for people (`"it exists (--mode missing)"`).
    package var reason: String?
    /// The values written as matchers rather than as captured (volatile shapes, values that
    /// differ between runs), in snapshot order; secrets and kept patterns are not listed.
    package var generalized: [Generalization]

    package init(
        file: String, recorded: Bool, requests: Int, events: Int? = nil, reason: String? = nil,
        generalized: [Generalization] = []
    ) {
        self.file = file
        self.recorded = recorded
        self.requests = requests
        self.events = events
        self.reason = reason
        self.generalized = generalized
    }
}
