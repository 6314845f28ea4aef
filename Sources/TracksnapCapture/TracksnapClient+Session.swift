public import Foundation
import TracksnapJSON
public import TracksnapTraffic

extension TracksnapClient {
    /// A capture session on the server: what a test's traffic is attributed to.
    ///
    /// ```swift
    /// let session = try await client.startSession(name: "checkout")
    /// var request = URLRequest(url: session.baseURL.appending(path: "v1/track"))  // collector, reverse proxy
    /// request.setValue(session.id, forHTTPHeaderField: TracksnapClient.sessionHeader)  // or this header
    /// let captured = try await session.stop()
    /// ```
    ///
    /// With one session open the server attributes every request to it; with several, a
    /// request belongs to the session named by its `X-Tracksnap-Session` header or by its path
    /// prefix `/__tracksnap/s/{id}/` (collector and reverse-proxy modes; the prefix is stripped
    /// before forwarding).
    public struct Session: Sendable, Hashable {
        public let client: TracksnapClient
        /// The id the server gave the session.
        public let id: String
        /// The name it was started with, if any.
        public let name: String?

        /// The per-session base URL, `/__tracksnap/s/{id}/` on the server: an app pointed
        /// there has its requests attributed to this session.
        public var baseURL: URL {
            client.url("s/\(Self.escaped(id))/")
        }

        /// The header that attributes a request to this session: its name and value.
        public var header: (name: String, value: String) {
            (TracksnapClient.sessionHeader, id)
        }

        /// The session's requests once at least `count` are captured, or those there are
        /// when `timeout` has passed
        /// (`GET /__tracksnap/sessions/{id}/requests?count=N&events=E&settle=S&timeout=T`).
        ///
        /// ```swift
        /// let requests = try await session.waitForRequests(count: 3, timeout: .seconds(10))
        /// let batch = try await session.waitForRequests(events: 5, settle: .milliseconds(500))
        /// ```
        /// - Parameters:
        ///   - count: how many requests to wait for.
        ///   - events: how many events to wait for, once the server decodes the requests (with
        ///     every built-in decoder: a batch counts each of its events).
        ///   - settle: return once the session's traffic has been quiet this long, after at
        ///     least one request arrived. With neither count nor events, the wait ends then
        ///     (or at the timeout).
        ///   - timeout: the longest the server waits.
        /// - Throws: `TracksnapClientError`.
        public func waitForRequests(
            count: Int? = nil, events: Int? = nil, settle: Duration? = nil, timeout: Duration = .seconds(10)
        ) async throws(TracksnapClientError) -> [CapturedRequest] {
            try await waitForTraffic(count: count, events: events, settle: settle, timeout: timeout).requests
        }

        /// Waits as `waitForRequests` does, and also returns how many requests no session got
        /// while this one was open, and why the wait ended.
        ///
        /// ```swift
        /// let traffic = try await session.waitForTraffic(settle: .milliseconds(500))
        /// if traffic.unattributed > 0 { print("send \(TracksnapClient.sessionHeader)") }
        /// ```
        /// - Throws: `TracksnapClientError`.
        public func waitForTraffic(
            count: Int? = nil, events: Int? = nil, settle: Duration? = nil, timeout: Duration = .seconds(10)
        ) async throws(TracksnapClientError) -> Traffic {
            var query: [URLQueryItem] = []
            if let count { query.append(URLQueryItem(name: "count", value: String(count))) }
            if let events { query.append(URLQueryItem(name: "events", value: String(events))) }
            if let settle { query.append(URLQueryItem(name: "settle", value: Self.seconds(settle))) }
            query.append(URLQueryItem(name: "timeout", value: Self.seconds(timeout)))
            // The HTTP call must outlive the server's own wait.
            let wait = Double(timeout.components.seconds) + 30
            let response = try await client.send(.get, requestsPath, query: query, timeout: wait)
            return Traffic(
                requests: try response.capturedRequests(),
                unattributed: response.header(Traffic.unattributedHeader).flatMap { Int($0) } ?? 0,
                reason: response.header(Traffic.waitHeader))
        }

        /// The session's requests captured so far, without waiting.
        public func requests() async throws(TracksnapClientError) -> [CapturedRequest] {
            try await client.send(.get, requestsPath).capturedRequests()
        }

        /// Ends the session and returns its requests (`DELETE /__tracksnap/sessions/{id}`).
        public func stop() async throws(TracksnapClientError) -> [CapturedRequest] {
            try await client.send(.delete, sessionPath).capturedRequests()
        }

        /// Validates the session's requests on the server against a snapshot file there
        /// (`POST /__tracksnap/sessions/{id}/validate`).
        ///
        /// ```swift
        /// let report = try await session.validate(snapshot: "Snapshots/checkout.json", timeout: .seconds(10))
        /// if !report.passed { print(report.json) }
        /// ```
        /// The server first waits until every entry the snapshot expects is matched (in events,
        /// where it lists events), or until the session's traffic has been quiet for the settle
        /// time (500 ms by default) after at least one request, or until the timeout (10 s by
        /// default), as `assertTracking` waits; then it validates. A settle time of zero without
        /// a timeout validates what is there at once.
        /// - Parameters:
        ///   - snapshot: the snapshot's path, as the server's process sees it.
        ///   - validator: a profile name or path; otherwise the snapshot's own.
        ///   - plans: tracking plans under the server's root, every decoded event is also checked against.
        ///   - timeout: the longest the server waits.
        ///   - settle: how long the traffic must be quiet for the wait to end.
        /// - Returns: the report `tracksnap validate --format json` would print.
        /// - Throws: `TracksnapClientError`, with the server's message for a bad snapshot.
        public func validate(
            snapshot: String, validator: String? = nil, plans: [String] = [], timeout: Duration? = nil,
            settle: Duration? = nil
        ) async throws(TracksnapClientError) -> ValidationReport {
            var body: [String: JSONValue] = ["snapshot": .string(snapshot)]
            if let validator { body["validator"] = .string(validator) }
            if !plans.isEmpty { body["plan"] = .array(plans.map(JSONValue.string)) }
            if let timeout { body["timeout"] = .number(Self.seconds(timeout)) }
            if let settle { body["settle"] = .number(Self.seconds(settle)) }
            let wait = Double((timeout ?? .seconds(30)).components.seconds) + 30
            let response = try await client.send(.post, sessionPath + "/validate", body: .object(body), timeout: wait)
            do {
                return try ValidationReport(json: response.body)
            } catch {
                throw response.error("the validation report cannot be read: \(error.message)")
            }
        }

        var sessionPath: String { "sessions/\(Self.escaped(id))" }
        var requestsPath: String { sessionPath + "/requests" }

        /// The id as one path segment: a `/` or `?` in it must not change the path.
        static func escaped(_ segment: String) -> String {
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "/?#%")
            return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
        }

        /// Seconds as the `timeout` query parameter: whole seconds without a fraction.
        static func seconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let milliseconds = attoseconds / 1_000_000_000_000_000
            if milliseconds == 0 { return String(seconds) }
            let fraction = String(String(1000 + milliseconds).dropFirst())
            return "\(seconds).\(fraction)".replacing(/0+$/, with: "")
        }

        public static func == (lhs: Session, rhs: Session) -> Bool {
            lhs.id == rhs.id && lhs.client.baseURL == rhs.client.baseURL
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(client.baseURL)
        }
    }
}
