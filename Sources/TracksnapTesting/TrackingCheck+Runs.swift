import Foundation
import TracksnapDecoders
import TracksnapRecording
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

extension TrackingCheck {
    /// What several runs of the same flow come to.
    struct RunsOutcome {
        /// Each run's validation result, when the snapshot was checked.
        var results: [SnapshotResult] = []
        /// The message to fail the test with; nil when every run passed.
        var failure: String?
    }

    typealias RunsWriter = (_ runs: [[CapturedRequest]], _ path: String, _ profile: String?, _ workspace: Workspace)
        throws
        -> RecordOutcome

    /// What `assertTracking(matches:runs:…)` does once every run is captured: records the
    /// snapshot from all of them when the record mode says so (values that differ between the
    /// runs become matchers), else validates each run against it.
    ///
    /// - Parameters:
    ///   - runs: each run's captured traffic, the first run first.
    ///   - snapshot: the snapshot path as the caller wrote it.
    ///   - validator: the profile the caller named, if any.
    ///   - plans: the tracking plans the caller named, as written (relative ones are relative to
    ///     the test file's directory, as snapshots are).
    ///   - record: the caller's record mode, if any.
    ///   - configuration: the task's configuration (trait, `withTracksnap`).
    ///   - environment: the process environment (`TRACKSNAP_RECORD`, `CI`).
    ///   - testFile: the calling test file's path, for relative snapshot paths.
    ///   - decodes: what each run's wait made of its requests (`completion`), a cache a run, read
    ///     rather than decoded again; empty decodes them here.
    ///   - write: records a snapshot from the runs; the recorder's seam.
    static func run(
        runs: [[CapturedRequest]], snapshot: String, validator: String?, plans: [String] = [],
        consent: ConsentDeclaration? = nil, record: RecordMode?,
        configuration: TracksnapConfiguration, environment: [String: String], testFile: String,
        decodes: [DecodeCache] = [],
        write: RunsWriter = { try writeSnapshot(runs: $0, to: $1, profile: $2, workspace: $3) }
    ) -> RunsOutcome {
        switch step(
            snapshot: snapshot, record: record, configuration: configuration, environment: environment,
            testFile: testFile)
        {
        case .fail(let message):
            return RunsOutcome(failure: message)
        case .record(let path, let mode, let workspace, let verb):
            return RunsOutcome(
                failure: recording(
                    runs, to: path, profile: validator, workspace: workspace, mode: mode, verb: verb, write: write))
        case .validate(let path, let mode, let workspace, let recordOnFailure):
            let check: PreparedCheck
            do {
                check = try PreparedCheck(
                    snapshotAt: path, profile: validator,
                    plans: plans.map { SnapshotLocation.resolve($0, testFile: testFile) }, workspace: workspace
                ).declaring(consent: consent)
            } catch {
                return RunsOutcome(failure: "tracksnap cannot check \(path):\n\(error)")
            }
            var results: [SnapshotResult] = []
            var failures: [String] = []
            for (index, requests) in runs.enumerated() {
                let result = (index < decodes.count ? check.observingDecodes(in: decodes[index]) : check).validate(
                    requests)
                results.append(result)
                if !result.passed {
                    failures.append("Run \(index + 1) of \(runs.count):\n\n" + ReportFormat.text.render([result]))
                }
            }
            if failures.isEmpty { return RunsOutcome(results: results) }
            var message = """
                Tracking does not match the snapshot \(path) in \(failures.count) of \(runs.count) runs of the flow:


                """ + failures.joined(separator: "\n")
            if recordOnFailure {
                message +=
                    "\n"
                    + recording(
                        runs, to: path, profile: validator, workspace: workspace, mode: mode, verb: "Re-recorded",
                        write: write)
            } else if results.allSatisfy({ $0.passed || $0.onlyOrderDiffers }) {
                message += "\n" + SnapshotResult.orderAdvice(file: path)
            } else if results.allSatisfy({ $0.passed || $0.canBeAccepted }) {
                let losses = results.compactMap(\.acceptingLoss)
                message += "\n" + acceptAdvice(losing: losses.isEmpty ? nil : losses.joined(separator: "; "))
            }
            return RunsOutcome(results: results, failure: message)
        }
    }

    /// Records from every run and words the outcome; a recording always fails the test, so
    /// that the new file is looked at before it is committed.
    private static func recording(
        _ runs: [[CapturedRequest]], to path: String, profile: String?, workspace: Workspace, mode: RecordMode,
        verb: String,
        write: RunsWriter
    ) -> String {
        if let empty = runs.firstIndex(where: \.isEmpty) {
            return "Run \(empty + 1) of \(runs.count): " + nothingCaptured(path)
        }
        do {
            let outcome = try write(runs, path, profile, workspace)
            let count = runs.map { String($0.count) }.joined(separator: ", ")
            var message = """
                \(verb) the snapshot \(path) from \(runs.count) runs of the flow (\(count) captured requests; \
                record mode `\(mode.rawValue)`).
                """
            for line in Generalization.summary(outcome.generalized) { message += " \(line)." }
            return message + " Check it, commit it, and run the test again."
        } catch {
            return
                "Could not record the snapshot \(path) from \(runs.count) runs (record mode `\(mode.rawValue)`): \(error)"
        }
    }
}
