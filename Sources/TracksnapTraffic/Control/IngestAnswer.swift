/// What the control API's `POST /__tracksnap/sessions/{id}/requests` answers: how many of the
/// requests sent it recorded, into which session.
///
/// ```json
/// {"recorded": 1, "session": "s1"}
/// ```
public struct IngestAnswer: Sendable, Hashable, Codable {
    /// How many requests the server recorded.
    public var recorded: Int
    /// The session they were recorded into.
    public var session: String

    package init(recorded: Int, session: String) {
        self.recorded = recorded
        self.session = session
    }
}
