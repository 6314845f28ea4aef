/// What the control API's `GET /__tracksnap/health` answers (`Health` in
/// `Schemas/control-api.openapi.json`): the server's counters.
///
/// ```swift
/// let health = try await client.health()
/// health.unattributed  // 0: every request captured went to a session
/// ```
public struct HealthAnswer: Sendable, Hashable, Codable {
    /// Always `ok`.
    public var status: String
    /// Requests captured since the server started.
    public var captured: Int
    /// Requests dropped from memory to keep within `--max-requests`.
    public var dropped: Int
    /// Requests refused (over `--max-body-size`, say).
    public var rejected: Int
    /// Sessions open.
    public var sessions: Int
    /// Requests held in memory.
    public var stored: Int
    /// Requests no session got.
    public var unattributed: Int
    /// Intercepted tunnels that failed (a client not trusting the CA, no TLS, a bad ClientHello…).
    public var interceptFailures: Int

    public init(
        status: String = "ok", captured: Int, dropped: Int, rejected: Int, sessions: Int, stored: Int,
        unattributed: Int, interceptFailures: Int
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
