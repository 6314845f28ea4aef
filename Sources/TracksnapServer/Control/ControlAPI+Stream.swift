import NIOHTTP1
import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

extension ControlAPI {
    /// The most captured requests that may wait for one reader of the stream; a reader that
    /// falls further behind is cut off (`RequestFollower`).
    static let streamBuffer = 1_000

    /// The bytes of the requests the server holds that the stream sends in one write.
    static let streamPiece = 64 * 1024

    /// `GET /__tracksnap/requests/stream`: every captured request as a Server-Sent Event, what
    /// the server holds first, then each one as it is recorded (`InspectedRequest`: redacted,
    /// with its decoded events). The inspector reads it. `?profile=NAME` reads each request as
    /// that profile does (its filter, decoders, vendor rules and personal-data policy: the events
    /// `validate` with it reports); without it, with every built-in decoder and rule.
    ///
    /// ```text
    /// retry: 1000
    ///
    /// event: server
    /// data: {"max_requests": 100000, "answers_kept": 10000, "answer_bytes_kept": 67108864}
    ///       (`--max-requests`, null when there is no limit; the most answers the server keeps,
    ///       and the most bytes they hold: `CaptureStore.answered`)
    ///
    /// id: 1
    /// event: request
    /// data: {"request": {…}, "events": […]}
    ///
    /// event: answer
    /// data: {"id": "1", "status": 200, "headers": […], "body": "…", "bodyEncoding": "text"}   (`CapturedAnswer.shown`)
    ///
    /// event: live             (once, after what the server held: N requests; each next one is new)
    /// data: {"held": N}
    ///
    /// event: reset            (POST /__tracksnap/reset: what was shown is gone)
    /// event: overflow         (the reader fell more than `streamBuffer` requests behind; the stream ends)
    ///
    /// event: server           (once, when the answers' bytes first make the server forget older ones)
    /// data: {"max_requests": 100000, "answers_kept": 10000, "answer_bytes_kept": 67108864,
    ///        "answers_forgotten": "…older answers are no longer shown…"}
    /// ```
    ///
    /// Each event's data is one of the `RequestStream` types (`Server`, `Request`, `Answer`,
    /// `Live`; `overflow` carries an `ErrorAnswer`, `reset` `{}`), encoded as every control API
    /// answer is (`Response.text(of:)`); `Schemas/control-api.openapi.json` names their schemas
    /// in the stream's `x-events`.
    ///
    /// Redacting and decoding run off the event loop, one request at a time, each written once
    /// the previous one reached the socket; a request is decoded once however many read it. A
    /// reader that falls behind is cut off rather than buffered for: its stream ends with
    /// `overflow`, and a reader that connects again starts over from what the server holds.
    func requestStream(_ request: IncomingRequest) throws(ControlError) -> ControlAnswer {
        let query = try Self.query(of: request)
        if let name = query.keys.sorted().first(where: { $0 != "profile" }) {
            throw .badRequest("unknown query parameter \"\(name)\"; this call takes only profile")
        }
        let reading = try query["profile"].map { reference throws(ControlError) in
            try streamReading(profile: reference)
        }
        var response = Response(
            status: .ok,
            headers: ["Content-Type": "text/event-stream; charset=utf-8", "X-Content-Type-Options": "nosniff"])
        response.stream = { [store, reading] stream in
            let follower = store.follow(buffering: Self.streamBuffer)
            defer { follower.finish() }
            // The page keeps as many requests as the server does (`--max-requests`).
            var pending = "retry: 1000\n\n" + Self.serverEvent(store, forgotten: nil)
            // Every secret this reader's requests carried so far, as an answer's redactor knows
            // those of every request it holds.
            var secrets = store.carriedSecrets(of: follower.backlog)
            // What the server holds goes out in pieces of `streamPiece` bytes: a write a request
            // would take a trip through the event loop for each of 100,000.
            for request in follower.backlog {
                pending += Self.event(request, secrets: secrets, store: store, reading: reading)
                if let answer = follower.answers[request.id] {
                    pending += Self.event(answer: answer, id: request.id, secrets: secrets)
                }
                if pending.utf8.count >= Self.streamPiece {
                    guard await stream.send(pending) else { return }
                    pending = ""
                }
            }
            // What the server held is all sent: the page stops showing that it is loading.
            pending += Self.frame(.live, RequestStream.Live(held: follower.backlog.count))
            guard await stream.send(pending) else { return }
            for await item in follower.items {
                if follower.overflowed { break }
                let sent: Bool
                switch item {
                case .request(let request):
                    secrets.formUnion(store.carriedSecrets(of: request))
                    sent = await stream.send(Self.event(request, secrets: secrets, store: store, reading: reading))
                case .answer(let id, let answer):
                    sent = await stream.send(Self.event(answer: answer, id: id, secrets: secrets))
                case .reset:
                    sent = await stream.send(Self.frame(.reset, JSONValue.object([:])))
                case .answersForgotten(let bytes):
                    let told =
                        "the answers shown hold more than \(bytes / (1024 * 1024)) MiB: "
                        + "the oldest requests' answers are forgotten"
                    sent = await stream.send(Self.serverEvent(store, forgotten: told))
                }
                guard sent else { return }
            }
            if follower.overflowed {
                _ = await stream.send(
                    Self.frame(
                        .overflow, ErrorAnswer(error: "this reader fell more than \(Self.streamBuffer) requests behind")
                    ))
            }
        }
        return .response(response)
    }

