import Foundation
import TracksnapCapture
import TracksnapCore
import TracksnapRecording
import TracksnapValidation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the same flow several times, each on a fresh capture, and checks every run against a
/// snapshot file; when the record mode says to record, records it from all the runs, so that
/// what differs between them (ids, timestamps, tokens) is written as matchers.
///
/// ```swift
/// await assertTracking(matches: "Snapshots/checkout.json", runs: 2) { configuration in
///     try await App(configuration: configuration).checkout()
/// }
/// ```
///
/// Each run installs a new in-process `CaptureSession` on a new `URLSessionConfiguration`
/// (answering locally with `capture`, by default as the collector does), hands the
/// configuration to `flow`, and waits as `assertTracking(_:matches:)` does: until every entry the
/// snapshot expects is matched, or traffic has been quiet for `settle`, or `timeout`. Then:
///
/// - to record (`missing` without a snapshot, `all`, `failed` on a mismatch): the snapshot is
///   written from all the runs, as `tracksnap record --rerun` does — values equal in every run
///   stay literal, values that differ become the narrowest matcher that accepts them all — and
///   the test fails so that the new file is looked at; runs that are not the same flow, or a run
///   that captured nothing, fail the test and write nothing;
/// - otherwise every run is validated, and the test fails with the whole diff of each run that
///   does not match.
/// - Parameters:
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - runs: how many times to run the flow; two or more teach the recorder what varies.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - record: the record mode for this assertion; see `RecordMode` for the defaults.
///   - capture: what each run's capture answers the app: `.respond()` by default, or
///     `.passThrough` to reach the network.
///   - settle: how long each run's traffic must be quiet for its wait to end.
///   - timeout: the longest wait for each run.
///   - flow: runs the flow once with URLSessions made from the configuration it is given.
/// - Returns: each run's validation result; empty when the snapshot was recorded, could not
///   be read, or a run threw.
@discardableResult
public func assertTracking(
    matches snapshot: String,
    runs: Int,
    validator: String? = nil,
    record: RecordMode? = nil,
    capture: CaptureMode = .respond(),
    settle: Duration = .milliseconds(500),
    timeout: Duration = .seconds(10),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ flow: (URLSessionConfiguration) async throws -> Void
) async -> [SnapshotResult] {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard runs >= 1 else {
        reportIssue("tracksnap: runs must be at least 1, not \(runs)", at: site)
        return []
    }
    let testFile = String(describing: filePath)
    let path = SnapshotLocation.resolve(snapshot, testFile: testFile)
    let configuration = TracksnapConfiguration.current
    let environment = ProcessInfo.processInfo.environment
    let isComplete = TrackingCheck.completion(
        count: nil, snapshot: path, validator: validator, record: record,
        configuration: configuration, environment: environment)

    var captured: [[CapturedRequest]] = []
    for run in 1...runs {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        let session = CaptureSession.install(on: sessionConfiguration, mode: capture, name: "run \(run)")
        do {
            try await flow(sessionConfiguration)
        } catch {
            reportIssue("tracksnap: run \(run) of \(runs) of the flow threw: \(error)", at: site)
            return []
        }
        captured.append(await session.waitForRequests(settle: settle, timeout: timeout, until: isComplete))
    }
    let outcome = TrackingCheck.run(
        runs: captured, snapshot: path, validator: validator, record: record,
        configuration: configuration, environment: environment, testFile: testFile)
    if let failure = outcome.failure { reportIssue(failure, at: site) }
    return outcome.results
}
