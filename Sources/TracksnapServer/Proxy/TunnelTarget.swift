/// The `host:port` of a `CONNECT` request, and the URL it is recorded under.
///
/// ```swift
/// TunnelTarget("collect.example:443")?.recordedURL  // "https://collect.example:443"
/// TunnelTarget("127.0.0.1:8080")?.recordedURL       // "http://127.0.0.1:8080"
/// ```
struct TunnelTarget: Sendable, Hashable {
    var host: String
    var port: Int

    /// Parses `host:port` or `[v6]:port`; nil for anything else.
    init?(_ authority: String) {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else { return nil }
        self.host = host
        self.port = port
    }

    /// `https://host:port`, except `http://host:port` for port 80: a tunnel almost always
    /// carries TLS, but AsyncHTTPClient tunnels plain http:// targets too. The port is always
    /// written, so the URL says where the tunnel went.
    var recordedURL: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return "\(port == 80 ? "http" : "https")://\(name):\(port)"
    }
}
