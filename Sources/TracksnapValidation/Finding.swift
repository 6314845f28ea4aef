public import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// One difference between a snapshot and the captured traffic.
public struct Finding: Sendable, Hashable {
    /// What kind of difference it is; the raw value is the code reports print.
    public typealias Code = FindingCode

    public var code: Code
    public var severity: Severity
    /// The JSON Pointer of the expectation in the snapshot file (`/requests/0/parameters/ev`).
    public var path: String
    /// The JSON Pointer of the expected entry this finding belongs to (`/requests/0`); nil for
    /// unexpected traffic.
    public var entry: String?
    /// Where `path` stands in the snapshot file, or in `file`.
    public var location: SourceLocation?
    /// The file `location` is in when it is not the snapshot: a tracking plan's.
    public var file: String?
    /// The expected literal, or the matcher as it is written (`{"$regex": "o-[0-9]+"}`).
    public var expected: JSONValue?
    /// The captured value, if there was one.
    public var actual: JSONValue?
    public var message: String
    /// The captured request the actual value came from.
    public var request: RequestReference?

    public init(
        code: Code, severity: Severity = .error, path: String, entry: String? = nil,
        location: SourceLocation? = nil, expected: JSONValue? = nil, actual: JSONValue? = nil,
        message: String, request: RequestReference? = nil, file: String? = nil
    ) {
        self.file = file
        self.code = code
        self.severity = severity
        self.path = path
        self.entry = entry
        self.location = location
        self.expected = expected
        self.actual = actual
        self.message = message
        self.request = request
    }
}

/// Which captured request a finding speaks of.
public struct RequestReference: Sendable, Hashable {
    /// The request's id in its capture.
    public var id: String
    /// Its 0-based position in the capture, before filtering.
    public var index: Int
    public var method: String
    public var url: String
    /// The decoded event it is about, by its 0-based position among its request's events; nil
    /// when it is about the request as a whole.
    public var event: Int?

    public init(id: String, index: Int, method: String, url: String, event: Int? = nil) {
        self.id = id
        self.index = index
        self.method = method
        self.url = url
        self.event = event
    }

    /// The same request, about one of its decoded events.
    public func event(_ position: Int) -> RequestReference {
        var reference = self
        reference.event = position
        return reference
    }
}
