/// How captured traffic names its session: the `X-Tracksnap-Session` header, or a per-session
/// base URL `/__tracksnap/s/{id}/…` whose prefix is stripped before recording and forwarding.
///
/// ```swift
/// SessionRouting.split("/__tracksnap/s/s2/v1/batch?x=1")  // ("s2", "/v1/batch?x=1")
/// ```
enum SessionRouting {
    static let headerName = "X-Tracksnap-Session"
    static let prefix = "/__tracksnap/s/"

    /// The session id and the target left once the prefix is stripped (`/` when nothing is
    /// left); nil when the target has no such prefix.
    static func split(_ uri: String) -> (session: String, target: String)? {
        guard uri.hasPrefix(prefix) else { return nil }
        let rest = uri.dropFirst(prefix.count)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let session = String(rest[..<end])
        guard !session.isEmpty else { return nil }
        var target = String(rest[end...])
        if !target.hasPrefix("/") { target = "/" + target }
        return (session, target)
    }
}
