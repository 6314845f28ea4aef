import FoundationEssentials
import TracksnapCapture
import TracksnapTraffic

/// Where an assertion reads its traffic: an in-process `CaptureSession`, or a session of a
/// `tracksnap serve` (`TracksnapClient.Session`).
///
/// ```swift
/// await assertTracking(capture, matches: "Snapshots/checkout.json")   // in-process
/// await assertTracking(session, matches: "Snapshots/checkout.json")   // a server's session
/// ```
public protocol TrafficSource: Sendable {
    /// Waits until what arrived is complete, or traffic has been quiet for `settle` after a
    /// request, or `timeout` passes; then what arrived.
    ///
    /// - Throws: `TrafficSourceError` when the traffic cannot be read.
    func traffic(settle: Duration, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool)
        async throws(TrafficSourceError) -> CapturedTraffic
}

/// What a traffic source held, and what a failure should add about it.
public struct CapturedTraffic: Sendable {
    public var requests: [CapturedRequest]
    /// Requests that went astray while it was read, in words; nil when none did.
    public var note: String?
    /// What went wrong beside the traffic (a request a cassette had no answer for), in words:
    /// each fails the assertion, whatever the snapshot says.
    public var problems: [String]

    public init(requests: [CapturedRequest], note: String? = nil, problems: [String] = []) {
        self.requests = requests
        self.note = note
        self.problems = problems
    }
}

/// A traffic source could not be read; the message says which and why.
public struct TrafficSourceError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension CaptureSession: TrafficSource {
    public func traffic(
        settle: Duration, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool
    ) async throws(TrafficSourceError) -> CapturedTraffic {
        CapturedTraffic(
            requests: await waitForRequests(settle: settle, timeout: timeout, until: isComplete), problems: problems)
    }
}

extension TracksnapClient.Session: TrafficSource {
    /// Asks the server for each next request (or for its settle time), checking after each
    /// answer whether the wait is over: a test-side condition driving a server-side wait. The
    /// snapshot is read and validated by the test process, not by the server.
    public func traffic(
        settle: Duration, timeout: Duration, until isComplete: ([CapturedRequest]) -> Bool
    ) async throws(TrafficSourceError) -> CapturedTraffic {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        do {
            var traffic = try await waitForTraffic(count: 0, timeout: .zero)
            while !isComplete(traffic.requests) {
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { break }
                let next = try await waitForTraffic(
                    count: traffic.requests.count + 1, settle: settle, timeout: remaining)
                let grew = next.requests.count > traffic.requests.count
                traffic = next
                // No new request: traffic settled, the deadline passed, or the session ended.
                if !grew { break }
            }
            return CapturedTraffic(requests: traffic.requests, note: unattributedNote(traffic.unattributed))
        } catch {
            throw TrafficSourceError("tracksnap: cannot read session \(id)'s requests: \(error)")
        }
    }

    /// What a failure adds when requests went astray while the session was open; nil when none did.
    func unattributedNote(_ unattributed: Int) -> String? {
        guard unattributed > 0 else { return nil }
        return """
            While session \(id) was open, the server captured \(unattributed) \
            request\(unattributed == 1 ? "" : "s") that no session got: sent without a session \
            hint while several sessions were open, or naming a session that was not open. A common trap \
            is a stale session URL: an SDK client created once (a shared instance, or in a set-up of wider \
            scope) with an earlier session's base URL keeps sending there after that session stopped; create \
            it for each test from the session's base URL. Send \(TracksnapClient.sessionHeader): \(id), \
            or point the app at \(baseURL.absoluteString).
            """
    }
}
