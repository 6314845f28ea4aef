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
