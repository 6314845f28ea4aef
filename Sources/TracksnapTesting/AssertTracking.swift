import Foundation
import TracksnapCapture
import TracksnapDecoders
import TracksnapRecording
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Checks captured traffic against a snapshot file, failing the running test with the whole
/// diff when it does not match; records the snapshot when the record mode says so.
///
/// ```swift
/// let requests = await capture.waitForRequests(count: 2)
/// assertTracking(requests, matches: "Snapshots/checkout.json")
/// ```
///
/// It reports to whichever framework runs the test: Swift Testing (`Issue.record`) or XCTest
/// (`XCTFail`). A bad snapshot or profile, a missing snapshot that may not be recorded, and a
/// failed recording fail the test with their message; nothing here traps.
/// - Parameters:
///   - requests: the captured traffic, in the order it was sent.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///     Names are looked up in the nearest `Validators` directory above the snapshot.
///   - plans: tracking plans every decoded event is also checked against (files or Iglu folders:
///     absolute, or relative to the directory of the calling test file), besides the profile's `"plan"`.
///   - consent: the user's choice (`try ConsentDeclaration(parsing: "denied")`, `.all(.granted)`):
///     every request is checked against it, over the snapshot's and the profile's `"consent"`.
///   - record: the record mode for this assertion; see `RecordMode` for the defaults.
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ requests: [CapturedRequest],
    matches snapshot: String,
    validator: String? = nil,
    plans: [String] = [],
    consent: ConsentDeclaration? = nil,
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> SnapshotResult? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let outcome = TrackingCheck.run(
        requests, snapshot: snapshot, validator: validator, plans: plans, consent: consent, record: record,
        configuration: TracksnapConfiguration.current, environment: ProcessInfo.processInfo.environment,
        testFile: String(describing: filePath))
    if let failure = outcome.failure { reportIssue(failure, at: site) }
    return outcome.result
}

/// Waits for traffic — of an in-process capture or of a `tracksnap serve` session — then checks
/// it against a snapshot file.
///
/// ```swift
/// let capture = CaptureSession.install(on: configuration, mode: .respond())
/// // … exercise the app; it may send from background tasks, in bursts …
/// await assertTracking(capture, matches: "Snapshots/checkout.json")
///
/// let session = try await client.startSession(name: "checkout")
/// // … point the app at session.baseURL and exercise it …
/// await assertTracking(session, matches: "Snapshots/checkout.json")
/// ```
///
/// It waits until every entry the snapshot expects is matched (validating what arrived after
/// each request: in events where the snapshot lists events), or until traffic has been quiet
/// for `settle` after at least one request, or until `timeout` — then checks. When the snapshot
/// is to be recorded, it waits for the traffic to settle; a capture that holds nothing then
/// fails the test instead of recording an empty snapshot. The snapshot is read, and recorded,
/// by the test process, also for a server's session; when the check fails and the server saw
/// requests that no session got while the session was open, the failure says so.
/// - Parameters:
///   - source: the capture or server session to read; a session stays open.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - count: wait for this many requests instead of the snapshot's entries.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - plans: tracking plans every decoded event is also checked against (absolute, or relative
///     to the directory of the calling test file).
///   - consent: the user's choice: every request is checked against it (Documentation/Privacy.md).
///   - record: the record mode for this assertion.
///   - settle: how long traffic must be quiet for the wait to end (500 ms by default). Give a
///     client that pauses between its events more.
///   - timeout: the longest wait; the check then runs on what arrived.
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ source: some TrafficSource,
    matches snapshot: String,
    count: Int? = nil,
    validator: String? = nil,
    plans: [String] = [],
    consent: ConsentDeclaration? = nil,
    record: RecordMode? = nil,
    settle: Duration = DefaultWait.settle,
    timeout: Duration = DefaultWait.timeout,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> SnapshotResult? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let path = SnapshotLocation.resolve(snapshot, testFile: String(describing: filePath))
    let configuration = TracksnapConfiguration.current
    let environment = ProcessInfo.processInfo.environment
    // The wait and the validation read one decoding of each request (the source's ids are unique).
    let decodes = DecodeCache()
    let isComplete = TrackingCheck.completion(
        count: count, snapshot: path, validator: validator, record: record,
        configuration: configuration, environment: environment, decodes: decodes)
    let traffic: CapturedTraffic
    do {
        traffic = try await source.traffic(settle: settle, timeout: timeout, until: isComplete)
    } catch {
        reportIssue(error.description, at: site)
        return nil
    }
    let outcome = TrackingCheck.run(
        traffic.requests, snapshot: path, validator: validator, plans: plans, consent: consent, record: record,
        configuration: configuration, environment: environment, testFile: String(describing: filePath),
        decodes: decodes)
    if let failure = outcome.failure {
        reportIssue(traffic.note.map { failure + "\n\n" + $0 } ?? failure, at: site)
    }
    for problem in traffic.problems { reportIssue(problem, at: site) }
    return outcome.result
}
