/// What the capture server has seen since it started: `server.store.statistics`, and what the
/// control API's `GET /__tracksnap/health` answers (`Health` in `Schemas/control-api.openapi.json`).
///
/// ```swift
/// let health = try await client.health()
/// health.unattributed  // 0: every request captured went to a session
/// let stats = server.store.statistics
/// stats.captured == stats.stored + stats.dropped  // while nothing was reset
/// ```
public struct HealthAnswer: Sendable, Hashable, Codable {
    /// Always `ok`.
    public var status: String
    /// Requests recorded since the start (a reset does not lower it).
    public var captured: Int
    /// Requests dropped from memory to stay within `--max-requests` (still in the journal).
    public var dropped: Int
    /// Requests refused with 413 because their body was over `--max-body-size`: as sent (not
    /// recorded), or once inflated, every layer counted (recorded with `refused`, no body).
    public var rejected: Int
    /// Sessions open now.
    public var sessions: Int
    /// Requests held in the global list now.
    public var stored: Int
    /// Requests that reached no session while at least one was open: they named none (with
    /// several open) or named one that is not open. They are only in the global list.
    public var unattributed: Int
    /// Intercepted tunnels that failed: a TLS handshake the client refused or botched, bytes
    /// that were neither TLS nor HTTP, a name (SNI) other than the `CONNECT` target's, a
    /// connection closed mid-request.
    public var interceptFailures: Int

    package init(
        status: String = "ok", captured: Int = 0, dropped: Int = 0, rejected: Int = 0, sessions: Int = 0,
        stored: Int = 0, unattributed: Int = 0, interceptFailures: Int = 0
    ) {
        self.status = status
        self.captured = captured
        self.dropped = dropped
        self.rejected = rejected
        self.sessions = sessions
        self.stored = stored
        self.unattributed = unattributed
        self.interceptFailures = interceptFailures
    }

    private enum CodingKeys: String, CodingKey {
        case status, captured, dropped, rejected, sessions, stored, unattributed
        case interceptFailures = "intercept_failures"
    }
}
