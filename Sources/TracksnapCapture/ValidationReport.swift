import Foundation
import TracksnapCore

/// The JSON report of a validation, as `tracksnap validate --format json` prints it and the
/// server's `POST /__tracksnap/sessions/{id}/validate` answers (schema version 1, described in
/// the README and `Schemas/report.schema.json`).
///
/// ```swift
/// let report = try await session.validate(snapshot: "Snapshots/checkout.json")
/// for finding in report.findings { print(finding.line ?? 0, finding.code, finding.message) }
/// ```
///
/// The typed members are the schema's; `json` keeps the whole document, fields added in later
/// versions included.
public struct ValidationReport: Sendable, Hashable {
    /// One snapshot's result.
    public struct SnapshotReport: Sendable, Hashable {
        public var file: String
        public var name: String
        public var profile: String
        public var passed: Bool
        /// Requests that passed the profile's filter / all captured requests.
        public var selected: Int
        public var captured: Int
        public var entries: [Entry]
        public var findings: [Finding]
    }

    /// How one expected entry fared: `matched`, `mismatched` or `missing`.
    public struct Entry: Sendable, Hashable {
        public var path: String
        public var summary: String
        public var status: String
        public var line: Int?
        public var column: Int?
        public var request: RequestReference?
    }

    /// One difference between the snapshot and the capture.
    public struct Finding: Sendable, Hashable {
        public var code: String
        /// `error` or `warning`.
        public var severity: String
        /// The JSON Pointer of the expectation in the snapshot.
        public var path: String
        /// The expected entry's pointer; nil for unexpected traffic.
        public var entry: String?
        public var line: Int?
        public var column: Int?
        /// The literal or matcher expected; nil when there is none.
        public var expected: JSONValue?
        /// The captured value; nil when there is none.
        public var actual: JSONValue?
        public var message: String
        /// The snapshot file, in the run-wide `findings` list.
        public var snapshot: String?
        public var request: RequestReference?
    }

    /// The captured request a finding or entry concerns; `index` is 0-based, before filtering.
    public struct RequestReference: Sendable, Hashable {
        public var id: String
        public var index: Int
        public var method: String
        public var url: String
    }

    public var version: Int
    /// True when no snapshot has an error finding.
    public var passed: Bool
    public var snapshots: [SnapshotReport]
    /// Every finding of the run, each naming its snapshot.
    public var findings: [Finding]
    /// The report as the server sent it.
    public var json: String

    /// Reads a JSON report.
    ///
    /// ```swift
    /// let report = try ValidationReport(json: Data(contentsOf: URL(fileURLWithPath: "report.json")))
    /// ```
    /// - Parameter json: the report's text.
    /// - Throws: `JSONParseError` when it is not JSON or lacks a member the schema requires.
    public init(json: Data) throws(JSONParseError) {
        let value = try JSONDocument.parse(json, file: "report", trackLocations: false).value
        var reader = Reader(path: "")
        do {
            version = try reader.int(value, "version")
            passed = try reader.bool(value, "passed")
            snapshots = try reader.array(value, "snapshots") { reader, item in try Self.snapshot(item, &reader) }
            findings = try reader.array(value, "findings") { reader, item in try Self.finding(item, &reader) }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(file: "report", location: SourceLocation(line: 1, column: 1), message: "\(error)")
        }
        self.json = String(decoding: json, as: UTF8.self)
    }

    private static func snapshot(_ value: JSONValue, _ reader: inout Reader) throws -> SnapshotReport {
        SnapshotReport(
            file: try reader.string(value, "file"), name: try reader.string(value, "name"),
            profile: try reader.string(value, "profile"), passed: try reader.bool(value, "passed"),
            selected: try reader.int(value, "selected"), captured: try reader.int(value, "captured"),
            entries: try reader.array(value, "entries") { reader, item in try entry(item, &reader) },
            findings: try reader.array(value, "findings") { reader, item in try finding(item, &reader) })
    }

    private static func entry(_ value: JSONValue, _ reader: inout Reader) throws -> Entry {
        Entry(
            path: try reader.string(value, "path"), summary: try reader.string(value, "summary"),
            status: try reader.string(value, "status"), line: value["line"].flatMap(Reader.integer),
            column: value["column"].flatMap(Reader.integer), request: try value["request"].map { try request($0, &reader) })
    }

    private static func finding(_ value: JSONValue, _ reader: inout Reader) throws -> Finding {
        Finding(
            code: try reader.string(value, "code"), severity: try reader.string(value, "severity"),
            path: try reader.string(value, "path"), entry: value["entry"]?.stringValue,
            line: value["line"].flatMap(Reader.integer), column: value["column"].flatMap(Reader.integer),
            expected: value["expected"], actual: value["actual"], message: try reader.string(value, "message"),
            snapshot: value["snapshot"]?.stringValue, request: try value["request"].map { try request($0, &reader) })
    }

    private static func request(_ value: JSONValue, _ reader: inout Reader) throws -> RequestReference {
        RequestReference(
            id: value["id"]?.scalarText ?? "", index: try reader.int(value, "index"),
            method: try reader.string(value, "method"), url: try reader.string(value, "url"))
    }

    /// Reads required members, naming the JSON Pointer of a missing or mistyped one.
    private struct Reader {
        var path: String

        func failure(_ key: String, _ expected: String) -> JSONParseError {
            JSONParseError(file: "report", location: SourceLocation(line: 1, column: 1), message: "\(path)/\(key): expected \(expected)")
        }

        func string(_ object: JSONValue, _ key: String) throws(JSONParseError) -> String {
            guard let value = object[key]?.stringValue else { throw failure(key, "a string") }
            return value
        }

        func bool(_ object: JSONValue, _ key: String) throws(JSONParseError) -> Bool {
            guard let value = object[key]?.boolValue else { throw failure(key, "a boolean") }
            return value
        }

        func int(_ object: JSONValue, _ key: String) throws(JSONParseError) -> Int {
            guard let value = object[key].flatMap(Self.integer) else { throw failure(key, "an integer") }
            return value
        }

        mutating func array<T>(
            _ object: JSONValue, _ key: String, _ read: (inout Reader, JSONValue) throws -> T
        ) throws -> [T] {
            guard let items = object[key]?.arrayValue else { throw failure(key, "an array") }
            let saved = path
            defer { path = saved }
            var result: [T] = []
            for (index, item) in items.enumerated() {
                path = "\(saved)/\(key)/\(index)"
                result.append(try read(&self, item))
            }
            return result
        }

        static func integer(_ value: JSONValue) -> Int? {
            guard case .number(let text) = value else { return nil }
            return Int(text) ?? Double(text).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil }
        }
    }
}
