public import Foundation
public import TracksnapJSON

/// The JSON report of a validation (schema version 1): what `tracksnap validate --format json`
/// prints and the server's `POST /__tracksnap/sessions/{id}/validate` answers, filled by
/// `ReportFormat.json` and decoded by the clients. `Schemas/report.schema.json` describes the
/// same shape for other languages; a test checks it against the writer's output.
///
/// ```swift
/// let report = try await session.validate(snapshot: "Snapshots/checkout.json")
/// for finding in report.findings { print(finding.line ?? 0, finding.code, finding.message) }
/// ```
///
/// It lives in `TracksnapSnapshot` so that a client decodes it without importing validation. Codes
/// and statuses are strings: a newer tracksnap may add a code within version 1, which an older
/// client must still read.
public struct ValidationReport: Sendable, Hashable, Codable {
    /// Bumped only when a field changes meaning or disappears; new fields may be added.
    public static let currentVersion = 1

    /// One snapshot's result.
    public struct SnapshotReport: Sendable, Hashable, Codable {
        /// The snapshot file, as the user named it.
        public var file: String
        /// The snapshot's name, or its file name without extension.
        public var name: String
        /// The validator profile used.
        public var profile: String
        /// None of its findings is an error.
        public var passed: Bool
        /// Requests that passed the profile's filter / all captured requests.
        public var selected: Int
        public var captured: Int
        /// Events decoded from the selected requests; only when the snapshot lists events.
        public var events: Int?
        /// How each expected entry fared, in snapshot order.
        public var entries: [Entry]
        /// This snapshot's findings (without `snapshot`).
        public var findings: [Finding]
        /// The exact command that accepts the new result; only on a failed snapshot, when there is one.
        public var acceptCommand: String?
        /// The tracking plans' events this run never sent (coverage); only when plans were checked.
        public var plannedNotSent: [PlannedEvent]?
        /// The privacy section: those of `findings` whose code is in the privacy category
        /// (`personal_data`…), values masked; left out when there are none. They stay in
        /// `findings` too.
        public var privacy: [Finding]?

        package init(
            file: String, name: String, profile: String, passed: Bool, selected: Int, captured: Int, events: Int?,
            entries: [Entry], findings: [Finding], acceptCommand: String?, plannedNotSent: [PlannedEvent]? = nil,
            privacy: [Finding]? = nil
        ) {
            self.plannedNotSent = plannedNotSent
            self.privacy = privacy
            self.file = file
            self.name = name
            self.profile = profile
            self.passed = passed
            self.selected = selected
            self.captured = captured
            self.events = events
            self.entries = entries
            self.findings = findings
            self.acceptCommand = acceptCommand
        }
    }

    /// A tracking plan's event: `track "Refund Issued"` in `Validators/shop.plan.json`, line 14.
    public struct PlannedEvent: Sendable, Hashable, Codable {
        /// `track "Order Completed"`, `identify`, `page "Home"`.
        public var event: String
        /// The plan file.
        public var plan: String
        public var line: Int?
        public var column: Int?

        package init(event: String, plan: String, line: Int?, column: Int?) {
            self.event = event
            self.plan = plan
            self.line = line
            self.column = column
        }
    }

    /// How one expected entry fared: `matched`, `mismatched` or `missing`.
    public struct Entry: Sendable, Hashable, Codable {
        /// The entry's JSON Pointer (`/requests/2`).
        public var path: String
        /// A short human name (`GET https://api.example.com/track`).
        public var summary: String
        public var status: String
        /// 1-based position in the snapshot file; nil (written `null`) when unknown.
        public var line: Int?
        public var column: Int?
        /// The captured request it was paired with.
        public var request: RequestReference?

        package init(
            path: String, summary: String, status: String, line: Int?, column: Int?, request: RequestReference?
        ) {
            self.path = path
            self.summary = summary
            self.status = status
            self.line = line
            self.column = column
            self.request = request
        }

