import Foundation
package import TracksnapJSON
import TracksnapSnapshot
package import TracksnapTraffic
import TracksnapValidation

extension SnapshotRecorder {
    /// Records a snapshot file as a mode asks: the whole record-then-validate step of a test.
    ///
    /// ```swift
    /// let outcome = try recorder.record(requests, snapshotAt: "Snapshots/checkout.json", mode: .failed, pending: true)
    /// outcome.recorded  // true when validation failed: Snapshots/checkout.new.json awaits review
    /// ```
    /// The snapshot's `name` is the existing one's, else the file name. When pending, the file
    /// written is `X.new.json` (see `PendingSnapshot`) and `X.json` is left as it was.
    /// - Parameters:
    ///   - requests: everything captured, in capture order.
    ///   - path: the snapshot file (`X.json`).
    ///   - mode: when to record (`.never` writes nothing).
    ///   - pending: write `X.new.json` for review instead of replacing `X.json`.
    /// - Throws: `InputError` for an existing snapshot that cannot be read, an unknown validator,
    ///   traffic a decoder recognises but cannot decode, or a file that cannot be written.
    package func record(_ requests: [CapturedRequest], snapshotAt path: String, mode: RecordMode, pending: Bool = false)
        throws(InputError) -> RecordOutcome
    {
        try record(runs: [requests], snapshotAt: path, mode: mode, pending: pending)
    }

    /// Records a snapshot file from several runs of the same flow, as a mode asks (see
    /// `snapshot(fromRuns:name:existing:runNames:)`): what differs between the runs is written as
    /// matchers. Nothing is written when a run is not the same flow as the first.
    ///
    /// ```swift
    /// let outcome = try recorder.record(runs: [run1, run2], snapshotAt: "Snapshots/checkout.json", mode: .all)
    /// outcome.generalized  // [/events/0/context/messageId (uuid), …]
    /// ```
    /// With mode `failed`, the snapshot is recorded when validation against any run fails.
    /// - Parameters:
    ///   - runs: each run's captured requests, in capture order, the first run first.
    ///   - path: the snapshot file (`X.json`).
    ///   - mode: when to record (`.never` writes nothing).
    ///   - pending: write `X.new.json` for review instead of replacing `X.json`.
    ///   - runNames: how errors name each run (its capture file).
    /// - Throws: `InputError` as `record(_:snapshotAt:mode:pending:)` does, and for runs that are
    ///   not the same flow, naming the first difference.
    package func record(
        runs: [[CapturedRequest]], snapshotAt path: String, mode: RecordMode, pending: Bool = false,
        runNames: [String] = []
    ) throws(InputError) -> RecordOutcome {
        let exists = FileManager.default.fileExists(atPath: path)
        switch mode {
        case .never:
            return RecordOutcome(file: path, recorded: false, requests: 0, reason: "record mode is never")
        case .missing where exists:
            return RecordOutcome(file: path, recorded: false, requests: 0, reason: "it exists (mode missing)")
        case .failed where exists:
            let check = try PreparedCheck(
                try Snapshot.load(path: path), file: path, profile: profile, workspace: workspace)
            if runs.allSatisfy({ check.validate($0).passed }) {
                return RecordOutcome(file: path, recorded: false, requests: 0, reason: "it passes (mode failed)")
            }
        default:
            break
        }
        let existing = exists ? try JSONDocument.load(path: path) : nil
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let recording = try recording(from: runs, name: name, existing: existing, file: path, runNames: runNames)
        let target = pending ? PendingSnapshot.path(for: path) : path
        try write(recording.snapshot, to: target)
        return RecordOutcome(
            file: target, recorded: true, requests: recording.snapshot["requests"]?.arrayValue?.count ?? 0,
            events: recording.snapshot["events"]?.arrayValue?.count, generalized: recording.generalized)
    }
}
