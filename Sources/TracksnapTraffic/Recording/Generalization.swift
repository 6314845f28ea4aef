/// A value a recording wrote as a matcher rather than as captured, for people to check: in
/// `tracksnap record`'s output, and in the control API's record answer (`RecordAnswer`).
///
/// ```swift
/// outcome.generalized.first  // /events/0/context/messageId (uuid)
/// ```
public struct Generalization: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The value's JSON Pointer in the snapshot (`/requests/1/parameters/ts`).
    public var path: String
    /// Why: the shape recognised (`uuid`, `timestamp`, `epoch-s`, `epoch-ms`, `epoch-us`,
    /// `client-id`, `random-id`, `hex`, `base64`, `local-origin`), `differs between runs`,
    /// `environment` (a field of the profile's `environment`, left out), or, at `/order`, why
    /// the order written is `any`.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `/requests/1/parameters/ts (epoch-ms)`.
    public var description: String { "\(path) (\(reason))" }
}
