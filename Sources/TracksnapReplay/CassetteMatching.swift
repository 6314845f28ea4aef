import Foundation
import TracksnapJSON
public import TracksnapSnapshot
public import TracksnapTraffic

/// What a request must share with a recorded one for its answer to be replayed, named after the
/// tool whose rules each preset follows; a cassette read from a tool's file matches by that
/// tool's rules unless told otherwise (`Cassette.Format.matching`).
///
/// ```swift
/// let rules = CassetteMatching.vcr                  // method, scheme, host, port, path, query
/// rules.differences(request, recorded)              // ["path: /v1/cart, recorded /v1/carts"]
/// ```
/// URLs compare by their parts: scheme and host case-insensitively, the port as the scheme's
/// default when not written (`http://a.example` is `http://a.example:80/`), an empty path as
/// `/`, the query as a set of name/value pairs in any order.
public struct CassetteMatching: Sendable, Hashable {
    /// The parts of a request a rule can compare.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case method, scheme, host, port, path, query, body
    }

    /// The parts compared, in the order a miss lists them.
    public var fields: [Field]
    /// Header names whose values must be equal too (case-insensitive names).
    public var headers: [String]
    /// Whether an interaction already played can answer again once every match has been played
    /// (DVR does, VCR does not).
    public var repeats: Bool

    public init(fields: [Field], headers: [String] = [], repeats: Bool = true) {
        self.fields = fields
        self.headers = headers
        self.repeats = repeats
    }

    /// DVR's: method, the whole URL, and the body, JSON by meaning.
    public static let dvr = CassetteMatching(fields: [.method, .scheme, .host, .port, .path, .query, .body])
    /// Vinyl's: method and URL.
    public static let vinyl = CassetteMatching(fields: [.method, .scheme, .host, .port, .path, .query])
    /// VCR's and vcrpy's `match_on` default: method, scheme, host, port, path, query; each
    /// interaction played once.
    public static let vcr = CassetteMatching(fields: [.method, .scheme, .host, .port, .path, .query], repeats: false)
    /// tracksnap's: method, URL and body.
    public static let tracksnap = dvr

    /// The same rules, but an interaction already played answers again once every match has
    /// been played (vcrpy's `allow_playback_repeats`).
    ///
    /// ```swift
    /// try CassettePlayer(path: "cassettes/api.yaml", mode: .never, matching: .vcr.allowingRepeats)
    /// ```
    public var allowingRepeats: CassetteMatching {
        var rules = self
        rules.repeats = true
        return rules
    }

    /// What a recorded request shares with every request that can match it: the method and the
    /// path, each when compared, and the query when compared by value (not one written with
    /// matchers, `patterns.query`).
    func candidateKey(_ recorded: CapturedRequest, patterns: RequestPatterns) -> String {
        key(recorded, byQuery: patterns.query == nil)
    }

    /// The keys of the recorded requests a request can match: by its query, and without it for
    /// those whose query is written with matchers.
    func candidateKeys(_ request: CapturedRequest) -> Set<String> {
        [key(request, byQuery: true), key(request, byQuery: false)]
    }

    private func key(_ request: CapturedRequest, byQuery: Bool) -> String {
        let key =
            (fields.contains(.method) ? request.method.uppercased() : "") + " "
            + (fields.contains(.path) ? request.path : "")
        guard byQuery, fields.contains(.query) else { return key }
        return key + "?" + Field.query.value(of: request).key
    }

    /// Whether a request matches a recorded one.
    package func matches(_ request: CapturedRequest, _ recorded: CapturedRequest, patterns: RequestPatterns = .none)
        -> Bool
    {
        matches(prepare(request), prepare(recorded), patterns: patterns)
    }

    /// What differs, one line per field (`path: /v1/cart, recorded /v1/carts`); empty when it matches.
    /// - Parameters:
    ///   - request: the request made.
    ///   - recorded: the request recorded.
    ///   - patterns: what the recorded request's query and body say with matchers, which then
    ///     take the place of comparing them exactly.
    package func differences(
        _ request: CapturedRequest, _ recorded: CapturedRequest, patterns: RequestPatterns = .none
    ) -> [String] {
        differences(prepare(request), prepare(recorded), patterns: patterns)
    }

    /// A request as these rules read it, each compared part read once.
    func prepare(_ request: CapturedRequest) -> Prepared {
        Prepared(request: request, values: Dictionary(uniqueKeysWithValues: fields.map { ($0, $0.value(of: request)) }))
    }

    func matches(_ request: Prepared, _ recorded: Prepared, patterns: RequestPatterns) -> Bool {
        differences(request, recorded, patterns: patterns, all: false).isEmpty
    }

    /// What differs; only the first difference unless `all`.
    func differences(_ request: Prepared, _ recorded: Prepared, patterns: RequestPatterns, all: Bool = true)
        -> [String]
    {
        var out: [String] = []
        for field in fields {
            if !all, !out.isEmpty { return out }
            let mine = request.value(field)
            if let matcher = field == .query ? patterns.query : field == .body ? patterns.body : nil {
                if !matcher.accepts(mine.json, lenient: true) {
                    out.append("\(field.rawValue): \(mine.text), recorded \(matcher.json.serialized())")
                }
                continue
            }
            let theirs = recorded.value(field)
            if mine != theirs { out.append("\(field.rawValue): \(mine.text), recorded \(theirs.text)") }
        }
        let (asked, kept) = (request.request, recorded.request)
        for name in headers where asked.header(name) != kept.header(name) {
            out.append("header \(name): \(asked.header(name) ?? "none"), recorded \(kept.header(name) ?? "none")")
        }
        return out
    }

    /// A request with the parts the rules compare read once (its URL parsed, its JSON body
    /// parsed): a cassette's interactions are prepared when it is read, a request once per
    /// answer, so that comparing it with many recorded ones reads nothing again.
    struct Prepared: Sendable {
        let request: CapturedRequest
        fileprivate let values: [Field: Compared]

        fileprivate func value(_ field: Field) -> Compared {
            values[field] ?? field.value(of: request)
        }
    }
}

