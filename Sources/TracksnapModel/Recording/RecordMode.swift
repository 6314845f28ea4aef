/// When a snapshot is (re-)recorded from captured traffic: what `tracksnap record --mode`,
/// an assertion's `record:` and the control API's `POST sessions/{id}/record` take.
///
/// ```swift
/// let mode = RecordMode(rawValue: environment["TRACKSNAP_RECORD"] ?? "") ?? .missing
/// ```
public enum RecordMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Only when the snapshot file does not exist (the local default).
    case missing
    /// Always; re-recording keeps the patterns that still match.
    case all
    /// Only when the snapshot does not exist or validation against it fails.
    case failed
    /// Never (the default in CI): a missing snapshot is a failure, not a new file.
    case never
}
