import NIOCore
import NIOHTTP1
import TracksnapCore

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

    /// `{"error": message}` with the status.
    static func error(_ status: HTTPResponseStatus, _ message: String) -> Response {
        json(status, .object(["error": .string(message)]))
    }

    /// Captured requests as a JSON array of the NDJSON objects.
    static func requests(_ requests: [CapturedRequest]) -> Response {
        var text = "["
        for (index, request) in requests.enumerated() {
            if index > 0 { text += "," }
            text += CaptureFile.ndjsonLine(request)
        }
        text += "]"
        return json(.ok, text: text)
    }
}

/// What the router decided: an answer ready now, or work to run off the event loop.
enum Reply: Sendable {
    case now(Response)
    case later(@Sendable () async -> Response)
}
