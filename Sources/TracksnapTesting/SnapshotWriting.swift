import TracksnapCore
import TracksnapValidation

/// The one place where `assertTracking` writes a snapshot from captured traffic.
///
/// The profile is the one the assertion names, else the existing snapshot's `validator`, else
/// `default`; its filter, ignore and redaction rules apply, and re-recording keeps the patterns
/// that still match.
/// - Parameters:
///   - requests: everything captured, in order.
///   - path: the snapshot file to write (atomically).
///   - profile: the validator profile (name or path) the assertion names, if any.
///   - directory: where profile names are looked up.
/// - Throws: `InputError` when the profile or the existing snapshot cannot be read, or the file cannot be written.
func writeSnapshot(_ requests: [CapturedRequest], to path: String, profile: String?, directory: String) throws {
    let existing = try? Snapshot.load(path: path)
    let profile = try Profile.load(profile ?? existing?.validator ?? "default", directory: directory)
    _ = try SnapshotRecorder(profile: profile).record(requests, snapshotAt: path, mode: .all)
}

/// Writes the snapshot from several runs of the same flow, as `tracksnap record --rerun` does:
/// what differs between the runs is written as matchers.
///
/// - Parameters:
///   - runs: each run's captured traffic, the first run first.
///   - path: the snapshot file to write (atomically).
///   - profile: the validator profile (name or path) the assertion names, if any.
///   - directory: where profile names are looked up.
/// - Returns: what was written and generalised.
/// - Throws: `InputError` as `writeSnapshot(_:to:profile:directory:)` does, and for runs that are
///   not the same flow (nothing is written then).
func writeSnapshot(runs: [[CapturedRequest]], to path: String, profile: String?, directory: String) throws -> RecordOutcome {
    let existing = try? Snapshot.load(path: path)
    let profile = try Profile.load(profile ?? existing?.validator ?? "default", directory: directory)
    return try SnapshotRecorder(profile: profile).record(
        runs: runs, snapshotAt: path, mode: .all, runNames: runs.indices.map { "run \($0 + 1)" })
}