    /// The `server` event: the bounds of what the server keeps, and what it forgot.
    private static func serverEvent(_ store: CaptureStore, forgotten: String?) -> String {
        frame(
            .server,
            RequestStream.Server(
                maxRequests: store.maximumRequests, answersKept: store.answersKept,
                answerBytesKept: store.answerBytesKept, answersForgotten: forgotten))
    }

    /// What the server answered a request, as a Server-Sent Event, hiding `secrets` (its
    /// request's among them) wherever they appear.
    private static func event(answer: CapturedAnswer, id: String, secrets: Set<String>) -> String {
        frame(.answer, answer.shown(id: id, redactor: Redactor(secrets: secrets)))
    }

    /// `?profile=NAME`: the profile the stream reads requests with, resolved as `validate`
    /// resolves its `validator` (a name, a file under the root, several joined by commas), and
    /// refused as it refuses one: a 400 naming the parameter and its value.
    private func streamReading(profile reference: String) throws(ControlError) -> InspectedRequest.Reading {
        do throws(InputError) {
            let profile = try Profile.load(reference, workspace: workspace)
            try profile.requireKnownDecoders(file: reference)
            return InspectedRequest.Reading(profile)
        } catch {
            let refused = ControlError.badRequest(error, shownBy: workspace)
            throw .badRequest("query parameter profile=\"\(reference)\": \(refused.message)")
        }
    }

    /// One captured request as a Server-Sent Event, hiding `secrets` wherever they appear, read
    /// as `reading` says (nil: the built-in reading); its decoding shared with every other reader
    /// (`CaptureStore.observation(of:)`).
    private static func event(
        _ request: CapturedRequest, secrets: Set<String>, store: CaptureStore, reading: InspectedRequest.Reading?
    ) -> String {
        let line = InspectedRequest.json(
            request, redactor: Redactor(secrets: secrets), observation: store.observation(of: request),
            reading: reading ?? .builtIn)
        return frame(.request, id: request.id, line: line)
    }

    /// One Server-Sent Event: its name, and its data encoded as every control API answer is
    /// (`Response.text(of:)`), on one `data:` line.
    private static func frame(_ event: RequestStream.EventName, _ data: some Encodable) -> String {
        frame(event, line: Response.text(of: data))
    }

    /// One Server-Sent Event whose data is already encoded (`InspectedRequest.json`, kept per
    /// request): an `id:` line when it has one, its name, its data.
    private static func frame(_ event: RequestStream.EventName, id: String? = nil, line: String) -> String {
        (id.map { "id: \($0)\n" } ?? "") + "event: \(event.rawValue)\ndata: \(line)\n\n"
    }
}
