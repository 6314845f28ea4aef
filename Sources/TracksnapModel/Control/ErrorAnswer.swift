/// What the control API answers with a 4xx or 5xx status (`Error` in
/// `Schemas/control-api.openapi.json`): a message that names what was wrong.
///
/// ```json
/// {"error": "no open session \"s9\""}
/// ```
public struct ErrorAnswer: Sendable, Hashable, Codable {
    /// What was wrong, naming the field or the session.
    public var error: String

    public init(error: String) {
        self.error = error
    }
}
