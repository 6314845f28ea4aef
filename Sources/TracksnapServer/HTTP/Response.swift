import NIOCore
import NIOHTTP1
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// An answer the server writes: status, headers and a whole body.
///
/// ```swift
/// Response.json(.notFound, .object(["error": .string("no session s9")]))
/// ```
struct Response: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: ByteBuffer
    /// Set when `headers` carry a `Content-Length` that must be kept as is (a proxied HEAD).
    var keepsContentLength = false
    /// Set on what an upstream answered (not on tracksnap's own 502 when it could not): what a
    /// cassette may record.
    var isUpstreamAnswer = false
    /// Set on an answer whose body is written as it is made (`text/event-stream`) instead of
    /// `body`: run off the event loop once the head is sent; the connection closes when it
    /// returns, and it is cancelled when the client goes away.
    var stream: (@Sendable (ResponseStream) async -> Void)? = nil

    init(status: HTTPResponseStatus, headers: HTTPHeaders = HTTPHeaders(), body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body already serialized.
    static func json(_ status: HTTPResponseStatus, text: String) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: ByteBuffer(string: text))
    }

    static func json(_ status: HTTPResponseStatus, _ value: JSONValue) -> Response {
        json(status, text: value.serialized())
    }

    /// A control API answer: one of the `Codable` types its clients decode (`HealthAnswer`,
    /// `SessionAnswer`, `RecordAnswer`, `ErrorAnswer`, in `TracksnapTraffic`).
    static func answer(_ status: HTTPResponseStatus, _ answer: some Encodable) -> Response {
        json(status, text: text(of: answer))
    }

    /// The JSON text of a control API answer, or of the data of one of the stream's events
    /// (`RequestStream`): `JSONValueCoder`, keys sorted, on one line.
    static func text(of answer: some Encodable) -> String {
        // None of the answers' `encode(to:)` throws of its own, so this cannot fail.
        ((try? JSONValueCoder.encode(answer)) ?? .null).serialized()
    }

    /// `{"error": message}` with the status (`ErrorAnswer`).
    static func error(_ status: HTTPResponseStatus, _ message: String) -> Response {
        answer(status, ErrorAnswer(error: message))
    }

    /// The formats captured requests are answered in: a JSON array of NDJSON records, NDJSON,
    /// or a HAR 1.2 document (`CaptureFile`).
    enum RequestsFormat: String, CaseIterable, Sendable {
        case json, ndjson, har

        var contentType: String {
            switch self {
            case .json, .har: "application/json"
            case .ndjson: "application/x-ndjson"
            }
        }
    }

    /// Captured requests, their secrets hidden (`Redactor`): nothing captured leaves the
    /// process with a credential in it. Redacting is work in proportion to what was captured:
    /// callers build this answer off the event loop (`Reply.later`), which every server in the
    /// process shares.
    ///
    /// - Parameter redactor: knows what the requests carry (`CaptureStore.redactor(for:)`:
    ///   each request searched once, however many answers hold it).
    static func requests(_ requests: [CapturedRequest], redactor: Redactor, format: RequestsFormat = .json) -> Response
    {
        let safe = requests.map(redactor.redact)
        let text: String
        switch format {
        case .json:
            text = "[" + safe.map(CaptureFile.ndjsonLine).joined(separator: ",") + "]"
        case .ndjson:
            text = CaptureFile.ndjson(safe)
        case .har:
            text = CaptureFile.har(safe)
        }
        return Response(status: .ok, headers: ["Content-Type": format.contentType], body: ByteBuffer(string: text))
    }
}

/// What the router decided: an answer ready now, or work to run off the event loop.
enum Reply: Sendable {
    case now(Response)
    case later(@Sendable () async -> Response)
}
