import Foundation
import TracksnapCapture
import TracksnapCore
import TracksnapModel
import TracksnapRecording
import TracksnapReports
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
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> SnapshotResult? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let outcome = TrackingCheck.run(
        requests, snapshot: snapshot, validator: validator, record: record,
        configuration: TracksnapConfiguration.current, environment: ProcessInfo.processInfo.environment,
        testFile: String(describing: filePath))
    if let failure = outcome.failure { reportIssue(failure, at: site) }
    return outcome.result
}

/// Waits for an in-process capture's traffic, then checks it against a snapshot file.
///
/// ```swift
/// let capture = CaptureSession.install(on: configuration, mode: .respond())
/// // … exercise the app; it may send from background tasks, in bursts …
/// await assertTracking(capture, matches: "Snapshots/checkout.json")
/// ```
///
/// It waits until every entry the snapshot expects is matched (validating what arrived after
/// each request: in events where the snapshot lists events), or until traffic has been quiet
/// for `settle` after at least one request, or until `timeout` — then checks. When the snapshot
/// is to be recorded, it waits for the traffic to settle; a capture that holds nothing then
/// fails the test instead of recording an empty snapshot.
/// - Parameters:
///   - capture: the capture to read.
///   - count: wait for this many requests instead of the snapshot's entries.
///   - settle: how long traffic must be quiet for the wait to end (500 ms by default). Give a
///     client that pauses between its events more.
///   - timeout: the longest wait; the check then runs on what arrived.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - record: the record mode for this assertion.
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ capture: CaptureSession,
    count: Int? = nil,
    settle: Duration = DefaultWait.settle,
    timeout: Duration = DefaultWait.timeout,
    matches snapshot: String,
    validator: String? = nil,
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> SnapshotResult? {
    let path = SnapshotLocation.resolve(snapshot, testFile: String(describing: filePath))
    let isComplete = TrackingCheck.completion(
        count: count, snapshot: path, validator: validator, record: record,
        configuration: TracksnapConfiguration.current, environment: ProcessInfo.processInfo.environment)
    let requests = await capture.waitForRequests(settle: settle, timeout: timeout, until: isComplete)
    return assertTracking(
        requests, matches: path, validator: validator, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Waits for a `tracksnap serve` session's traffic, then checks it here against a snapshot file.
///
/// ```swift
/// let session = try await client.startSession(name: "checkout")
/// // … point the app at session.baseURL and exercise it …
/// await assertTracking(session, matches: "Snapshots/checkout.json")
/// ```
/// It waits as the in-process overload does: until every entry the snapshot expects is
/// matched, or the session's traffic has been quiet for `settle`, or `timeout`. The server
/// waits for each next request (or the settle time); the snapshot is read and validated by
/// the test process, not by the server. When the check fails and the server saw requests that
/// no session got while this one was open, the failure says so. A control API error fails the
/// test with its message.
/// - Parameters:
///   - session: the server session to read; it stays open.
///   - count: wait for this many requests instead of the snapshot's entries.
///   - settle: how long traffic must be quiet for the wait to end (500 ms by default).
///   - timeout: the longest wait; the check then runs on what arrived.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - record: the record mode for this assertion.
///   - fileID: the calling file, where a failure is reported (leave the default).
///   - filePath: the calling file's path, which relative snapshot paths start from (leave the default).
///   - line: the calling line, where a failure is reported (leave the default).
///   - column: the calling column, where a failure is reported (leave the default).
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ session: TracksnapClient.Session,
    count: Int? = nil,
    settle: Duration = DefaultWait.settle,
    timeout: Duration = DefaultWait.timeout,
    matches snapshot: String,
    validator: String? = nil,
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> SnapshotResult? {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let path = SnapshotLocation.resolve(snapshot, testFile: String(describing: filePath))
    let configuration = TracksnapConfiguration.current
    let environment = ProcessInfo.processInfo.environment
    let isComplete = TrackingCheck.completion(
        count: count, snapshot: path, validator: validator, record: record,
        configuration: configuration, environment: environment)
    let traffic: TracksnapClient.Traffic
    do {
        traffic = try await waitForTraffic(of: session, settle: settle, timeout: timeout, until: isComplete)
    } catch {
        reportIssue("tracksnap: cannot read session \(session.id)'s requests: \(error)", at: site)
        return nil
    }
    let outcome = TrackingCheck.run(
        traffic.requests, snapshot: path, validator: validator, record: record,
        configuration: configuration, environment: environment, testFile: String(describing: filePath))
    if let failure = outcome.failure {
        reportIssue(unattributedNote(traffic, session: session).map { failure + "\n\n" + $0 } ?? failure, at: site)
    }
    return outcome.result
}

/// What a failure adds when requests went astray while the session was open; nil when none did.
func unattributedNote(_ traffic: TracksnapClient.Traffic, session: TracksnapClient.Session) -> String? {
    guard traffic.unattributed > 0 else { return nil }
    return """
        While session \(session.id) was open, the server captured \(traffic.unattributed) \
        request\(traffic.unattributed == 1 ? "" : "s") that no session got: sent without a session \
        hint while several sessions were open, or naming a session that was not open. A common trap \
        is a stale session URL: an SDK client created once (a shared instance, or in a set-up of wider \
        scope) with an earlier session's base URL keeps sending there after that session stopped; create \
        it for each test from the session's base URL. Send \(TracksnapClient.sessionHeader): \(session.id), \
        or point the app at \(session.baseURL.absoluteString).
        """
}

/// Asks the server for each next request of a session (or for its settle time), checking
/// after each answer whether the wait is over: the loop that lets a test-side condition
/// drive a server-side wait.
func waitForTraffic(
    of session: TracksnapClient.Session, settle: Duration, timeout: Duration,
    until isComplete: ([CapturedRequest]) -> Bool
) async throws(TracksnapClientError) -> TracksnapClient.Traffic {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var traffic = try await session.waitForTraffic(count: 0, timeout: .zero)
    while !isComplete(traffic.requests) {
        let remaining = clock.now.duration(to: deadline)
        if remaining <= .zero { break }
        let next = try await session.waitForTraffic(
            count: traffic.requests.count + 1, settle: settle, timeout: remaining)
        let grew = next.requests.count > traffic.requests.count
        traffic = next
        // No new request: traffic settled, the deadline passed, or the session ended.
        if !grew { break }
    }
    return traffic
}
