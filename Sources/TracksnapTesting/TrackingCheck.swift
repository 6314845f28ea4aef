import Foundation
import TracksnapDecoders
import TracksnapRecording
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// What `assertTracking` does, apart from reporting: decide, validate or record, and word the
/// failure. Kept free of the test frameworks so that it can be checked on its own.
enum TrackingCheck {
    struct Outcome {
        /// The validation result, when the snapshot was checked.
        var result: SnapshotResult?
        /// The message to fail the test with; nil when it passed.
        var failure: String?
    }

    typealias Writer = (_ requests: [CapturedRequest], _ path: String, _ profile: String?, _ workspace: Workspace)
        throws
        -> Void

    /// - Parameters:
    ///   - requests: the captured traffic.
    ///   - snapshot: the snapshot path as the caller wrote it.
    ///   - validator: the profile the caller named, if any.
    ///   - plans: the tracking plans the caller named, as written (relative ones are relative to
    ///     the test file's directory, as snapshots are).
    ///   - record: the caller's record mode, if any.
    ///   - configuration: the task's configuration (trait, `withTracksnap`).
    ///   - environment: the process environment (`TRACKSNAP_RECORD`, `CI`).
    ///   - testFile: the calling test file's path, for relative snapshot paths.
    ///   - decodes: what the wait's decoders made of these requests (`completion`), read rather
    ///     than decoded again; nil decodes them here.
    ///   - write: writes a snapshot; the recorder's seam.
    static func run(
        _ requests: [CapturedRequest], snapshot: String, validator: String?, plans: [String] = [],
        consent: ConsentDeclaration? = nil, record: RecordMode?, configuration: TracksnapConfiguration,
        environment: [String: String], testFile: String, decodes: DecodeCache? = nil,
        write: Writer = { _ = try writeSnapshot(runs: [$0], to: $1, profile: $2, workspace: $3) }
    ) -> Outcome {
        switch step(
            snapshot: snapshot, record: record, configuration: configuration, environment: environment,
            testFile: testFile)
        {
        case .fail(let message):
            return Outcome(failure: message)
        case .record(let path, let mode, let workspace, let verb):
            return Outcome(
                failure: recording(
                    requests, to: path, profile: validator, workspace: workspace, mode: mode, verb: verb, write: write))
        case .validate(let path, let mode, let workspace, let recordOnFailure):
            let result: SnapshotResult
            do {
                let check = try PreparedCheck(
                    snapshotAt: path, profile: validator,
                    plans: plans.map { SnapshotLocation.resolve($0, testFile: testFile) }, workspace: workspace
                ).declaring(consent: consent)
                result = (decodes.map(check.observingDecodes(in:)) ?? check).validate(requests)
            } catch {
                return Outcome(failure: "tracksnap cannot check \(path):\n\(error)")
            }
            if result.passed { return Outcome(result: result) }
            var message = "Tracking does not match the snapshot \(path):\n\n" + ReportFormat.text.render([result])
            if requests.isEmpty { message += "\nCaptured no request. " + batchingAdvice }
            if recordOnFailure {
                message +=
                    "\n"
                    + recording(
                        requests, to: path, profile: validator, workspace: workspace, mode: mode, verb: "Re-recorded",
                        write: write)
            } else if result.onlyOrderDiffers {
                message += "\n" + SnapshotResult.orderAdvice(file: path)
            } else if result.canBeAccepted {
                message += "\n" + acceptAdvice(losing: result.acceptingLoss)
            }
            return Outcome(result: result, failure: message)
        }
    }

    /// What a check does, decided before it looks at the traffic: fail at once (a bad record
    /// mode, a missing snapshot that may not be recorded), record, or validate.
    enum Step {
        case fail(String)
        case record(path: String, mode: RecordMode, workspace: Workspace, verb: String)
        case validate(path: String, mode: RecordMode, workspace: Workspace, recordOnFailure: Bool)
    }

    /// The step for a snapshot, a record mode and where the test runs; one decision for
    /// `run(_:…)` and `run(runs:…)`.
    static func step(
        snapshot: String, record: RecordMode?, configuration: TracksnapConfiguration, environment: [String: String],
        testFile: String
    ) -> Step {
        let path = SnapshotLocation.resolve(snapshot, testFile: testFile)
        let mode: RecordMode
        do {
            mode = try RecordMode.resolve(explicit: record, configured: configuration.record, environment: environment)
        } catch {
            return .fail("tracksnap: \(error)")
        }
        let workspace = SnapshotLocation.workspace(for: path, configuration: configuration)
        switch RecordDecision(mode: mode, snapshotExists: FileManager.default.fileExists(atPath: path)) {
        case .failMissing:
            let why =
                RecordMode.isCI(environment) && record == nil && configuration.record == nil
                ? "record mode is `never` because CI is set" : "record mode is `never`"
            return .fail(
                """
                No snapshot at \(path), and \(why). Record it locally (record mode `missing`, the \
                default outside CI), check it, and commit it.
                """)
        case .record:
            let verb = FileManager.default.fileExists(atPath: path) ? "Re-recorded" : "Recorded"
            return .record(path: path, mode: mode, workspace: workspace, verb: verb)
        case .validate(let recordOnFailure):
            return .validate(path: path, mode: mode, workspace: workspace, recordOnFailure: recordOnFailure)
        }
    }

