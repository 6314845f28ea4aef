import Foundation
import NIOCore
import NIOHTTP1
import TracksnapCore
import TracksnapReports
import TracksnapValidation

/// The control API under `/__tracksnap/`, which tests drive: health, sessions (start, wait
/// for N requests, stop), validation of a session against a snapshot, everything captured,
/// reset.
///
/// ```text
/// POST /__tracksnap/sessions                          → 201 {"id":"s1"}
/// GET  /__tracksnap/sessions/s1/requests?count=3&timeout=5  → 200 [ … ]
/// ```
struct ControlAPI: Sendable {
    static let prefix = "/__tracksnap/"
    /// The longest a request may wait for captured traffic, in seconds.
    static let maximumTimeout = 300.0
    /// The wait when `count` is given without `timeout`, in seconds.
    static let defaultTimeout = 30.0

    let store: CaptureStore
    let token: String?
    let validatorsDirectory: String

    func reply(to request: IncomingRequest) -> Reply {
        let reply = route(request)
        guard case .now(var response) = reply else {
            guard case .later(let work) = reply else { return reply }
            return .later {
                var response = await work()
                response.headers.add(contentsOf: CORS.headers(for: request.headers))
                return response
            }
        }
        response.headers.add(contentsOf: CORS.headers(for: request.headers))
        return .now(response)
    }

    private func route(_ request: IncomingRequest) -> Reply {
        if let token, request.headers.first(name: "Authorization") != "Bearer \(token)" {
            var response = Response.error(.unauthorized, "the control API needs the header Authorization: Bearer <token>")
            response.headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"tracksnap\"")
            return .now(response)
        }
        let parts = request.path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        let method = request.method
        switch (method, parts) {
        case (.GET, ["health"]), (.HEAD, ["health"]):
            return .now(health())
        case (.GET, ["requests"]):
            return .now(.requests(store.requests()))
        case (.POST, ["reset"]):
            store.reset()
            return .now(.json(.ok, .object([:])))
        case (.POST, ["sessions"]):
            return .now(startSession(request))
        case (.GET, ["sessions"]):
            let sessions = store.sessions.map { session -> JSONValue in
                var members: [String: JSONValue] = ["id": .string(session.id)]
                if let name = session.name { members["name"] = .string(name) }
                return .object(members)
            }
            return .now(.json(.ok, .array(sessions)))
        case (.GET, _) where Self.matches(parts, ["sessions", nil, "requests"]):
            return sessionRequests(parts[1], request)
        case (.DELETE, _) where Self.matches(parts, ["sessions", nil]):
            guard let requests = store.endSession(parts[1]) else { return .now(noSession(parts[1])) }
            return .now(.requests(requests))
        case (.POST, _) where Self.matches(parts, ["sessions", nil, "validate"]):
            let id = parts[1]
            guard store.requests(inSession: id) != nil else { return .now(noSession(id)) }
            return .later { validate(id, request) }
        default:
            if Self.knownPaths.contains(where: { Self.matches(parts, $0) }) {
                return .now(.error(.methodNotAllowed, "\(method.rawValue) is not allowed on \(request.path)"))
            }
            return .now(.error(.notFound, "no such control endpoint: \(method.rawValue) \(request.path)"))
        }
    }

    private static let knownPaths: [[String?]] = [
        ["health"], ["requests"], ["reset"], ["sessions"], ["sessions", nil, "requests"], ["sessions", nil],
        ["sessions", nil, "validate"],
    ]

    private static func matches(_ parts: [String], _ pattern: [String?]) -> Bool {
        parts.count == pattern.count && zip(parts, pattern).allSatisfy { $1 == nil || $0 == $1 }
    }

    private func noSession(_ id: String) -> Response {
        .error(.notFound, "no open session \"\(id)\"")
    }

    private func health() -> Response {
        let statistics = store.statistics
        return .json(
            .ok,
            .object([
                "status": .string("ok"),
                "captured": .number(String(statistics.captured)),
                "dropped": .number(String(statistics.dropped)),
                "rejected": .number(String(statistics.rejected)),
                "sessions": .number(String(statistics.sessions)),
                "stored": .number(String(statistics.stored)),
            ]))
    }

    private func startSession(_ request: IncomingRequest) -> Response {
        struct Body: Decodable { var name: String? }
        var name: String?
        if request.body.readableBytes > 0 {
            do {
                name = try JSONDecoder().decode(Body.self, from: Data(request.body.readableBytesView)).name
            } catch {
                return .error(.badRequest, "the body must be a JSON object such as {\"name\": \"checkout\"}")
            }
        }
        let id = store.startSession(name: name)
        var members: [String: JSONValue] = ["id": .string(id)]
        if let name { members["name"] = .string(name) }
        return .json(.created, .object(members))
    }

    private func sessionRequests(_ id: String, _ request: IncomingRequest) -> Reply {
        let query = request.queryItems
        guard let countText = query["count"] else {
            guard let requests = store.requests(inSession: id) else { return .now(noSession(id)) }
            return .now(.requests(requests))
        }
        guard let count = Int(countText), count >= 0 else {
            return .now(.error(.badRequest, "count must be a whole number of requests, not \"\(countText)\""))
        }
        var seconds = Self.defaultTimeout
        if let timeoutText = query["timeout"] {
            guard let timeout = Double(timeoutText), timeout.isFinite, timeout >= 0 else {
                return .now(.error(.badRequest, "timeout must be a number of seconds, not \"\(timeoutText)\""))
            }
            seconds = min(timeout, Self.maximumTimeout)
        }
        guard store.requests(inSession: id) != nil else { return .now(noSession(id)) }
        return .later { [store, seconds] in
            let timeout = Duration.milliseconds(Int64((seconds * 1000).rounded()))
            guard let requests = await store.waitForRequests(inSession: id, count: count, timeout: timeout) else {
                return noSession(id)
            }
            return .requests(requests)
        }
    }

    private func validate(_ id: String, _ request: IncomingRequest) -> Response {
        struct Body: Decodable {
            var snapshot: String
            var validator: String?
            var validatorsDirectory: String?
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(request.body.readableBytesView))
        } catch {
            return .error(
                .badRequest,
                "the body must be a JSON object such as {\"snapshot\": \"Snapshots/checkout.json\", \"validator\": \"default\"}")
        }
        guard let requests = store.requests(inSession: id) else { return noSession(id) }
        do {
            let result = try Validation.validate(
                snapshotAt: body.snapshot, requests: requests, profile: body.validator,
                directory: body.validatorsDirectory ?? validatorsDirectory)
            return .json(.ok, text: ReportFormat.json.render([result]))
        } catch {
            return .error(.badRequest, error.description)
        }
    }
}
