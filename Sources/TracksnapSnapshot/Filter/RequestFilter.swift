public import Patterns
import TracksnapJSON
public import TracksnapTraffic

/// Selects the captured requests a validator looks at: the analytics traffic.
///
/// Built-in filters read with dot syntax; a type of your own can be registered under a name
/// that a profile's filter refers to as `{"custom": "name"}`.
/// ```swift
/// let filter: any RequestFilter = .all(.host("api.segment.io"), .path(regex: "/v1/.*"))
/// FilterRegistry.register("internal-only", MyFilter())
/// ```
public protocol RequestFilter: Sendable {
    /// Whether the request is analytics traffic this filter selects.
    func accepts(_ request: CapturedRequest) -> Bool

    /// The same decision, or the error of a pattern that could not make it (PCRE2's match or
    /// depth limit), so that a selection never drops a request silently. The default is
    /// `accepts(_:)`, for filters that use no pattern.
    func decide(_ request: CapturedRequest) throws(PatternError) -> Bool
}

extension RequestFilter {
    public func decide(_ request: CapturedRequest) throws(PatternError) -> Bool {
        accepts(request)
    }
}

/// Compares one field of a request (host, path, method, URL without query, or a header) with a matcher.
public struct FieldFilter: RequestFilter {
    public enum Field: Sendable, Hashable {
        case host, path, method, url
        case header(String)
    }

    public let field: Field
    public let matcher: Matcher

    public init(_ field: Field, _ matcher: Matcher) {
        self.field = field
        self.matcher = matcher
    }

    public func accepts(_ request: CapturedRequest) -> Bool {
        (try? decide(request)) ?? false
    }

    public func decide(_ request: CapturedRequest) throws(PatternError) -> Bool {
        let value: String? =
            switch field {
            case .host: request.host
            case .path: request.path
            case .method: request.method
            case .url: request.urlWithoutQuery
            case .header(let name): request.header(name)
            }
        return try matcher.decide(value.map(JSONValue.string))
    }
}

extension FieldFilter.Field {
    /// The literal as this field of a request reads when the request carries it, and the rule
    /// that reading follows, when the two differ: then no request's field can equal the literal
    /// as written. `decide` reads the fields this way, and a snapshot entry compares its `url`
    /// and `method` the same (`validationView`). Nil when the literal can match, and for headers.
    ///
    /// ```swift
    /// FieldFilter.Field.url.neverMatching("https://T.example/e?ev=1")?.write  // "https://t.example/e"
    /// FieldFilter.Field.host.neverMatching("t.example:8080")?.write  // "t.example"
    /// ```
    package func neverMatching(_ literal: String) -> (write: String, because: String)? {
        let read: String
        let because: String
        switch self {
        case .url:
            read = CapturedRequest(id: "", method: "GET", url: literal).urlWithoutQuery
            because =
                "a request's url is compared without its query and fragment, its scheme and host in lower case, an empty path as /"
        case .method:
            read = literal.uppercased()
            because = "clients send methods in capitals, as the request line carries them"
        case .host:
            let url = literal.contains("://") ? literal : "http://" + literal
            read = CapturedRequest(id: "", method: "GET", url: url).host
            because = "a request's host is compared alone, in lower case: without a scheme, user info, port or path"
        case .path:
            let url = literal.contains("://") ? literal : "http://host" + (literal.hasPrefix("/") ? "" : "/") + literal
            read = CapturedRequest(id: "", method: "GET", url: url).path
            because = "a request's path starts with / and is compared without its query and fragment"
        case .header:
            return nil
        }
        return read == literal || read.isEmpty ? nil : (read, because)
    }

    /// The field a filter's key (or a snapshot entry's `url` and `method`) names; nil for others.
    package init?(key: String) {
        guard let field = [Self.host, .path, .method, .url].first(where: { $0.key == key }) else { return nil }
        self = field
    }

    /// The key the field is written under, in a filter and in a warning about it.
    var key: String {
        switch self {
        case .host: "host"
        case .path: "path"
        case .method: "method"
        case .url: "url"
        case .header: "header"
        }
    }
}

/// Accepts a request when every filter does (and when there are none).
public struct AllFilter: RequestFilter {
    public let filters: [any RequestFilter]
    public init(_ filters: [any RequestFilter]) { self.filters = filters }
    public func accepts(_ request: CapturedRequest) -> Bool { (try? decide(request)) ?? false }
    public func decide(_ request: CapturedRequest) throws(PatternError) -> Bool {
        for filter in filters where try !filter.decide(request) { return false }
        return true
    }
}

/// Accepts a request when at least one filter does.
public struct AnyFilter: RequestFilter {
    public let filters: [any RequestFilter]
    public init(_ filters: [any RequestFilter]) { self.filters = filters }
    public func accepts(_ request: CapturedRequest) -> Bool { (try? decide(request)) ?? false }
    public func decide(_ request: CapturedRequest) throws(PatternError) -> Bool {
        for filter in filters where try filter.decide(request) { return true }
        return false
    }
}

/// Accepts a request when the filter it wraps does not.
public struct NotFilter: RequestFilter {
    public let filter: any RequestFilter
    public init(_ filter: any RequestFilter) { self.filter = filter }
    /// A request the inner filter cannot decide on is not selected here either (no error to
    /// report from `accepts`); `decide` reports it.
    public func accepts(_ request: CapturedRequest) -> Bool { (try? decide(request)) ?? false }
    public func decide(_ request: CapturedRequest) throws(PatternError) -> Bool { try !filter.decide(request) }
}

extension RequestFilter where Self == FieldFilter {
    /// Requests to this host.
    public static func host(_ host: String) -> FieldFilter { FieldFilter(.host, .literal(.string(host))) }
    /// Requests whose URL path is this.
    public static func path(_ path: String) -> FieldFilter { FieldFilter(.path, .literal(.string(path))) }
    /// Requests whose URL path matches a PCRE2 pattern.
    public static func path(regex: String) throws -> FieldFilter { FieldFilter(.path, .regex(try .cached(regex))) }
    /// Requests with this method.
    public static func method(_ method: String) -> FieldFilter { FieldFilter(.method, .literal(.string(method))) }
    /// Requests whose URL without its query matches a PCRE2 pattern.
    public static func url(regex: String) throws -> FieldFilter { FieldFilter(.url, .regex(try .cached(regex))) }
}

extension RequestFilter where Self == AllFilter {
    public static func all(_ filters: any RequestFilter...) -> AllFilter { AllFilter(filters) }
    /// Every request.
    public static var everything: AllFilter { AllFilter([]) }
}

extension RequestFilter where Self == AnyFilter {
    public static func any(_ filters: any RequestFilter...) -> AnyFilter { AnyFilter(filters) }
}

extension RequestFilter where Self == NotFilter {
    public static func not(_ filter: any RequestFilter) -> NotFilter { NotFilter(filter) }
}
