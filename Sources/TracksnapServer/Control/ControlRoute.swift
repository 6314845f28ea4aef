import NIOHTTP1

/// One control API endpoint: a method, a path pattern below `/__tracksnap/` whose `{name}`
/// segments each match any one segment, and the handler that answers it. `ControlAPI.routes`
/// is the table of them all: what a request is dispatched on, and what a 405's `Allow` lists.
///
/// ```swift
/// ControlRoute(.DELETE, "sessions/{id}") { api, request, captures in try api.endSession(captures[0], request) }
/// ```
struct ControlRoute: Sendable {
    /// Answers a request; `captures` are the segments the pattern's `{name}`s matched, in order.
    /// What it throws, and what it answers, `ControlAPI.reply(to:)` turns into the response.
    typealias Handler =
        @Sendable (ControlAPI, IncomingRequest, _ captures: [String]) throws(ControlError) ->
        ControlReply

    let method: HTTPMethod
    /// The pattern as written: `sessions/{id}/record`.
    let pattern: String
    let handle: Handler
    /// False for what holds nothing captured and no way to change anything — the inspector's
    /// page and its assets (`Inspector`) — which a browser's navigation fetches without the
    /// `--token` (it cannot send an `Authorization` header). The `ControlGuard` checks still apply.
    let needsToken: Bool
    /// Each segment's text, or nil for a `{name}`.
    private let segments: [String?]

    init(_ method: HTTPMethod, _ pattern: String, needsToken: Bool = true, handle: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.needsToken = needsToken
        self.handle = handle
        segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.hasPrefix("{") && $0.hasSuffix("}") ? nil : String($0)
        }
    }

    /// The segments the `{name}`s match in a path's segments; nil when the path is another's.
    func captures(_ parts: [String]) -> [String]? {
        guard parts.count == segments.count else { return nil }
        var captures: [String] = []
        for (part, segment) in zip(parts, segments) {
            if let segment {
                guard part == segment else { return nil }
            } else {
                captures.append(part)
            }
        }
        return captures
    }

    /// What a table makes of a request.
    enum Resolution {
        /// The route for the method and path, and its captures.
        case route(ControlRoute, captures: [String])
        /// The path is known but not with this method: the methods it takes, in table order.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has the path.
        case notFound
    }

    /// The route of `table` for a method and a path's segments (below `/__tracksnap/`).
    static func resolve(_ method: HTTPMethod, _ parts: [String], in table: [ControlRoute]) -> Resolution {
        var allowed: [HTTPMethod] = []
        for route in table {
            guard let captures = route.captures(parts) else { continue }
            if route.method == method { return .route(route, captures: captures) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }
}
