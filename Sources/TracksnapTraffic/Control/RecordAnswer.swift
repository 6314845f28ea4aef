/// What the control API's `POST /__tracksnap/sessions/{id}/record` answers (`RecordAnswer` in
/// `Schemas/control-api.openapi.json`): the server encodes it, `TracksnapClient` decodes it.
///
/// ```swift
/// let recording = try await first.record(snapshot: "Snapshots/checkout.json", reruns: [second])
/// recording.generalized.map(\.path)  // ["/events/0/properties/order_id", …]
/// ```
/// ```json
/// {"events": 3, "file": "Snapshots/checkout.json", "generalized": [{"path": "/events/0/properties/order_id",
///  "reason": "differs between runs"}], "recorded": true, "requests": 0}
/// ```
public import TracksnapJSON

public struct RecordAnswer: Sendable, Hashable, Codable {
    /// The file written (`X.json`, or `X.new.json` when pending) or kept, relative to the
    /// server's root; nil when the call named no file.
    public var file: String?
    /// Whether a snapshot was recorded (a file written, or `snapshotContent` answered).
    public var recorded: Bool
    /// How many requests the snapshot lists.
    public var requests: Int
    /// How many events it lists; nil when it records requests only.
    public var events: Int?
    /// The values written as matchers.
    public var generalized: [Generalization]
    /// Why nothing was written (`it exists (mode missing)`).
    public var reason: String?
    /// The recorded snapshot, when the call named no file.
    public var snapshotContent: JSONValue?

    package init(
        file: String? = nil, recorded: Bool, requests: Int, events: Int? = nil, generalized: [Generalization] = [],
        reason: String? = nil, snapshotContent: JSONValue? = nil
    ) {
        self.file = file
        self.recorded = recorded
        self.requests = requests
        self.events = events
        self.generalized = generalized
        self.reason = reason
        self.snapshotContent = snapshotContent
    }
}
