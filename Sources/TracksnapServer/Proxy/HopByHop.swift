import NIOHTTP1

/// Headers that belong to one connection, not to the request (RFC 9110 §7.6.1): a proxy
/// drops them, and the ones the `Connection` header names, before passing a message on.
///
/// ```swift
/// HopByHop.removing(from: ["Connection": "close", "Accept": "*/*"])  // ["Accept": "*/*"]
/// ```
enum HopByHop {
    static let names = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// The headers without hop-by-hop ones, nor those in `alsoRemoving`; names compare without
    /// case. Each name is looked for among the few headers a message has, rather than each header
    /// lowercased and hashed (about 4% of the proxy under wrk).
    static func removing(from headers: HTTPHeaders, alsoRemoving extra: [String] = []) -> HTTPHeaders {
        var result = headers
        // `canonicalForm` splits the value on commas and trims each name.
        for named in headers[canonicalForm: "connection"] { result.remove(name: String(named)) }
        for name in names where result.contains(name: name) { result.remove(name: name) }
        for name in extra where result.contains(name: name) { result.remove(name: name) }
        return result
    }
}
