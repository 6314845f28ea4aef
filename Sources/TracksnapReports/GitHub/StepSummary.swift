import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// A Markdown summary of a run: a table of snapshots, then each snapshot's findings as a table
/// (code, path, line, expected, actual, message).
struct StepSummary {
    let options: ReportOptions

    func render(_ results: [SnapshotResult]) -> String {
        let failed = results.filter { !$0.passed }.count
        var lines: [String] = []
        lines.append(
            failed == 0
                ? "## tracksnap: \(plural(results.count, "snapshot")) passed"
                : "## tracksnap: \(failed) of \(plural(results.count, "snapshot")) failed")
        lines.append("")
        if !results.isEmpty {
            lines.append("| Status | Snapshot | File | Expected | Captured | Findings |")
            lines.append("|---|---|---|--:|--:|--:|")
            for result in results {
                let cells = [
                    status(result), Markdown.text(result.name), Markdown.code(result.file),
                    String(result.entries.count), String(result.selected), String(result.findings.count),
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        for result in results where !result.findings.isEmpty {
            lines += ["", "### \(status(result)) \(Markdown.text(result.name))", ""]
            let privacy = result.findings.filter { $0.code.category == .privacy }
            let differences = result.findings.filter { $0.code.category != .privacy }
            if !differences.isEmpty {
                lines.append("| Code | Path | Line | Expected | Actual | Message |")
                lines.append("|---|---|--:|---|---|---|")
                for finding in differences {
                    lines.append("| " + row(finding, in: result).joined(separator: " | ") + " |")
                }
            }
            if !privacy.isEmpty {
                if !differences.isEmpty { lines.append("") }
                lines += ["#### Privacy — values masked", ""]
                lines.append("| Code | Request | Path | Value | Message |")
                lines.append("|---|---|---|---|---|")
                for finding in privacy {
                    lines.append("| " + privacyRow(finding).joined(separator: " | ") + " |")
                }
            }
            if let command = options.acceptCommand(for: result) {
                if let loss = result.acceptingLoss { lines += ["", Markdown.text("Accepting would remove " + loss)] }
                lines += ["", "To accept the new result: " + Markdown.code(command)]
            }
        }
        for result in results where !result.unsentPlanned.isEmpty {
            lines += ["", "### Planned, never sent: \(Markdown.text(result.name))", ""]
            lines += result.unsentPlanned.map { "- \(Markdown.text($0.title)) (\(Markdown.code($0.place)))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func status(_ result: SnapshotResult) -> String {
        if !result.passed { return "❌ failed" }
        return result.findings.isEmpty ? "✅ passed" : "⚠️ passed"
    }

    /// A privacy finding: the request (and event) it is about, the pointer, the masked value.
    private func privacyRow(_ finding: Finding) -> [String] {
        let code = Markdown.code(finding.code.rawValue) + (finding.severity == .warning ? " (warning)" : "")
        let request =
            finding.request.map {
                Markdown.text("#\($0.index + 1) \($0.method) ") + Markdown.code(VisibleText.line($0.url, limit: 80))
                    + ($0.event.map { Markdown.text(" event \($0 + 1)") } ?? "")
            } ?? "—"
        let path = finding.path.isEmpty ? "—" : Markdown.code(finding.path)
        let value = VisibleText.pair(nil, finding.actual).actual.map(Markdown.code) ?? "—"
        let message = finding.message.isEmpty ? "—" : Markdown.text(VisibleText.line(finding.message, limit: 200))
        return [code, request, path, value, message]
    }

    private func row(_ finding: Finding, in result: SnapshotResult) -> [String] {
        let code = Markdown.code(finding.code.rawValue) + (finding.severity == .warning ? " (warning)" : "")
        let line = finding.location.map { String($0.line) } ?? "—"
        let shown = VisibleText.pair(finding.expected, finding.actual)
        var expected = shown.expected.map(Markdown.code) ?? "—"
        var actual = shown.actual.map(Markdown.code) ?? "—"
        switch finding.code {
        case .missingEvent where shown.expected == nil:
            if let summary = result.entries.first(where: { $0.path == finding.entry })?.summary {
                expected = Markdown.text(summary)
            }
            actual = "*nothing captured*"
        case .unexpectedEvent where shown.actual == nil:
            if let request = finding.request {
                actual =
                    Markdown.text("#\(request.index + 1) \(request.method) ")
                    + Markdown.code(VisibleText.line(request.url, limit: 80))
            }
        case .missingKey where shown.actual == nil:
            actual = "*absent*"
        case .unexpectedKey where shown.expected == nil:
            expected = "*absent*"
        default:
            break
        }
        let path = finding.path.isEmpty ? "—" : Markdown.code(finding.path)
        let message = finding.message.isEmpty ? "—" : Markdown.text(VisibleText.line(finding.message, limit: 200))
        return [code, path, line, expected, actual, message]
    }
}
