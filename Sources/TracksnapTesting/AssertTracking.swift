import Foundation
import TracksnapCapture
import TracksnapCore
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

/// Waits for an in-process capture's requests, then checks them against a snapshot file.
///
/// ```swift
/// let capture = CaptureSession.install(on: configuration, mode: .respond())
/// // … exercise the app …
/// await assertTracking(capture, matches: "Snapshots/checkout.json")
/// ```
/// - Parameters:
///   - capture: the capture to read.
///   - count: how many requests to wait for; by default the number of requests the snapshot
///     expects (one for a snapshot of events only; none when there is no snapshot yet, so pass
///     it when recording).
///   - timeout: the longest wait; the check then runs on what arrived.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - record: the record mode for this assertion.
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ capture: CaptureSession,
    count: Int? = nil,
    timeout: Duration = .seconds(10),
    matches snapshot: String,
    validator: String? = nil,
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> SnapshotResult? {
    let path = SnapshotLocation.resolve(snapshot, testFile: String(describing: filePath))
    let requests = await capture.waitForRequests(count: count ?? TrackingCheck.expectedCount(at: path), timeout: timeout)
    return assertTracking(
        requests, matches: path, validator: validator, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Waits for a `tracksnap serve` session's requests, then checks them here against a snapshot file.
///
/// ```swift
/// let session = try await client.startSession(name: "checkout")
/// // … point the app at session.baseURL and exercise it …
/// await assertTracking(session, matches: "Snapshots/checkout.json")
/// ```
/// The snapshot is read by the test process, not by the server. A control API error fails the
/// test with its message.
/// - Parameters:
///   - session: the server session to read; it stays open.
///   - count: how many requests to wait for; by default the number of requests the snapshot expects.
///   - timeout: the longest the server waits; the check then runs on what arrived.
///   - snapshot: the snapshot file: absolute, or relative to the directory of the calling test file.
///   - validator: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
///   - record: the record mode for this assertion.
/// - Returns: the validation result, or nil when the snapshot was recorded or could not be read.
@discardableResult
public func assertTracking(
    _ session: TracksnapClient.Session,
    count: Int? = nil,
    timeout: Duration = .seconds(10),
    matches snapshot: String,
    validator: String? = nil,
    record: RecordMode? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> SnapshotResult? {
    let path = SnapshotLocation.resolve(snapshot, testFile: String(describing: filePath))
    let requests: [CapturedRequest]
    do {
        requests = try await session.waitForRequests(count: count ?? TrackingCheck.expectedCount(at: path), timeout: timeout)
    } catch {
        reportIssue(
            "tracksnap: cannot read session \(session.id)'s requests: \(error)",
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return nil
    }
    return assertTracking(
        requests, matches: path, validator: validator, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}
