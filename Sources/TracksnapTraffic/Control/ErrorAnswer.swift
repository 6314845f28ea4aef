/// What the control API answers with a 4xx or 5xx status (`Error` in
/// `Schemas/control-api.openapi.json`): a message that names what was wrong.
///
/// ```json
/// {"error": "no open session \"s9\""}
/// ```
package struct ErrorAnswer: Sendable, Hashable, Codable {
    /// What was wrong, naming the field or the session.
    package var error: String

    package init(error: String) {
        self.error = error
    }
}
