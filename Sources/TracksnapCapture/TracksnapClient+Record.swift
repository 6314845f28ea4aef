import Foundation
import TracksnapModel

extension TracksnapClient {
    /// When the server records a snapshot (`mode` of `POST sessions/{id}/record`), as
    /// `tracksnap record --mode` takes it.
    public enum RecordMode: String, Sendable, Hashable, CaseIterable {
        /// Always; re-recording keeps the patterns that still match.
        case all
        /// Only when the snapshot file does not exist.
        case missing
        /// Only when it does not exist or validation against any run fails.
        case failed
        /// Never: the call only says what it would keep.
        case never
    }

    /// What the server did when asked to record (`Session.record`).
    ///
    /// ```swift
    /// let recording = try await first.record(snapshot: "Snapshots/checkout.json", reruns: [second])
    /// recording.generalized.map(\.path)  // ["/events/0/properties/order_id", …]
    /// ```
    public struct Recording: Sendable, Hashable {
        /// A value written as a matcher rather than as captured, and why (`uuid`,
        /// `timestamp`, `differs between runs`…).
        public struct Generalization: Sendable, Hashable {
            public var path: String
            public var reason: String

            public init(path: String, reason: String) {
                self.path = path
                self.reason = reason
            }
        }

        /// The file written (`X.json`, or `X.new.json` when pending) or kept, relative to the
        /// server's root.
        public var file: String
        /// Whether a file was written.
        public var recorded: Bool
        /// How many requests the snapshot lists.
        public var requests: Int
        /// How many events it lists; nil when it records requests only.
        public var events: Int?
        /// The values written as matchers.
        public var generalized: [Generalization]
        /// Why nothing was written (`it exists (mode missing)`).
        public var reason: String?
    }
}

extension TracksnapClient.Session {
    /// Records the session's requests into a snapshot file under the server's root
    /// (`POST /__tracksnap/sessions/{id}/record`), as `tracksnap record` does.
    ///
    /// ```swift
    /// let first = try await client.startSession(name: "run 1")
    /// let second = try await client.startSession(name: "run 2")
    /// // … run the same flow once against each …
    /// let recording = try await first.record(snapshot: "Snapshots/checkout.json", reruns: [second])
    /// ```
    /// Each rerun session is another run of the same flow (`--rerun`): values equal in every run
    /// stay literal, values that differ become the narrowest matcher that accepts them all.
    /// - Parameters:
    ///   - snapshot: the snapshot's path, relative to the server's root (`serve --root`).
    ///   - validator: a profile name or path; otherwise the existing snapshot's, otherwise `default`.
    ///   - mode: when to record; `all` when nil.
    ///   - pending: write `X.new.json` for review instead of replacing `X.json`.
    ///   - reruns: other open sessions that ran the same flow.
    ///   - settle: first wait until this session's traffic has been quiet this long.
    /// - Throws: `TracksnapClientError` with the server's message: runs that are not the same
    ///   flow (nothing is written), a run that captured nothing, a path outside the root, an
    ///   unknown session.
    @discardableResult
    public func record(
        snapshot: String, validator: String? = nil, mode: TracksnapClient.RecordMode? = nil, pending: Bool = false,
        reruns: [TracksnapClient.Session] = [], settle: Duration? = nil
    ) async throws(TracksnapClientError) -> TracksnapClient.Recording {
        var body: [String: JSONValue] = ["snapshot": .string(snapshot)]
        if let validator { body["validator"] = .string(validator) }
        if let mode { body["mode"] = .string(mode.rawValue) }
        if pending { body["pending"] = .bool(true) }
        if !reruns.isEmpty { body["reruns"] = .array(reruns.map { .string($0.id) }) }
        if let settle { body["settle"] = .number(Self.seconds(settle)) }
        let response = try await client.send(.post, sessionPath + "/record", body: .object(body), timeout: 90)
        let answer = try response.json()
        guard let file = answer["file"]?.stringValue, case .bool(let recorded)? = answer["recorded"],
            let requests = answer["requests"]?.doubleValue
        else {
            throw response.error("the answer is not a recording: \(response.text.prefix(200))")
        }
        let generalized = (answer["generalized"]?.arrayValue ?? []).compactMap {
            item -> TracksnapClient.Recording.Generalization? in
            guard let path = item["path"]?.stringValue, let reason = item["reason"]?.stringValue else { return nil }
            return .init(path: path, reason: reason)
        }
        return TracksnapClient.Recording(
            file: file, recorded: recorded, requests: Int(requests),
            events: answer["events"]?.doubleValue.map { Int($0) },
            generalized: generalized, reason: answer["reason"]?.stringValue)
    }

    /// Validates the session on the server, as `validate(snapshot:…)` does, and returns the
    /// report in one of the CLI's formats: `text` is what an assertion message shows.
    ///
    /// ```swift
    /// let report = try await session.report(snapshot: "Snapshots/checkout.json", format: "text", settle: .milliseconds(500))
    /// if !report.passed { Issue.record(Comment(rawValue: report.text)) }
    /// ```
    /// - Parameters:
    ///   - format: `json`, `text`, `junit`, `github`, `markdown` or `html`.
    /// - Throws: `TracksnapClientError`.
    public func report(
        snapshot: String, validator: String? = nil, format: String, timeout: Duration? = nil, settle: Duration? = nil
    ) async throws(TracksnapClientError) -> (passed: Bool, text: String) {
        var body: [String: JSONValue] = ["snapshot": .string(snapshot), "format": .string(format)]
        if let validator { body["validator"] = .string(validator) }
        if let timeout { body["timeout"] = .number(Self.seconds(timeout)) }
        if let settle { body["settle"] = .number(Self.seconds(settle)) }
        let wait = Double((timeout ?? .seconds(30)).components.seconds) + 30
        let response = try await client.send(.post, sessionPath + "/validate", body: .object(body), timeout: wait)
        return (response.header("X-Tracksnap-Passed") == "true", response.text)
    }
}
