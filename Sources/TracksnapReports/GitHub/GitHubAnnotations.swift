import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// Writes findings as `::error` and `::warning` workflow commands on the snapshot's lines.
struct GitHubAnnotations {
    /// GitHub shows at most 10 error annotations of a step; the rest would be lost silently.
    static let limit = 10

    func render(_ results: [SnapshotResult]) -> String {
        var all: [(finding: Finding, result: SnapshotResult)] = []
        for result in results {
            all += result.findings.map { ($0, result) }
        }
        // Errors first, each kind in snapshot order: the cap must not hide an error behind warnings.
        let ordered = all.filter { $0.finding.severity == .error } + all.filter { $0.finding.severity == .warning }
        let shown = ordered.count <= Self.limit ? ordered[...] : ordered.prefix(Self.limit - 1)
        var lines = shown.map { annotation($0.finding, in: $0.result).line }
        if shown.count < ordered.count {
            let rest = ordered.count - shown.count
            lines.append(
                WorkflowCommand(
                    name: "error", properties: [("title", "tracksnap")],
                    message: "… and \(plural(rest, "more finding")) (see the step summary or the full report)"
                ).line)
        }
        // Coverage as notices, on the plan's lines: they fail nothing and count against no cap of errors.
        for result in results {
            for planned in result.unsentPlanned {
                var properties: [(key: String, value: String)] = [("file", planned.file)]
                if let location = planned.location {
                    properties += [("line", String(location.line)), ("col", String(location.column))]
                }
                properties.append(("title", "tracksnap plan coverage"))
                lines.append(
                    WorkflowCommand(
                        name: "notice", properties: properties,
                        message: VisibleText.inline(planned.title) + " was planned but never sent"
                    ).line)
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    func annotation(_ finding: Finding, in result: SnapshotResult) -> WorkflowCommand {
        // A plan's finding stands on the plan's line.
        var properties: [(key: String, value: String)] = [("file", finding.file ?? result.file)]
        let entryLocation = result.entries.first { $0.path == finding.entry }?.location
        if let location = finding.location ?? entryLocation {
            properties += [("line", String(location.line)), ("col", String(location.column))]
        }
        // A finding of a section of its own says so: `tracksnap privacy personal_data`.
        let section = finding.code.category.map { $0.rawValue + " " } ?? ""
        properties.append(("title", "tracksnap " + section + finding.code.rawValue))
        // Control characters would reach the log viewer, which interprets ANSI sequences.
        var message = VisibleText.inline(finding.message)
        let shown = VisibleText.pair(finding.expected, finding.actual)
        if let expected = shown.expected { message += "\nexpected: " + expected }
        if let actual = shown.actual { message += "\nactual:   " + actual }
        if let request = finding.request {
            message += "\ncaptured #\(request.index + 1): " + VisibleText.inline("\(request.method) \(request.url)")
        }
        return WorkflowCommand(
            name: finding.severity == .error ? "error" : "warning", properties: properties, message: message)
    }
}