/// What a recorded request says with matchers (`$regex`, `$type`, `$any`…) rather than values:
/// its query as an object (`"query": {"ts": {"$regex": "[0-9]+"}}`), its JSON body, or both.
public struct RequestPatterns: Sendable, Hashable {
    /// The query's names to matchers; the request's other parameters are not compared.
    public var query: Matcher?
    /// The JSON body, as a snapshot's body matches (an object as a subset).
    public var body: Matcher?

    public init(query: Matcher? = nil, body: Matcher? = nil) {
        self.query = query
        self.body = body
    }

    public static let none = RequestPatterns()
}

extension CapturedRequest {
    /// The query as an object of names to values (the last of a repeated name), as a query
    /// pattern reads it.
    fileprivate var queryObject: JSONValue {
        .object(
            Dictionary(queryItems.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last }))
    }
}

extension CassetteMatching.Field {
    /// A field's comparable value and how a miss shows it.
    fileprivate func value(of request: CapturedRequest) -> Compared {
        switch self {
        case .method: Compared(request.method.uppercased())
        case .scheme: Compared(request.scheme ?? "")
        case .host: Compared(request.host)
        case .port: Compared(request.port.map(String.init) ?? "")
        case .path: Compared(request.path)
        case .query:
            Compared(
                request.queryItems.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "&"),
                json: request.queryObject, text: request.query.map { "?\($0)" } ?? "no query")
        case .body:
            Compared(body: request)
        }
    }
}

/// A value compared for matching, with its text for a miss.
private struct Compared: Equatable, Sendable {
    var key: String
    /// The body's JSON, or the query as an object: what a pattern reads.
    var json: JSONValue?
    var text: String

    init(_ key: String, json: JSONValue? = nil, text: String? = nil) {
        self.key = key
        self.json = json
        self.text = text ?? (key.isEmpty ? "none" : key)
    }

    /// A body: JSON by meaning (key order and spacing do not count), anything else by its bytes.
    init(body request: CapturedRequest) {
        let bytes = request.bodyBytes ?? []
        json = try? JSONDocument.parse(bytes, file: "", trackLocations: false).value
        key = json == nil ? Data(bytes).base64EncodedString() : ""
        let shown = request.bodyText ?? "\(bytes.count) bytes"
        text = bytes.isEmpty ? "no body" : shown.count > 80 ? String(shown.prefix(80)) + "…" : shown
    }

    /// A query's object follows from its key, so that equal keys are equal queries.
    static func == (a: Compared, b: Compared) -> Bool { a.key == b.key && a.json == b.json }
}

extension Cassette.Format {
    /// The rules the tool that writes this format matches by.
    public var matching: CassetteMatching {
        switch self {
        case .tracksnap: .tracksnap
        case .dvr: .dvr
        case .vinyl: .vinyl
        case .vcr: .vcr
        case .har: .vinyl
        }
    }
}

extension Interaction.Request {
    /// The recorded request as a captured one, for the rules that compare requests.
    public var captured: CapturedRequest {
        CapturedRequest(id: "", method: method, url: url, headers: headers, body: body?.captured)
    }
}

extension Interaction.Body {
    /// The body as a captured request holds it: text when it is UTF-8, else base64.
    public var captured: CapturedRequest.Body {
        if case .binary(let bytes) = self, String(validating: bytes, as: UTF8.self) == nil {
            return .base64(Data(bytes).base64EncodedString())
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}
