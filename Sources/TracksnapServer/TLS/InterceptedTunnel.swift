/// One decrypted (or plain HTTP) `CONNECT` tunnel, as the requests inside it are recorded and
/// answered: the origin they are recorded under and forwarded to, and the action.
///
/// ```swift
/// InterceptedTunnel(scheme: "https", host: "api.segment.io", port: 443, action: .answer, sessionHint: nil).origin
/// // "https://api.segment.io"
/// ```
struct InterceptedTunnel: Sendable {
    /// `https` once TLS was decrypted, `http` for plain HTTP inside the tunnel.
    var scheme: String
    /// The name the client asked for: its TLS server name, else the `CONNECT` target's host.
    var host: String
    var port: Int
    var action: Interception.Action
    /// The `X-Tracksnap-Session` the `CONNECT` carried: the session of every request inside
    /// that names none itself.
    var sessionHint: String?
    /// Requests arrive on HTTP/2 streams: no `Connection` header, a stream per request.
    var isHTTP2 = false

    /// `scheme://host[:port]`, the port left out when it is the scheme's default.
    var origin: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return port == defaultPort ? "\(scheme)://\(name)" : "\(scheme)://\(name):\(port)"
    }
}