    /// Writes the snapshot and words the outcome; a recording always fails the test, so that
    /// the new file is looked at before it is committed.
    private static func recording(
        _ requests: [CapturedRequest], to path: String, profile: String?, workspace: Workspace, mode: RecordMode,
        verb: String,
        write: Writer
    ) -> String {
        guard !requests.isEmpty else { return nothingCaptured(path) }
        do {
            try write(requests, path, profile, workspace)
            return """
                \(verb) the snapshot \(path) from \(requests.count) captured request\(requests.count == 1 ? "" : "s") \
                (record mode `\(mode.rawValue)`). Check it, commit it, and run the test again.
                """
        } catch {
            return "Could not record the snapshot \(path) (record mode `\(mode.rawValue)`): \(error)"
        }
    }

    /// Why a capture that holds nothing is not recorded: an empty snapshot would pass every
    /// later run while checking nothing.
    static func nothingCaptured(_ path: String) -> String {
        """
        Captured no request, so the snapshot \(path) was not recorded: an empty snapshot would pass \
        on every later run while checking nothing. Check that the app's URLSession is made from the \
        configuration the capture was installed on (or that the app sends to the session's base URL \
        or with its X-Tracksnap-Session header), and that the flow sends before the assertion's \
        timeout. \(batchingAdvice)
        """
    }

    /// Why an SDK may send nothing within the assertion's wait: most batch on a timer.
    static let batchingAdvice = """
        Analytics SDKs batch events and send them on a timer (often every 10 to 30 s, longer than \
        the default 10 s timeout): call the SDK's flush before the assertion, shorten its flush \
        interval in the test, or give assertTracking a longer timeout.
        """

    /// The suggestion to accept what was captured, which first says what accepting would remove
    /// (`SnapshotResult.acceptingLoss`) when an expected entry is missing.
    static func acceptAdvice(losing loss: String?) -> String {
        let command = "run the test again with \(RecordMode.environmentVariable)=failed."
        guard let loss else { return "To accept what was captured, " + command }
        return """
            Accepting what was captured would remove \(loss). If the app should still send it, the app \
            needs the fix, not the snapshot. To accept it anyway, \(command)
            """
    }

    /// When an assertion's wait is over, before the settle time and the deadline: what it
    /// checks for after each arrival.
    ///
    /// - With `count`, once that many requests are there.
    /// - When the snapshot is to be validated, once every entry it expects is matched: the
    ///   validation runs on what arrived, so entries count in events where the snapshot lists
    ///   events, decoded by the profile's decoders. A pairing with field differences counts as
    ///   matched (the wait is over; the check reports the differences) — unless the record mode
    ///   is `failed`: a mismatch is then re-recorded, from all the traffic, once it settles.
    /// - When it is to be recorded, never: the wait ends when traffic settles (or at the deadline).
    /// - When the check cannot run (a bad record mode, a missing snapshot that may not be
    ///   recorded, an unreadable snapshot or profile), at once: the check reports why.
    ///
    /// - Parameter decodes: where what the profile's decoders make of each request is kept, for
    ///   the waits' later asks and the validation after it (`run(…decodes:)`): one a capture, whose
    ///   ids are unique in it, never one shared by captures that number from 1 each.
    static func completion(
        count: Int?, snapshot path: String, validator: String?, record: RecordMode?,
        configuration: TracksnapConfiguration, environment: [String: String], decodes: DecodeCache
    ) -> ([CapturedRequest]) -> Bool {
        if let count { return { $0.count >= count } }
        guard
            let mode = try? RecordMode.resolve(
                explicit: record, configured: configuration.record, environment: environment)
        else {
            return { _ in true }
        }
        switch RecordDecision(mode: mode, snapshotExists: FileManager.default.fileExists(atPath: path)) {
        case .failMissing:
            return { _ in true }
        case .record:
            return { _ in false }
        case .validate(let recordOnFailure):
            let workspace = SnapshotLocation.workspace(for: path, configuration: configuration)
            guard
                let check = try? PreparedCheck(snapshotAt: path, profile: validator, workspace: workspace)
                    .observingDecodes(in: decodes)
            else {
                return { _ in true }
            }
            // A mismatch that will be re-recorded waits for the rest of the traffic.
            if recordOnFailure { return { check.validate($0).passed } }
            return check.hasEverythingExpected
        }
    }
}
