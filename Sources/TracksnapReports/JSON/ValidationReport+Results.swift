import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
package import TracksnapValidation

extension ValidationReport {
    /// The JSON report of validation results, as `ReportFormat.json` writes it.
    ///
    /// ```swift
    /// ValidationReport(results, options: ReportOptions()).json  // {"findings": [...], "passed": false, ...}
    /// ```
    /// - Parameters:
    ///   - results: one per snapshot, in the order checked.
    ///   - options: gives each failed snapshot its `acceptCommand`.
    package init(_ results: [SnapshotResult], options: ReportOptions) {
        self.init(
            passed: results.allSatisfy(\.passed),
            snapshots: results.map { SnapshotReport($0, options: options) },
            findings: results.flatMap { result in result.findings.map { Finding($0, snapshot: result.file) } })
    }
}

extension ValidationReport.SnapshotReport {
    init(_ result: SnapshotResult, options: ReportOptions) {
        let privacy = result.findings.filter { $0.code.category == .privacy }
        self.init(
            file: result.file, name: result.name, profile: result.profile, passed: result.passed,
            selected: result.selected, captured: result.captured, events: result.events,
            entries: result.entries.map(ValidationReport.Entry.init),
            findings: result.findings.map { ValidationReport.Finding($0, snapshot: nil) },
            acceptCommand: options.acceptCommand(for: result),
            plannedNotSent: result.checkedPlans
                ? result.unsentPlanned.map {
                    ValidationReport.PlannedEvent(
                        event: $0.title, plan: $0.file, line: $0.location?.line, column: $0.location?.column)
                } : nil,
            privacy: privacy.isEmpty ? nil : privacy.map { ValidationReport.Finding($0, snapshot: nil) })
    }
}

extension ValidationReport.Entry {
    init(_ entry: EntryResult) {
        self.init(
            path: entry.path, summary: entry.summary, status: entry.status.rawValue,
            line: entry.location?.line, column: entry.location?.column,
            request: entry.request.map(ValidationReport.RequestReference.init))
    }
}

extension ValidationReport.Finding {
    /// - Parameter snapshot: the snapshot's file, given in the run-wide list of findings.
    init(_ finding: TracksnapValidation.Finding, snapshot: String?) {
        self.init(
            code: finding.code.rawValue, severity: finding.severity, path: finding.path, entry: finding.entry,
            line: finding.location?.line, column: finding.location?.column, expected: finding.expected,
            actual: finding.actual,
            message: finding.message, snapshot: snapshot,
            request: finding.request.map(ValidationReport.RequestReference.init), file: finding.file)
    }
}

extension ValidationReport.RequestReference {
    init(_ request: TracksnapValidation.RequestReference) {
        self.init(id: request.id, index: request.index, method: request.method, url: request.url, event: request.event)
    }
}
