/// What an assertion does, given its record mode and whether the snapshot file exists.
///
/// ```swift
/// RecordDecision(mode: .missing, snapshotExists: false)  // .record
/// RecordDecision(mode: .failed, snapshotExists: true)    // .validate(recordOnFailure: true)
/// ```
enum RecordDecision: Sendable, Hashable {
    /// Writes the snapshot from the capture without checking it.
    case record
    /// Checks the capture against the snapshot; on a mismatch, writes it anew when asked to.
    case validate(recordOnFailure: Bool)
    /// Fails: there is no snapshot and the mode forbids recording one.
    case failMissing

    init(mode: RecordMode, snapshotExists: Bool) {
        switch (mode, snapshotExists) {
        case (.all, _): self = .record
        case (.never, false): self = .failMissing
        case (.missing, false), (.failed, false): self = .record
        case (.never, true), (.missing, true): self = .validate(recordOnFailure: false)
        case (.failed, true): self = .validate(recordOnFailure: true)
        }
    }
}
