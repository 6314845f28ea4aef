import Foundation
import TracksnapCore

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
        /// when `timeout` has passed (`GET /__tracksnap/sessions/{id}/requests?count=N&timeout=S`).
        ///
        /// ```swift
        /// let requests = try await session.waitForRequests(count: 3, timeout: .seconds(10))
        /// ```
        /// - Parameters:
        ///   - count: how many requests to wait for.
        ///   - timeout: the longest the server waits.
        /// - Throws: `TracksnapClientError`.
        public func waitForRequests(count: Int, timeout: Duration = .seconds(10)) async throws(TracksnapClientError) -> [CapturedRequest] {
            let seconds = Self.seconds(timeout)
            let query = [URLQueryItem(name: "count", value: String(count)), URLQueryItem(name: "timeout", value: seconds)]
            // The HTTP call must outlive the server's own wait.
            let wait = Double(timeout.components.seconds) + 30
            return try await client.send(.get, requestsPath, query: query, timeout: wait).capturedRequests()
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
        /// let report = try await session.validate(snapshot: "Snapshots/checkout.json", validator: "segment")
        /// if !report.passed { print(report.json) }
        /// ```
        /// - Parameters:
        ///   - snapshot: the snapshot's path, as the server's process sees it.
        ///   - validator: a profile name or path; otherwise the snapshot's own.
        /// - Returns: the report `tracksnap validate --format json` would print.
        /// - Throws: `TracksnapClientError`, with the server's message for a bad snapshot.
        public func validate(snapshot: String, validator: String? = nil) async throws(TracksnapClientError) -> ValidationReport {
            var body: [String: JSONValue] = ["snapshot": .string(snapshot)]
            if let validator { body["validator"] = .string(validator) }
            let response = try await client.send(.post, sessionPath + "/validate", body: .object(body))
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
