import TracksnapCore
import TracksnapValidation

/// The JSON report's objects, built as `JSONValue`s so that serialization sorts keys and the
/// same results always give the same text. `Schemas/report.schema.json` documents the shape.
enum JSONReport {
    /// Bumped only when a field changes meaning or disappears; new fields may be added.
    static let version = 1

    static func document(_ results: [SnapshotResult], options: ReportOptions) -> JSONValue {
        .object([
            "version": .number(version),
            "passed": .bool(results.allSatisfy(\.passed)),
            "snapshots": .array(results.map { snapshot($0, options: options) }),
            "findings": .array(results.flatMap { result in
                result.findings.map { finding($0, snapshot: result.file) }
            }),
        ])
    }

    static func snapshot(_ result: SnapshotResult, options: ReportOptions) -> JSONValue {
        var object: [String: JSONValue] = [
            "file": .string(result.file),
            "name": .string(result.name),
            "profile": .string(result.profile),
            "passed": .bool(result.passed),
            "selected": .number(result.selected),
            "captured": .number(result.captured),
            "entries": .array(result.entries.map(entry)),
            "findings": .array(result.findings.map { finding($0, snapshot: nil) }),
        ]
        if let events = result.events { object["events"] = .number(events) }
        if let command = options.acceptCommand(for: result) { object["acceptCommand"] = .string(command) }
        return .object(object)
    }

    static func entry(_ entry: EntryResult) -> JSONValue {
        var object: [String: JSONValue] = [
            "path": .string(entry.path),
            "summary": .string(entry.summary),
            "status": .string(entry.status.rawValue),
            "line": entry.location.map { .number($0.line) } ?? .null,
            "column": entry.location.map { .number($0.column) } ?? .null,
        ]
        if let request = entry.request { object["request"] = self.request(request) }
        return .object(object)
    }

    /// - Parameter snapshot: the snapshot's file, added in the run-wide list of findings.
    static func finding(_ finding: Finding, snapshot: String?) -> JSONValue {
        var object: [String: JSONValue] = [
            "code": .string(finding.code.rawValue),
            "severity": .string(finding.severity.rawValue),
            "path": .string(finding.path),
            "entry": finding.entry.map(JSONValue.string) ?? .null,
            "line": finding.location.map { .number($0.line) } ?? .null,
            "column": finding.location.map { .number($0.column) } ?? .null,
            "message": .string(finding.message),
        ]
        // Omitted rather than null when absent, so that `null` always means a JSON null value.
        if let expected = finding.expected { object["expected"] = expected }
        if let actual = finding.actual { object["actual"] = actual }
        if let request = finding.request { object["request"] = self.request(request) }
        if let snapshot { object["snapshot"] = .string(snapshot) }
        return .object(object)
    }

    static func request(_ request: RequestReference) -> JSONValue {
        .object([
            "id": .string(request.id),
            "index": .number(request.index),
            "method": .string(request.method),
            "url": .string(request.url),
        ])
    }
}
