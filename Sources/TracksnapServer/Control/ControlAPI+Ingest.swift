import NIOCore
import NIOHTTP1
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension ControlAPI {
    /// The most requests one `POST sessions/{id}/requests` records: beyond it, 413.
    static let maximumIngestedRequests = 10_000

    /// `POST sessions/{id}/requests`: records requests captured elsewhere (an app's in-process
    /// capture reporting to the server) into the session, as if the server had received them.
    ///
    /// ```text
    /// POST /__tracksnap/sessions/s1/requests
    /// [{"method": "POST", "url": "https://api.segment.io/v1/track", "body": "{…}", "headers": […]}]
    /// → 200 {"recorded": 1, "session": "s1"}
    /// ```
    /// The body is a capture as `tracksnap validate --capture` reads it: a JSON array of capture
    /// records (what `GET` on the same path answers), NDJSON, or HAR, sent as
    /// `application/json` (the control API's guard asks that of every body). Each request keeps
    /// its method, URL, headers, body and `serverOrigin`; the server gives it its own id and
    /// time, marks it `ingested`, attributes it to the session in the path, journals it, logs
    /// it, and wakes the session's waiters. It counts against `--max-requests` as a received
    /// request does. An empty or malformed body records nothing (400, naming the record and the member);
    /// a method that is not an HTTP token (RFC 9110) records nothing (400);
    /// more than `maximumIngestedRequests` records nothing (413, counted before anything is
    /// parsed); an unknown session is 404.
    ///
    /// The capture is read and recorded on the thread pool (`BlockingWork`): a large one holds
    /// up no other client.
    func ingest(_ id: String, _ request: IncomingRequest) throws(ControlError) -> ControlReply {
        guard store.requests(inSession: id) != nil else { throw noSession(id) }
        let body = request.body
        return .later { [self] () async throws(ControlError) in
            try await BlockingWork.run(for: request.head.uri) {
                Result { () throws(ControlError) in try record(Array(body.readableBytesView), into: id) }
            }.get()
        }
    }

    private func record(_ bytes: [UInt8], into id: String) throws(ControlError) -> ControlAnswer {
        // A capture file may be empty (a run that sent nothing); a call sends what it means.
        guard CaptureFile.format(of: bytes) != nil else {
            throw .badRequest(
                "the body is empty; send a JSON array of capture records such as [{\"method\": \"GET\", \"url\": \"https://t.example/e?ev=view\"}] ([] records none)"
            )
        }
        let count = CaptureFile.requestCount(of: bytes)
        guard count <= Self.maximumIngestedRequests else {
            throw ControlError(
                .payloadTooLarge,
                "the body holds \(count) requests; one call records at most \(Self.maximumIngestedRequests): send them in several calls"
            )
        }
        let requests: [CapturedRequest]
        do {
            requests = try CaptureFile.read(bytes: bytes, file: "body")
        } catch {
            throw .badRequest(
                "\(error.description); send a JSON array of capture records such as [{\"method\": \"GET\", \"url\": \"https://t.example/e?ev=view\"}]"
            )
        }
        // A method is a token (RFC 9110): one holding `;`, spaces or quotes would be a command
        // wherever it is later shown as a word (the inspector's "Copy as curl").
        if let index = requests.firstIndex(where: { !HTTPToken.isToken($0.method) }) {
            throw .badRequest(
                "record \(index): the method \(JSONValue.string(requests[index].method).serialized()) is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~); nothing was recorded"
            )
        }
        // Every reader takes the URL apart (host, path, query): one that is not absolute would be
        // stored, shown and compared as nothing a client sent.
        if let index = requests.firstIndex(where: { !Self.isAbsolute($0.url) }) {
            throw .badRequest(
                "record \(index): the url is not absolute: write its scheme and host, as https://t.example/e?ev=view; nothing was recorded"
            )
        }
        for captured in requests {
            let recorded = store.recordAttributed(
                method: captured.method, url: captured.url, headers: captured.headers, body: captured.body,
                sessionHint: id,
                serverOrigin: captured.serverOrigin, ingested: true)
            // The app's own capture answered it (or its network did): no status is known here.
            requestLog?(
                RequestLogLine(
                    request: recorded.request, attribution: recorded.attribution, status: nil,
                    redactor: store.recentRedactor))
        }
        return .answer(.ok, IngestAnswer(recorded: requests.count, session: id))
    }

    /// Whether a URL is absolute: a scheme (`https`, `http`, `wss`…), `://` and a host.
    static func isAbsolute(_ url: String) -> Bool {
        guard let separator = url.utf8.firstRange(of: "://".utf8) else { return false }
        let scheme = url[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        return !CapturedRequest(id: "", method: "GET", url: url).host.isEmpty
    }
}
