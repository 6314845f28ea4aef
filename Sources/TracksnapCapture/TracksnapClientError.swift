/// A control API call that failed: the server answered with an error, could not be reached,
/// or sent a response the client cannot read.
///
/// ```swift
/// do { _ = try await client.session(id: "nope").stop() }
/// catch { print(error) }  // DELETE http://127.0.0.1:8181/__tracksnap/sessions/nope: 404: no session "nope"
/// ```
public struct TracksnapClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status, or nil when no response came (connection refused, timeout).
    public var status: Int?
    /// The server's error message, or what went wrong on the client's side.
    public var message: String
    /// The request's method and URL.
    public var method: String
    public var url: String

    public init(status: Int?, message: String, method: String, url: String) {
        self.status = status
        self.message = message
        self.method = method
        self.url = url
    }

    public var description: String {
        "\(method) \(url): " + (status.map { "\($0): " } ?? "") + message
    }
}
