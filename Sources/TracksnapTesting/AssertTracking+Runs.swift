import Foundation
import TracksnapCapture
import TracksnapDecoders
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
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
///   - capture: what each run's capture answers the app: `.respond()` by default, or
///     `.passThrough` to reach the network.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - plans: tracking plans every run's decoded events are also checked against (absolute, or
///     relative to the directory of the calling test file, as snapshots are).
///   - consent: the user's choice, checked on every run's requests (Documentation/Privacy.md).
///   - record: the record mode for this assertion; see `RecordMode` for the defaults.
///   - settle: how long each run's traffic must be quiet for its wait to end.
///   - timeout: the longest wait for each run.
///   - flow: runs the flow once with URLSessions made from the configuration it is given.
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
///   - isolation: the actor the flow runs on: the caller's (leave the default).
/// - Returns: each run's validation result; empty when the snapshot was recorded, could not
///   be read, or a run threw.
@discardableResult
public func assertTracking(
    matches snapshot: String,
    runs: Int,
    capture: CaptureMode = .respond(),
    validator: String? = nil,
    plans: [String] = [],
    consent: ConsentDeclaration? = nil,
    record: RecordMode? = nil,
    settle: Duration = DefaultWait.settle,
    timeout: Duration = DefaultWait.timeout,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ flow: (URLSessionConfiguration) async throws -> Void
) async -> [SnapshotResult] {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return await checkRuns(
        snapshot, runs: runs, validator: validator, plans: plans, consent: consent, record: record, site: site
    ) {
        run, isComplete in
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        let session = CaptureSession.install(on: sessionConfiguration, mode: capture, name: "run \(run)")
        try await flow(sessionConfiguration)
        return try await session.traffic(settle: settle, timeout: timeout, until: isComplete)
    }
}

/// Runs the same flow several times, each against a new session of a `tracksnap serve`, and
/// checks every run against a snapshot file here, as the in-process `assertTracking(matches:runs:)`
/// does: recording from all the runs when the record mode says so (what differs between them
/// is written as matchers), else validating each run.
///
/// ```swift
/// await assertTracking(matches: "Snapshots/checkout.json", runs: 2, on: server.client) { session in
///     try await launchApp(environment: session.environment)  // the app reports into `session`
/// }
/// ```
///
/// Each run starts a session (named `run N`), hands it to `flow`, waits for its traffic as
/// `assertTracking(_ session:matches:)` does (until every entry the snapshot expects is matched,
/// or traffic has been quiet for `settle`, or `timeout`), and stops it, so that the next run's
/// traffic goes to the next session even without a session hint. The snapshot is read, and
/// recorded, by the test process, not by the server.
/// - Parameters:
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - runs: how many times to run the flow; two or more teach the recorder what varies.
///   - client: the server's control API client.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - plans: tracking plans every run's decoded events are also checked against (absolute, or
///     relative to the directory of the calling test file, as snapshots are).
///   - consent: the user's choice, checked on every run's requests (Documentation/Privacy.md).
///   - record: the record mode for this assertion; see `RecordMode` for the defaults.
///   - settle: how long each run's traffic must be quiet for its wait to end.
///   - timeout: the longest wait for each run.
///   - flow: runs the flow once, its traffic sent into the session it is given (its
///     `baseURL`, its `header`, or an app reporting into it with `environment`).
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
///   - isolation: the actor the flow runs on: the caller's (leave the default).
/// - Returns: each run's validation result; empty when the snapshot was recorded, could not
///   be read, a run threw, or the control API failed.
@discardableResult
public func assertTracking(
    matches snapshot: String,
    runs: Int,
    on client: TracksnapClient,
    validator: String? = nil,
    plans: [String] = [],
    consent: ConsentDeclaration? = nil,
    record: RecordMode? = nil,
    settle: Duration = DefaultWait.settle,
    timeout: Duration = DefaultWait.timeout,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ flow: (TracksnapClient.Session) async throws -> Void
) async -> [SnapshotResult] {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return await checkRuns(
        snapshot, runs: runs, validator: validator, plans: plans, consent: consent, record: record, site: site
    ) {
        run, isComplete in
        let session: TracksnapClient.Session
        do {
            session = try await client.startSession(name: "run \(run)")
        } catch {
            throw TrafficSourceError("tracksnap: cannot start a session for run \(run) of \(runs): \(error)")
        }
        // Stopped before the next run, so that its traffic goes to the next session.
        do {
            try await flow(session)
            var traffic = try await session.traffic(settle: settle, timeout: timeout, until: isComplete)
            _ = try? await session.stop()
            traffic.note = traffic.note.map { "Run \(run): " + $0 }
            return traffic
        } catch {
            _ = try? await session.stop()
            throw error
        }
    }
}

/// What both forms of `assertTracking(matches:runs:)` do around their capture: check the
/// arguments, run and capture each run in turn (an error other than a `TrafficSourceError` is
/// the flow's), then record or validate them all through `TrackingCheck`'s one decision, and report.
private func checkRuns(
    _ snapshot: String, runs: Int, validator: String?, plans: [String], consent: ConsentDeclaration?,
    record: RecordMode?, site: CallSite,
    isolation: isolated (any Actor)? = #isolation,
    capture: (_ run: Int, _ isComplete: @escaping ([CapturedRequest]) -> Bool) async throws -> CapturedTraffic
) async -> [SnapshotResult] {
    guard runs >= 1 else {
        reportIssue("tracksnap: runs must be at least 1, not \(runs)", at: site)
        return []
    }
    let testFile = String(describing: site.filePath)
    let path = SnapshotLocation.resolve(snapshot, testFile: testFile)
    let configuration = TracksnapConfiguration.current
    let environment = ProcessInfo.processInfo.environment
    var captured: [CapturedTraffic] = []
    // A decode cache a run: each run's capture numbers its requests from 1.
    var decodes: [DecodeCache] = []
    for run in 1...runs {
        decodes.append(DecodeCache())
        let isComplete = TrackingCheck.completion(
            count: nil, snapshot: path, validator: validator, record: record,
            configuration: configuration, environment: environment, decodes: decodes[run - 1])
        do {
            captured.append(try await capture(run, isComplete))
        } catch {
            reportIssue(
                (error as? TrafficSourceError)?.description
                    ?? "tracksnap: run \(run) of \(runs) of the flow threw: \(error)",
                at: site)
            return []
        }
    }
    let outcome = TrackingCheck.run(
        runs: captured.map(\.requests), snapshot: path, validator: validator, plans: plans, consent: consent,
        record: record,
        configuration: configuration, environment: environment, testFile: testFile, decodes: decodes)
    if let failure = outcome.failure {
        let notes = captured.compactMap(\.note)
        reportIssue(notes.isEmpty ? failure : failure + "\n\n" + notes.joined(separator: "\n\n"), at: site)
    }
    for problem in captured.flatMap(\.problems) { reportIssue(problem, at: site) }
    return outcome.results
}
