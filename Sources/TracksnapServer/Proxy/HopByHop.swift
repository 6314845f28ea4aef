import Foundation
import NIOHTTP1

/// Headers that belong to one connection, not to the request (RFC 9110 §7.6.1): a proxy
/// drops them, and the ones the `Connection` header names, before passing a message on.
///
/// ```swift
/// HopByHop.removing(from: ["Connection": "close", "Accept": "*/*"])  // ["Accept": "*/*"]
/// ```
enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// The headers without hop-by-hop ones, nor those in `alsoRemoving` (lowercased names).
    static func removing(from headers: HTTPHeaders, alsoRemoving extra: Set<String> = []) -> HTTPHeaders {
        var named = extra
        for value in headers[canonicalForm: "connection"] {
            named.insert(value.lowercased().trimmingCharacters(in: .whitespaces))
        }
        var result = HTTPHeaders()
        for (name, value) in headers {
            let lowered = name.lowercased()
            if names.contains(lowered) || named.contains(lowered) { continue }
            result.add(name: name, value: value)
        }
        return result
    }
}
