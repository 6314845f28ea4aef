extension CapturedRequest {
    /// The URL without its query and fragment, as snapshots compare it.
    ///
    /// ```swift
    /// // url: "HTTPS://user:pw@API.Example.com:8443/v1/t?a=1#top"
    /// request.urlWithoutQuery  // "https://api.example.com:8443/v1/t"
    /// ```
    ///
    /// Scheme and host are lowercased (they are case-insensitive), user info is dropped (it
    /// would put credentials in snapshots), the port stays as written, the path stays
    /// percent-encoded as sent, and an empty path is `/`, the path the request line carried.
    /// A URL without `scheme://` is returned without its query and fragment.
    public var urlWithoutQuery: String { Self.withoutQuery(URLParts(url)) }

    /// `urlWithoutQuery` and `parameters` from one reading of the URL, for what reads both
    /// (`validationView`).
    package var urlWithoutQueryAndParameters: (url: String, parameters: [(name: String, value: String)]) {
        let parts = URLParts(url)
        return (Self.withoutQuery(parts), parameters(in: parts))
    }

    private static func withoutQuery(_ parts: URLParts) -> String {
        guard let scheme = parts.scheme else { return String(parts.path) }
        var out = scheme.lowercased() + "://" + parts.host.lowercased()
        if let port = parts.port { out += ":" + port }
        return out + parts.path
    }

    /// The scheme, lowercased; nil for a URL without `scheme://`.
    public var scheme: String? { URLParts(url).scheme?.lowercased() }

    /// The port: as written, else the scheme's (80 for http, 443 for https); nil when neither says.
    ///
    /// ```swift
    /// // url: "https://api.shop.example/v1"
    /// request.port  // 443
    /// ```
    public var port: Int? {
        let parts = URLParts(url)
        if let port = parts.port { return Int(port) }
        return switch parts.scheme?.lowercased() {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }

    /// The host, lowercased, without user info or port; empty when the URL has none.
    ///
    /// ```swift
    /// // url: "https://API.segment.io/v1/batch"
    /// request.host  // "api.segment.io"
    /// ```
    public var host: String { URLParts(url).host.lowercased() }

    /// The path as sent (still percent-encoded), `/` when the URL has none.
    ///
    /// ```swift
    /// // url: "https://www.google-analytics.com/g/collect?v=2"
    /// request.path  // "/g/collect"
    /// ```
    public var path: String { String(URLParts(url).path) }

    /// The raw query, between `?` and `#`; nil when the URL has no `?`.
    public var query: String? { URLParts(url).query.map(String.init) }

    /// The query's name/value pairs, percent-decoded, in order, repeated names kept.
    ///
    /// ```swift
    /// // url: "https://t.example/p?ev=view&tag=a+b&tag=c%2Bd"
    /// request.queryItems  // [("ev", "view"), ("tag", "a b"), ("tag", "c+d")]
    /// ```
    ///
    /// `+` is a space, as `URLSearchParams` reads it; the rules are those of `FormEncoding`.
    public var queryItems: [(name: String, value: String)] { Self.queryItems(in: URLParts(url)) }

    static func queryItems(in parts: URLParts) -> [(name: String, value: String)] {
        parts.query.map(FormEncoding.pairs) ?? []
    }
}
