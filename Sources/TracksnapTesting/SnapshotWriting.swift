import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The one place where `assertTracking` writes a snapshot from captured traffic: one run, or
/// several runs of the same flow as `tracksnap record --rerun` takes them, where what differs
/// between the runs is written as matchers.
///
/// The profile is the one the assertion names, else the existing snapshot's `validator`, else
/// `default`; its filter, ignore and redaction rules apply, and re-recording keeps the patterns
/// that still match.
/// - Parameters:
///   - runs: each run's captured traffic, in order, the first run first.
///   - path: the snapshot file to write (atomically).
///   - profile: the validator profile (name or path) the assertion names, if any.
///   - workspace: where profile names are looked up.
/// - Returns: what was written and generalised.
/// - Throws: `InputError` when the profile or the existing snapshot cannot be read, the file
///   cannot be written, or the runs are not the same flow (nothing is written then).
func writeSnapshot(runs: [[CapturedRequest]], to path: String, profile: String?, workspace: Workspace) throws
    -> RecordOutcome
{
    try SnapshotRecorder(profile: profile, existing: try? Snapshot.load(path: path), workspace: workspace).record(
        runs: runs, snapshotAt: path, mode: .all)
}
