import Foundation
import NIOCore
import NIOHTTP1
import TracksnapDecoders
import TracksnapJSON
import TracksnapReplay
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The control API under `/__tracksnap/`, which tests drive: health, sessions (start, wait
/// for N requests or events or for quiet, stop), validation of a session against a snapshot
/// (waiting until every expected entry is matched or traffic settles), everything captured,
/// reset.
///
/// ```text
/// POST /__tracksnap/sessions                                  → 201 {"id":"s1"}
/// POST /__tracksnap/sessions {"cassette": "Cassettes/api.json"} → 201 {"id":"s2"} (its forwarded requests replayed)
/// GET  /__tracksnap/sessions/s1/requests?events=3&settle=0.5  → 200 [ … ]
/// GET  /__tracksnap/sessions/s1/requests?format=har           → 200 {"log": … }
/// POST /__tracksnap/sessions/s1/validate {"snapshot": "Snapshots/checkout.json", "format": "text"}
/// POST /__tracksnap/sessions/s1/record {"snapshot": "Snapshots/checkout.json", "reruns": ["s2"]}
/// POST /__tracksnap/sessions/s1/requests [{"method": "GET", "url": "https://t.example/e?ev=view"}]
/// GET  /__tracksnap/snapshots                                 → 200 {"snapshots": [{"file": …, "pending": …, "diff": …}]}
/// POST /__tracksnap/snapshots/accept {"snapshot": "Snapshots/checkout.json"}
/// ```
///
/// Every path a call names is resolved under the server's root (`Workspace`); a path outside
/// it is refused before anything reads it. Captured requests leave in every answer with their
/// secrets hidden (`Response.requests`, `Redactor`). `Schemas/control-api.openapi.json`
/// describes every endpoint; `make test` holds the server to it with schemathesis.
///
/// A session's answers (`GET sessions/{id}/requests`, `POST sessions/{id}/validate`) carry
/// `X-Tracksnap-Unattributed: N`, the requests no session got since this one started, and
/// those that waited carry `X-Tracksnap-Wait` (`complete`, `settled`, `timed_out`, `ended`,
/// `cancelled`): why the wait ended.
struct ControlAPI: Sendable {
    static let prefix = "/__tracksnap/"
    /// The longest a request may wait for captured traffic, in seconds.
    static let maximumTimeout = 300.0
    /// The wait of `GET sessions/{id}/requests` when `count`, `events` or `settle` is given
    /// without `timeout`, in seconds. `validate` and `record` wait as `assertTracking` does
    /// (`DefaultWait`, `trafficWait`).
    static let defaultTimeout = 30.0
    static let unattributedHeader = "X-Tracksnap-Unattributed"
    static let waitHeader = "X-Tracksnap-Wait"

    let store: CaptureStore
    /// Demanded in `Authorization: Bearer TOKEN` when set.
    let token: AccessToken?
    /// Without a `token`: demanded of a browser's calls (`IncomingRequest.isFromBrowser`) when
    /// the server serves content it did not write (`CaptureServer.browserToken`).
    var browserToken: AccessToken? = nil
    /// Where profile names are looked up (the server's `--validators-dir`), and the root
    /// every file a call names must lie in (`--root`); the loaders open files through it.
    let workspace: Workspace
    /// Where requests recorded through the API (`ingest`) are logged, as received ones are.
    var requestLog: (@Sendable (RequestLogLine) -> Void)? = nil
    /// Told what goes wrong outside any request's answer (a session's cassette not written).
    var notices: (@Sendable (String) -> Void)? = nil
    /// A session cassette's record mode when its start names none
    /// (`CaptureServer.Configuration.cassetteRecordMode`).
    var cassetteRecordMode: RecordMode? = nil

    func reply(to request: IncomingRequest) -> Reply {
        let reply: Reply
        do throws(ControlError) {
            reply = try route(request).reply
        } catch {
            reply = .now(error.response)
        }
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

    /// The route's reply; a refusal (no token, no such path or method) thrown as what a handler throws.
    private func route(_ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let parts = request.path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        let method = request.method
        let resolution = ControlRoute.resolve(method, parts, in: Self.routes)
        var needsToken = true
        if case .route(let route, _) = resolution { needsToken = route.needsToken }
        if needsToken, let token, !token.authorizesControl(request.headers.first(name: "Authorization")) {
            throw ControlError(
                .unauthorized, "the control API needs the header Authorization: Bearer <token>",
                headers: Self.bearerChallenge)
        }
        // A page the reverse proxy (or a cassette) served has this server's origin: the
        // `Origin` and `Sec-Fetch-Site` rules pass it, the browser token does not.
        if needsToken, token == nil, let browserToken, request.isFromBrowser,
            !browserToken.authorizesControl(request.headers.first(name: "Authorization"))
        {
            throw ControlError(
                .unauthorized,
                "this server serves pages it did not write (--upstream, a cassette, --intercept), so a browser's control API call needs its token: open the inspector at the address serve printed (/__tracksnap/ui/#token=…)",
                headers: Self.bearerChallenge)
        }
        switch resolution {
        case .route(let route, let captures):
            return try route.handle(self, request, captures)
        case .methodNotAllowed(let allowed):
            throw ControlError(
                .methodNotAllowed, "\(method.rawValue) is not allowed on \(request.path)",
                headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
        case .notFound:
            throw .notFound("no such control endpoint: \(method.rawValue) \(request.path)")
        }
    }

    /// What a 401 asks for.
    private static let bearerChallenge: HTTPHeaders = ["WWW-Authenticate": "Bearer realm=\"tracksnap\""]

    /// Every endpoint, below `/__tracksnap/`: what a request is dispatched on, and what a 405's
    /// `Allow` lists (the methods of a path, in this order). `Schemas/control-api.openapi.json`
    /// describes each.
    static let routes: [ControlRoute] = [
        ControlRoute(.GET, "health") { api, _, _ in .now(api.health()) },
        ControlRoute(.HEAD, "health") { api, _, _ in .now(api.health()) },
        ControlRoute(.GET, "requests") { api, request, _ throws(ControlError) in try api.allRequests(request) },
        ControlRoute(.GET, "requests/stream") { api, request, _ throws(ControlError) in
            .now(try api.requestStream(request))
        },
        ControlRoute(.POST, "reset") { api, _, _ in .now(api.reset()) },
        ControlRoute(.GET, "sessions") { api, _, _ in .now(api.listSessions()) },
        ControlRoute(.POST, "sessions") { api, request, _ throws(ControlError) in try api.startSession(request) },
        ControlRoute(.GET, "sessions/{id}/requests") { api, request, id throws(ControlError) in
            try api.sessionRequests(id[0], request)
        },
        ControlRoute(.POST, "sessions/{id}/requests") { api, request, id throws(ControlError) in
            try api.ingest(id[0], request)
        },
        ControlRoute(.DELETE, "sessions/{id}") { api, request, id throws(ControlError) in
            try api.endSession(id[0], request)
        },
        ControlRoute(.POST, "sessions/{id}/validate") { api, request, id throws(ControlError) in
            try api.openSession(id[0]) { () async throws(ControlError) in try await api.validate(id[0], request) }
        },
        ControlRoute(.POST, "sessions/{id}/record") { api, request, id throws(ControlError) in
            try api.openSession(id[0]) { () async throws(ControlError) in try await api.record(id[0], request) }
        },
        ControlRoute(.GET, "snapshots") { api, _, _ in api.listSnapshots() },
        ControlRoute(.POST, "snapshots/accept") { api, request, _ throws(ControlError) in
            try api.decide(.accept, request)
        },
        ControlRoute(.POST, "snapshots/reject") { api, request, _ throws(ControlError) in
            try api.decide(.reject, request)
        },
        ControlRoute(.GET, "ui", needsToken: false) { _, _, _ in .now(.response(Inspector.redirectToPage)) },
        ControlRoute(.GET, "ui/", needsToken: false) { _, _, _ in .now(.response(Inspector.page)) },
        ControlRoute(.GET, "ui/{asset}", needsToken: false) { _, _, asset in
            .now(.response(Inspector.asset(named: asset[0])))
        },
    ]

    /// `work` off the event loop when the session is open; 404 at once when it is not.
    private func openSession(
        _ id: String, _ work: @escaping @Sendable () async throws(ControlError) -> ControlAnswer
    ) throws(ControlError) -> ControlReply {
        guard store.requests(inSession: id) != nil else { throw noSession(id) }
        return .later(work)
    }

    private func allRequests(_ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let format = try Self.exportFormat(try Self.query(of: request), taking: [])
        let requests = store.requests()
        return .later { [store] in
            .response(.requests(requests, redactor: store.redactor(for: requests), format: format))
        }
    }

    private func reset() -> ControlAnswer {
        store.reset()
        return .response(.json(.ok, .object([:])))
    }

    private func listSessions() -> ControlAnswer {
        .answer(.ok, store.sessions)
    }

    private func endSession(_ id: String, _ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let format = try Self.exportFormat(try Self.query(of: request), taking: [])
        guard let requests = store.endSession(id) else { throw noSession(id) }
        return .later { [store] in
            .response(.requests(requests, redactor: store.redactor(for: requests), format: format))
        }
    }

    func noSession(_ id: String) -> ControlError {
        .notFound("no open session \"\(id)\"")
    }

    private func health() -> ControlAnswer {
        .answer(.ok, store.statistics)
    }

    /// A session, with a cassette of its own when the body names one (under the root): what it
    /// gets that would be forwarded is answered from it, recorded as `recordMode` says (the
    /// server's environment decides when it is absent, as for `serve --record-mode`).
    private func startSession(_ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let body = try ControlBody(
            request.body.readableBytesView, fields: ["name", "cassette", "recordMode"],
            example: #"{"name": "checkout", "cassette": "Cassettes/checkout.json", "recordMode": "never"}"#)
        let name = try body.string("name")
        let mode = try body.word("recordMode", of: RecordMode.cassetteNames).flatMap(RecordMode.init(cassette:))
        guard let path = try body.string("cassette") else {
            if mode != nil { throw .badRequest("recordMode applies to a cassette: add \"cassette\": PATH") }
            return .now(.answer(.created, SessionAnswer(id: store.startSession(name: name, cassette: nil), name: name)))
        }
        // The cassette is read and parsed on replay's own thread: a large one holds up none of
        // the event loop's other clients, nor the thread pool's bodies and ingests.
        return .later { [self] () async throws(ControlError) in
            try await BlockingWork.replaying {
                Result { () throws(ControlError) in try startSession(name: name, cassette: path, mode: mode) }
            }.get()
        }
    }

    /// Starts a session that replays (and records into) the cassette at `path`.
    private func startSession(name: String?, cassette path: String, mode: RecordMode?) throws(ControlError)
        -> ControlAnswer
    {
        let cassette: CassettePlayer
        let recordMode: RecordMode
        do {
            recordMode = try RecordMode.resolve(
                explicit: mode, configured: cassetteRecordMode, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw .badRequest("\(error.description); or name the session's \"recordMode\"")
        }
        do throws(InputError) {
            let resolved = try workspace.path(path, field: "cassette")
            if recordMode != .never {
                // Only a cassette is written, and only over a cassette: `all` would not read the
                // file it replaces, so it is read here first.
                try workspace.checkWritable(resolved, field: "cassette", extensions: [".json", ".yml", ".yaml"])
                if recordMode == .all, FileManager.default.fileExists(atPath: resolved) {
                    _ = try Cassette.read(path: resolved)
                }
            }
            cassette = try CassettePlayer(
                path: resolved,
                mode: recordMode,
                recordHint: "start the session again with \"recordMode\": \"failed\" (records what the cassette lacks)",
                repeatHint:
                    "a cassette whose rules repeat (tracksnap's or DVR's format), or record the repeat with \"recordMode\": \"failed\"",
                writeFailed: { [notices] in notices?("cassette: \($0.description)") },
                maximumRecorded: store.maximumRequests)
        } catch {
            throw .badRequest(error, shownBy: workspace)
        }
        return .answer(
            .created,
            SessionAnswer(
                id: store.startSession(name: name, cassette: cassette), name: name, recordMode: cassette.mode.rawValue)
        )
    }

    private func sessionRequests(_ id: String, _ request: IncomingRequest) throws(ControlError) -> ControlReply {
        let query = try Self.query(of: request)
        let format = try Self.exportFormat(query, taking: ["count", "events", "settle", "timeout"])
        let count = try Self.wholeNumber(query, "count")
        let events = try Self.wholeNumber(query, "events")
        let settle = try Self.seconds(query, "settle")
        let seconds = try Self.seconds(query, "timeout") ?? Self.defaultTimeout
        guard let unattributed = store.unattributed(sinceSessionStarted: id) else { throw noSession(id) }
        guard count != nil || events != nil || settle != nil else {
            guard let requests = store.requests(inSession: id) else { throw noSession(id) }
            return .later { [store] in
                .response(
                    Self.attributed(
                        .requests(requests, redactor: store.redactor(for: requests), format: format), unattributed))
            }
        }
        return .later { [store] () async throws(ControlError) in
            // Asked after each arrival: each request's events are counted once, of its observation.
            var tally = EventTally()
            let outcome = await store.wait(
                inSession: id, settle: settle.map(Self.duration), timeout: Self.duration(seconds)
            ) { requests in
                if let count, requests.count < count { return false }
                if let events, tally.count(requests, events: { store.observedEvents(of: $0) }) < events {
                    return false
                }
                return count != nil || events != nil
            }
            guard let outcome else { throw noSession(id) }
            var response = Self.attributed(
                .requests(outcome.requests, redactor: store.redactor(for: outcome.requests), format: format),
                store.unattributed(sinceSessionStarted: id) ?? unattributed
            )
            response.headers.replaceOrAdd(name: Self.waitHeader, value: outcome.reason.rawValue)
            return .response(response)
        }
    }

    /// A session's answer with the count of requests no session got since it started.
    static func attributed(_ response: Response, _ unattributed: Int) -> Response {
        var response = response
        response.headers.replaceOrAdd(name: unattributedHeader, value: String(unattributed))
        return response
    }

    /// A call's query parameters; one given twice is refused, since which value counts would be a guess.
    static func query(of request: IncomingRequest) throws(ControlError) -> [String: String] {
        let query = request.query
        if let repeated = query.repeated {
            throw .badRequest("the query parameter \"\(repeated)\" is given twice; give it once")
        }
        return query.items
    }

    /// The `format` an answer of captured requests is asked in (`json`, `ndjson`, `har`; json
    /// when absent), after refusing any query parameter the call does not take.
    private static func exportFormat(_ query: [String: String], taking others: Set<String>) throws(ControlError)
        -> Response.RequestsFormat
    {
        let known = others.union(["format"])
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .badRequest(
                "unknown query parameter \"\(unknown)\"; this call takes \(known.sorted().joined(separator: ", "))")
        }
        guard let text = query["format"] else { return .json }
        guard let format = Response.RequestsFormat(rawValue: text) else {
            let names = Response.RequestsFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("format must be one of \(names), not \"\(text)\"")
        }
        return format
    }

    /// A whole number from the query, such as `count=3`: nil when absent.
    private static func wholeNumber(_ query: [String: String], _ name: String) throws(ControlError) -> Int? {
        guard let text = query[name] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw .badRequest("\(name) must be a whole number, not \"\(text)\"")
        }
        return value
    }

    /// A number of seconds from the query, such as `timeout=1.5`: nil when absent; capped at `maximumTimeout`.
    private static func seconds(_ query: [String: String], _ name: String) throws(ControlError) -> Double? {
        guard let text = query[name] else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw .badRequest("\(name) must be a number of seconds, not \"\(text)\"")
        }
        return min(value, maximumTimeout)
    }

    /// How long a `validate` or `record` call waits for the session's traffic: what it asks,
    /// else as `assertTracking` does (`DefaultWait`: quiet for 500 ms, within 10 s), so that a
    /// call made right after the flow sees the events still in flight. Nil when it asks not
    /// to wait: `"settle": 0` without a `timeout`.
    static func trafficWait(timeout: Double?, settle: Double?) -> (settle: Duration, timeout: Duration)? {
        if settle == 0 && timeout == nil { return nil }
        return (settle.map(duration) ?? DefaultWait.settle, timeout.map(duration) ?? DefaultWait.timeout)
    }

    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