        private enum CodingKeys: String, CodingKey { case path, summary, status, line, column, request }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(summary, forKey: .summary)
            try container.encode(status, forKey: .status)
            // Always present: null when unknown.
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encodeIfPresent(request, forKey: .request)
        }
    }

    /// One difference between the snapshot and the capture.
    public struct Finding: Sendable, Hashable, Codable {
        /// `missing_event`, `value_mismatch`… (`FindingCode`'s raw values).
        public var code: String
        public var severity: Severity
        /// The JSON Pointer of the expectation in the snapshot.
        public var path: String
        /// The expected entry's pointer; nil (written `null`) for unexpected traffic.
        public var entry: String?
        /// 1-based position in the snapshot file; nil (written `null`) when unknown.
        public var line: Int?
        public var column: Int?
        /// The literal or matcher expected; nil (left out) when there is none, `.null` for an expected JSON null.
        public var expected: JSONValue?
        /// The captured value; nil (left out) when there is none, `.null` for a captured JSON null.
        public var actual: JSONValue?
        public var message: String
        /// The snapshot file, in the run-wide `findings` list.
        public var snapshot: String?
        public var request: RequestReference?
        /// The file `line` and `column` are in, when it is not the snapshot: a tracking plan's.
        public var file: String?

        package init(
            code: String, severity: Severity, path: String, entry: String?, line: Int?, column: Int?,
            expected: JSONValue?, actual: JSONValue?, message: String, snapshot: String?, request: RequestReference?,
            file: String? = nil
        ) {
            self.file = file
            self.code = code
            self.severity = severity
            self.path = path
            self.entry = entry
            self.line = line
            self.column = column
            self.expected = expected
            self.actual = actual
            self.message = message
            self.snapshot = snapshot
            self.request = request
        }

        private enum CodingKeys: String, CodingKey {
            case code, severity, path, entry, line, column, expected, actual, message, snapshot, request, file
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decode(String.self, forKey: .code)
            severity = try container.decode(Severity.self, forKey: .severity)
            path = try container.decode(String.self, forKey: .path)
            entry = try container.decodeIfPresent(String.self, forKey: .entry)
            line = try container.decodeIfPresent(Int.self, forKey: .line)
            column = try container.decodeIfPresent(Int.self, forKey: .column)
            // `decodeIfPresent` would read a JSON null as "absent" (and `? … : nil` would make an
            // absent value `.null`: JSONValue is ExpressibleByNilLiteral).
            expected = try Self.value(container, .expected)
            actual = try Self.value(container, .actual)
            message = try container.decode(String.self, forKey: .message)
            snapshot = try container.decodeIfPresent(String.self, forKey: .snapshot)
            request = try container.decodeIfPresent(RequestReference.self, forKey: .request)
            file = try container.decodeIfPresent(String.self, forKey: .file)
        }

        /// A member that may be absent (nil) or a JSON null (`.null`).
        private static func value(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
            -> JSONValue?
        {
            guard container.contains(key) else { return Optional.none }
            return try container.decode(JSONValue.self, forKey: key)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(severity, forKey: .severity)
            try container.encode(path, forKey: .path)
            // Always present: null for unexpected traffic and unknown positions.
            try container.encode(entry, forKey: .entry)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            // Left out rather than null when absent, so that `null` always means a JSON null value.
            try container.encodeIfPresent(expected, forKey: .expected)
            try container.encodeIfPresent(actual, forKey: .actual)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(snapshot, forKey: .snapshot)
            try container.encodeIfPresent(request, forKey: .request)
            try container.encodeIfPresent(file, forKey: .file)
        }
    }

    /// The captured request a finding or entry concerns; `index` is 0-based, before filtering.
    public struct RequestReference: Sendable, Hashable, Codable {
        public var id: String
        public var index: Int
        public var method: String
        public var url: String
        /// The decoded event it is about, by its 0-based position among its request's events;
        /// nil when it is about the request as a whole.
        public var event: Int?

        package init(id: String, index: Int, method: String, url: String, event: Int? = nil) {
            self.id = id
            self.index = index
            self.method = method
            self.url = url
            self.event = event
        }
    }

    public var version: Int
    /// True when no snapshot has an error finding.
    public var passed: Bool
    public var snapshots: [SnapshotReport]
    /// Every finding of the run, each naming its snapshot.
    public var findings: [Finding]
    /// The text `init(json:)` read; not part of a report's value (`==` compares the members).
    private var text: String? = nil

    private enum CodingKeys: String, CodingKey { case version, passed, snapshots, findings }

    public static func == (a: ValidationReport, b: ValidationReport) -> Bool {
        (a.version, a.passed, a.snapshots, a.findings) == (b.version, b.passed, b.snapshots, b.findings)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(passed)
        hasher.combine(snapshots)
        hasher.combine(findings)
    }

    package init(version: Int = currentVersion, passed: Bool, snapshots: [SnapshotReport], findings: [Finding]) {
        self.version = version
        self.passed = passed
        self.snapshots = snapshots
        self.findings = findings
    }

    /// The report as JSON text: the text `init(json:)` read (fields a newer tracksnap added
    /// included), else as tracksnap writes it — keys sorted, two-space indentation, numbers as
    /// written in the snapshot (`12.50`), a final newline.
    public var json: String {
        // Encoding these types into a JSONValue cannot fail: none of their `encode(to:)` throws of its own.
        text ?? ((try? JSONValueCoder.encode(self)) ?? .null).serialized(pretty: true) + "\n"
    }

    /// Reads a JSON report.
    ///
    /// ```swift
    /// let report = try ValidationReport(json: Data(contentsOf: URL(fileURLWithPath: "report.json")))
    /// ```
    /// - Parameter json: the report's text.
    /// - Throws: `JSONParseError` when it is not JSON, or at the line and column of a member the
    ///   schema requires that is missing or of another type (`/snapshots/0: missing required member "name"`).
    public init(json: Data) throws(JSONParseError) {
        self = try JSONValueCoder.decode(Self.self, from: JSONDocument.parse(json, file: "report"))
        text = String(decoding: json, as: UTF8.self)
    }
}
