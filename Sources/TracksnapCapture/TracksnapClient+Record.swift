import Foundation
import TracksnapJSON
public import TracksnapTraffic

extension TracksnapClient.Session {
    /// Records the session's requests into a snapshot file under the server's root
    /// (`POST /__tracksnap/sessions/{id}/record`), as `tracksnap record` does.
    ///
    /// ```swift
    /// let first = try await client.startSession(name: "run 1")
    /// let second = try await client.startSession(name: "run 2")
    /// // … run the same flow once against each …
    /// let recording = try await first.record(snapshot: "Snapshots/checkout.json", reruns: [second])
    /// recording.generalized.map(\.path)  // ["/events/0/properties/order_id", …]
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
        snapshot: String, validator: String? = nil, mode: RecordMode? = nil, pending: Bool = false,
        reruns: [TracksnapClient.Session] = [], settle: Duration? = nil
    ) async throws(TracksnapClientError) -> RecordAnswer {
        var body: [String: JSONValue] = ["snapshot": .string(snapshot)]
        if let validator { body["validator"] = .string(validator) }
        if let mode { body["mode"] = .string(mode.rawValue) }
        if pending { body["pending"] = .bool(true) }
        if !reruns.isEmpty { body["reruns"] = .array(reruns.map { .string($0.id) }) }
        if let settle { body["settle"] = .number(Self.seconds(settle)) }
        let response = try await client.send(.post, sessionPath + "/record", body: .object(body), timeout: 90)
        return try response.decode(RecordAnswer.self, as: "a recording")
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
        snapshot: String, validator: String? = nil, plans: [String] = [], format: String, timeout: Duration? = nil,
        settle: Duration? = nil
    ) async throws(TracksnapClientError) -> (passed: Bool, text: String) {
        var body: [String: JSONValue] = ["snapshot": .string(snapshot), "format": .string(format)]
        if let validator { body["validator"] = .string(validator) }
        if !plans.isEmpty { body["plan"] = .array(plans.map(JSONValue.string)) }
        if let timeout { body["timeout"] = .number(Self.seconds(timeout)) }
        if let settle { body["settle"] = .number(Self.seconds(settle)) }
        let wait = Double((timeout ?? .seconds(30)).components.seconds) + 30
        let response = try await client.send(.post, sessionPath + "/validate", body: .object(body), timeout: wait)
        return (response.header("X-Tracksnap-Passed") == "true", response.text)
    }
}
