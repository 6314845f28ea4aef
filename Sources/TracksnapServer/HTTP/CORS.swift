import NIOHTTP1

/// Permissive CORS headers, so that browser tags on any origin can send to the collector. The
/// control API gets them only for the server's own origin (`ControlGuard`).
///
/// The request's `Origin` is echoed with `Access-Control-Allow-Credentials: true` rather than
/// answering `*`, because `navigator.sendBeacon` and `fetch(…, {credentials: "include"})` are
/// refused by browsers when a credentialed request gets the wildcard.
enum CORS {
    /// Headers for an ordinary response.
    static func headers(for request: HTTPHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let origin = request.first(name: "Origin") {
            headers.add(name: "Access-Control-Allow-Origin", value: origin)
            headers.add(name: "Access-Control-Allow-Credentials", value: "true")
            headers.add(name: "Vary", value: "Origin")
        } else {
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
        }
        return headers
    }

    /// The answer to a preflight: 204, every method, the headers asked for, cached for a day.
    static func preflight(for request: HTTPHeaders) -> Response {
        var headers = Self.headers(for: request)
        headers.add(name: "Access-Control-Allow-Methods", value: "GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD")
        let asked = request.first(name: "Access-Control-Request-Headers")
        headers.add(name: "Access-Control-Allow-Headers", value: asked.map { $0.isEmpty ? "*" : $0 } ?? "*")
        headers.add(name: "Access-Control-Max-Age", value: "86400")
        return Response(status: .noContent, headers: headers)
    }
}
