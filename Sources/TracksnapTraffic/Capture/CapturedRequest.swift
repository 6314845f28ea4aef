/// One HTTP request an app sent, as tracksnap captured it.
///
/// The same value is a line of an NDJSON capture file, an element of the capture server's
/// arrays, and what `tracksnap validate --capture` reads.
public struct CapturedRequest: Sendable, Hashable {
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The request body with its content encoding (gzip, deflate) already undone.
    public enum Body: Sendable, Hashable {
        /// A body that is valid UTF-8.
        case text(String)
        /// Any other body, base64-encoded.
        case base64(String)
    }

    /// An identifier unique within its capture (the NDJSON `id`, a HAR entry's index).
    public var id: String
    /// When it was captured, as an RFC 3339 timestamp, if known.
    public var time: String?
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// Headers in the order they were sent; names keep their case.
    public var headers: [Header]
    public var body: Body?
    /// The capture session it belongs to, if any.
    public var session: String?
    /// The origin of the capture server that received it as a collector or reverse proxy
    /// (`http://127.0.0.1:41589`), so that recording can tell the server's own address from the
    /// app's destination; nil for other captures (forward proxy, in-process, HAR).
    public var serverOrigin: String?
    /// Why the capture refused the request, when it did (`the body inflates beyond the limit
    /// of 16777216 bytes`): it was answered 413 and recorded without its body.
    public var refused: String?
    /// Why a cassette had no answer for it, when it had none (replaying with record mode
    /// `never`): the miss in words, the nearest recorded requests and how to record it. It was
    /// answered 599 and never sent on; validation reports it as a `replay_miss`.
    public var replayMiss: String?
    /// Whether the capture server got it through its control API (`POST sessions/{id}/requests`:
    /// an app's own capture reporting what it sent) rather than from the app itself.
    public var ingested: Bool

    public init(
        id: String, time: String? = nil, method: String, url: String, headers: [Header] = [],
        body: Body? = nil, session: String? = nil, serverOrigin: String? = nil, refused: String? = nil,
        replayMiss: String? = nil, ingested: Bool = false
    ) {
        self.id = id
        self.time = time
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.session = session
        self.serverOrigin = serverOrigin
        self.refused = refused
        self.replayMiss = replayMiss
        self.ingested = ingested
    }

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}
