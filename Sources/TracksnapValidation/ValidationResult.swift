public import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// The outcome of validating one snapshot file against captured traffic.
public struct SnapshotResult: Sendable, Hashable {
    /// The snapshot file, as the user named it.
    public var file: String
    /// The snapshot's `name`, or its file name without extension.
    public var name: String
    /// The validator profile used.
    public var profile: String
    /// How each expected entry fared, in snapshot order.
    public var entries: [EntryResult]
    /// Every finding, in snapshot order; unexpected traffic last, in capture order.
    public var findings: [Finding]
    /// How many captured requests passed the profile's filter.
    public var selected: Int
    /// How many captured requests there were in all.
    public var captured: Int
    /// How many events the selected requests were decoded into; nil when the snapshot lists no
    /// events (and nothing was decoded).
    public var events: Int?
    /// The tracking plans' events this run never sent (coverage), in plan order.
    public var unsentPlanned: [PlannedEvent] = []
    /// Whether tracking plans were checked (and `unsentPlanned` means something).
    public var checkedPlans = false

    public init(
        file: String, name: String, profile: String, entries: [EntryResult], findings: [Finding],
        selected: Int, captured: Int, events: Int? = nil
    ) {
        self.file = file
        self.name = name
        self.profile = profile
        self.entries = entries
        self.findings = findings
        self.selected = selected
        self.captured = captured
        self.events = events
    }

    public var passed: Bool { !findings.contains { $0.severity == .error } }

    /// Whether the same entries arrived, only in another order: every finding is an entry's
    /// `order_mismatch` (not an array's inside one). Re-recording would only flip which order
    /// fails; `"order": "any"` is the fix when the order is not guaranteed.
    public var onlyOrderDiffers: Bool {
        !findings.isEmpty && findings.allSatisfy { $0.code == .orderMismatch && $0.path == $0.entry }
    }

    /// Whether a failed result is one to accept by recording again: not with a `replay_miss`
    /// (its capture is of a run the cassette did not answer) nor a `decode_error` (a request the
    /// profile's decoders cannot read, which recording refuses too). Reports and assertions
    /// name how to accept only such a result.
    /// Nor one where only the order differs (`onlyOrderDiffers`): recording again would only
    /// change which order fails (`orderAdvice`).
    package var canBeAccepted: Bool {
        !passed && !onlyOrderDiffers && !findings.contains { $0.code == .replayMiss || $0.code == .decodeError }
    }

    /// What to do about a failure where only the order differs, naming the snapshot file.
    package static func orderAdvice(file: String) -> String {
        """
        The same entries arrived, in another order. If the app sends them from separate tasks, threads \
        or requests, their order is not guaranteed: write "order": "any" in \(file) instead of \
        re-recording (a new recording would only change which order fails).
        """
    }
}

/// How one expected entry of a snapshot fared.
public struct EntryResult: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        /// Paired with a captured request and no field differs.
        case matched
        /// Paired with a captured request, with field differences (a near miss).
        case mismatched
        /// Nothing captured was paired with it.
        case missing
    }

    /// The entry's JSON Pointer (`/requests/2`).
    public var path: String
    public var location: SourceLocation?
    /// A short human name: `GET https://api.example.com/track` or `segment Order Completed`.
    public var summary: String
    public var status: Status
    /// The captured request it was paired with.
    public var request: RequestReference?

    public init(path: String, location: SourceLocation?, summary: String, status: Status, request: RequestReference?) {
        self.path = path
        self.location = location
        self.summary = summary
        self.status = status
        self.request = request
    }
}
