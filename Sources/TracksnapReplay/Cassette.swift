public import TracksnapJSON
public import TracksnapTraffic

/// What a backend answered, recorded once and replayed after, so that a flow runs offline and
/// the same every time while its analytics are checked.
///
/// ```swift
/// let (cassette, warnings) = try Cassette.read(path: "Cassettes/checkout.json")
/// cassette.format                          // .dvr
/// cassette.interactions[0].response.status // 200
/// ```
public struct Cassette: Sendable, Hashable {
    /// The tool whose file this was read from.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// tracksnap's own: `{"cassette": 1, "name", "interactions"}`, what `write(to:)` writes.
        case tracksnap
        /// DVR (Swift): `{name, interactions: [{recorded_at, request, response}]}`.
        case dvr
        /// Vinyl (Swift): a top-level array of tracks, `{request, response}`.
        case vinyl
        /// VCR (Ruby, `http_interactions`) and vcrpy (Python, `interactions` and `version`), YAML or JSON.
        case vcr
        /// HAR 1.2 (browsers, Charles, mitmproxy): `log.entries`, each a request and its response.
        case har
    }

    /// The cassette's own name (DVR's `name`), if it has one.
    public var name: String?
    public var format: Format
    /// In the order they were recorded.
    public var interactions: [Interaction]

    public init(name: String? = nil, format: Format, interactions: [Interaction]) {
        self.name = name
        self.format = format
        self.interactions = interactions
    }
}

/// One request and the answer it got.
public struct Interaction: Sendable, Hashable {
    public var request: Request
    public var response: Response
    /// When it was recorded, in seconds since 1970 (DVR's `recorded_at`), if known.
    public var recordedAt: Double?

    public init(request: Request, response: Response, recordedAt: Double? = nil) {
        self.request = request
        self.response = response
        self.recordedAt = recordedAt
    }

    /// A request as recorded.
    public struct Request: Sendable, Hashable {
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// Sorted by name: the formats keep headers as objects, which have no order.
        public var headers: [CapturedRequest.Header]
        public var body: Body?
        /// What tracksnap's format says with matchers: a `query` object, matchers in the `json` body.
        public var patterns: RequestPatterns

        public init(
            method: String, url: String, headers: [CapturedRequest.Header] = [], body: Body? = nil,
            patterns: RequestPatterns = .none
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.patterns = patterns
        }
    }

    /// An answer as recorded.
    public struct Response: Sendable, Hashable {
        public var status: Int
        /// Sorted by name.
        public var headers: [CapturedRequest.Header]
        public var body: Body?
        /// The URL the answer came from (after redirects), if recorded.
        public var url: String?

        public init(status: Int, headers: [CapturedRequest.Header] = [], body: Body? = nil, url: String? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.url = url
        }
    }

    /// A body as a cassette stores it: JSON as JSON, text as text, anything else as bytes.
    public enum Body: Sendable, Hashable {
        case json(JSONValue)
        case text(String)
        case binary([UInt8])

        /// The bytes sent on the wire: JSON compact, text in UTF-8.
        public var bytes: [UInt8] {
            switch self {
            case .json(let value): Array(value.serialized().utf8)
            case .text(let text): Array(text.utf8)
            case .binary(let bytes): bytes
            }
        }
    }
}

extension Cassette.Format {
    /// The format a document's shape says it is in, as `Cassette.read` tells it, or nil for a
    /// document that is no cassette: tracksnap's `{"cassette", "interactions"}`, VCR's
    /// `http_interactions`, vcrpy's `interactions` and `version`, DVR's `interactions`, HAR's
    /// `log.entries`, or Vinyl's array of tracks (objects with a `request` or a `response`).
    ///
    /// ```swift
    /// Cassette.Format(shape: try JSONDocument.parse(bytes, file: "x.json").value)  // .tracksnap
    /// ```
    public init?(shape root: JSONValue) {
        if let tracks = root.arrayValue {
            let isTrack = { (track: JSONValue) in track["response"] != nil || track["request"] != nil }
            guard !tracks.isEmpty, tracks.allSatisfy(isTrack) else { return nil }
            self = .vinyl
            return
        }
        guard let top = root.objectValue else { return nil }
        if top["log"]?.objectValue?["entries"] != nil {
            self = .har
        } else if top["http_interactions"] != nil {
            self = .vcr
        } else if top["interactions"] != nil {
            self = top["cassette"] != nil ? .tracksnap : top["version"] != nil && top["name"] == nil ? .vcr : .dvr
        } else {
            return nil
        }
    }

    /// The tool's name, as messages give it: `DVR`, `Vinyl`, `VCR`, `HAR`, `tracksnap`.
    public var tool: String {
        switch self {
        case .tracksnap: "tracksnap"
        case .dvr: "DVR"
        case .vinyl: "Vinyl"
        case .vcr: "VCR"
        case .har: "HAR"
        }
    }
}
