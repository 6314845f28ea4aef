import Foundation
import NIOCore
import NIOHTTP1

/// A whole HTTP request as received: head and body.
///
/// ```swift
/// let request = IncomingRequest(head: head, body: ByteBuffer(string: "{}"))
/// request.path  // "/v1/batch"
/// ```
struct IncomingRequest: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer
    /// The address the connection arrived on, and the client's: the control API's own
    /// names and the proxy's loopback rule come from them.
    var localAddress: SocketAddress? = nil
    var remoteAddress: SocketAddress? = nil

    var method: HTTPMethod { head.method }
    var headers: HTTPHeaders { head.headers }

    /// The request target without its query.
    var path: Substring {
        let uri = head.uri[...]
        return uri.firstIndex(of: "?").map { uri[..<$0] } ?? uri
    }

    /// The query's items (`count=3&timeout=1.5`), `+` and percent escapes undone; `repeated`,
    /// the first name given more than once (`count=1&count=2`), whose last value `items` holds.
    var query: (items: [String: String], repeated: String?) {
        guard let mark = head.uri.firstIndex(of: "?") else { return ([:], nil) }
        var items: [String: String] = [:]
        var repeated: String?
        for pair in head.uri[head.uri.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            if repeated == nil, items[name] != nil { repeated = name }
            items[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return (items, repeated)
    }

    /// A CORS preflight: `OPTIONS` with `Access-Control-Request-Method`, which a browser sends
    /// before a cross-origin request, not the app.
    var isPreflight: Bool {
        method == .OPTIONS && headers.contains(name: "Access-Control-Request-Method")
    }

    /// Sent by a browser for a page: it carries `Origin` or a Fetch Metadata header
    /// (`Sec-Fetch-Site`, `-Mode`, `-Dest`), which a page's script can neither set nor remove.
    /// curl, SDKs and the project's clients send none of them.
    var isFromBrowser: Bool {
        ["Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest"].contains { headers.contains(name: $0) }
    }
}
