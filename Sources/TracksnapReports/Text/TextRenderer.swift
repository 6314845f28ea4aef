import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Lays out the text report: a header per snapshot, findings grouped by the expected entry they
/// belong to with field differences side by side, then missing entries, then unexpected traffic.
struct TextRenderer {
    let painter: Painter
    let options: ReportOptions

    init(options: ReportOptions) {
        self.options = options
        self.painter = Painter(enabled: options.color)
    }

    func render(_ results: [SnapshotResult]) -> String {
        var lines: [String] = []
        for result in results {
            let block = snapshotLines(result)
            lines += block
            if block.count > 1 { lines.append("") }
        }
        if lines.last.map({ !$0.isEmpty }) ?? false { lines.append("") }
        lines.append(summary(results))
        for result in results {
            if let command = options.acceptCommand(for: result) {
                if let loss = result.acceptingLoss { lines.append(painter(.yellow, "Accepting would remove " + loss)) }
                lines.append("To accept the new result: " + painter(.bold, command))
            } else if !result.passed, result.onlyOrderDiffers {
                lines.append(SnapshotResult.orderAdvice(file: result.file))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One snapshot: its header, then its findings.
    func snapshotLines(_ result: SnapshotResult) -> [String] {
        var lines = [header(result)]
        let groups = FindingGroups(result)
        for block in groups.entries {
            lines += entryLines(block)
        }
        if !groups.missing.isEmpty {
            lines.append("  " + painter(.yellow, "missing") + painter(.dim, " — expected, nothing captured matched:"))
            for finding in groups.missing {
                lines.append("    " + missingLine(finding, entry: groups.entry(finding.entry)))
            }
        }
        if !groups.unexpected.isEmpty {
            lines.append(
                "  " + painter(.yellow, "unexpected") + painter(.dim, " — captured, matched no expected entry:"))
            for finding in groups.unexpected {
                lines.append("    " + unexpectedLine(finding))
            }
        }
        for (findings, title, note) in [
            (groups.rules, "vendor rules", " — what the vendor drops or refuses:"),
            (groups.replayMisses, "replay", " — requests the cassette had no answer for:"),
            (groups.plan, "tracking plan", " — events the plan lacks or refuses:"),
            (groups.privacy, "privacy", " — personal data (masked) and consent:"),
        ] where !findings.isEmpty {
            lines.append("  " + painter(.yellow, title) + painter(.dim, note))
            for finding in findings {
                lines.append("    " + unexpectedLine(finding))
            }
        }
        if !result.unsentPlanned.isEmpty {
            lines.append(
                "  " + painter(.yellow, "planned, never sent")
                    + painter(.dim, " — the plan's events this run did not reach:"))
            for planned in result.unsentPlanned {
                lines.append(
                    "    " + VisibleText.inline(planned.title) + "  "
                        + painter(.dim, "(\(VisibleText.inline(planned.place)))"))
            }
        }
        return lines
    }

    private func header(_ result: SnapshotResult) -> String {
        let mark = result.passed ? painter(.boldGreen, "✓") : painter(.boldRed, "✗")
        var counts: String
        if let events = result.events {
            // Events are counted as events: one request may carry a whole batch.
            counts =
                "\(result.entries.count) expected, \(events) event\(events == 1 ? "" : "s") captured in \(result.selected) request\(result.selected == 1 ? "" : "s")"
            if result.captured != result.selected { counts += " (of \(result.captured))" }
        } else {
            counts = "\(result.entries.count) expected, \(result.selected) captured"
            if result.captured != result.selected { counts += " (of \(result.captured) requests)" }
        }
        if !result.findings.isEmpty {
            let count = plural(result.findings.count, "finding")
            counts += ", " + painter(result.passed ? .yellow : .red, count + ofThemWarnings(result.findings))
        }
        return
            "\(mark) \(painter(.bold, VisibleText.inline(result.name))) (\(VisibleText.inline(result.file))) — \(counts)"
    }

    private func entryLines(_ block: FindingGroups.EntryBlock) -> [String] {
        var title = "  " + painter(.cyan, block.path.isEmpty ? "(snapshot)" : VisibleText.inline(block.path))
        if let summary = block.entry?.summary { title += "  " + painter(.bold, VisibleText.inline(summary)) }
        if let line = block.entry?.location?.line { title += "  " + painter(.dim, "(line \(line))") }
        if let request = block.request { title += " ↔ captured #\(request.index + 1)" }
        var lines = [title]

        var table = TextTable()
        var notes: [String] = []
        for finding in block.findings {
            let field = relativePath(finding.path, entry: block.path)
            let code = tag(for: finding)
            let line = finding.location.map { "line \($0.line)" } ?? ""
            // A finding about the entry as a whole (a count, the order) reads best as its message.
            if finding.expected == nil && finding.actual == nil || finding.path == block.path {
                notes.append(
                    "      \(field): \(VisibleText.inline(finding.message))  " + painter(code.style, code.plain)
                        + (line.isEmpty ? "" : "  " + painter(.dim, line)))
                continue
            }
            if table.rows.isEmpty {
                table.append([.init("field", .dim), .init("expected", .dim), .init("actual", .dim)])
            }
            let shown = VisibleText.pair(finding.expected, finding.actual)
            table.append([
                .init(field),
                shown.expected.map { .init($0, .green) } ?? .init("(absent)", .dim),
                shown.actual.map { .init($0, .red) } ?? .init("(absent)", .dim),
                .init(code.plain, code.style),
                .init(line, .dim),
            ])
        }
        lines += table.lines(indent: "      ", painter: painter)
        lines += notes
        return lines
    }

    private func missingLine(_ finding: Finding, entry: EntryResult?) -> String {
        var line = painter(.cyan, finding.entry ?? finding.path)
        if let summary = entry?.summary { line += "  " + painter(.bold, VisibleText.inline(summary)) }
        if let number = (entry?.location ?? finding.location)?.line { line += "  " + painter(.dim, "(line \(number))") }
        if finding.severity == .warning { line += "  " + painter(.yellow, "warning") }
        return line
    }

    private func unexpectedLine(_ finding: Finding) -> String {
        var line = ""
        if let request = finding.request {
            line =
                "captured #\(request.index + 1)  \(VisibleText.inline(request.method)) \(VisibleText.line(request.url, limit: 100))"
        }
        let message = VisibleText.inline(finding.message)
        if !message.isEmpty { line += (line.isEmpty ? "" : "  ") + painter(.dim, message) }
        if finding.severity == .warning { line += "  " + painter(.yellow, "warning") }
        return line
    }

    private struct Tag {
        var plain: String
        var style: Painter.Style
    }

    private func tag(for finding: Finding) -> Tag {
        finding.severity == .warning
            ? Tag(plain: "warning: " + finding.code.rawValue, style: .yellow)
            : Tag(plain: finding.code.rawValue, style: .dim)
    }

    func summary(_ results: [SnapshotResult]) -> String {
        let failed = results.filter { !$0.passed }.count
        let findings = results.reduce(0) { $0 + $1.findings.count }
        let text =
            "\(plural(results.count, "snapshot")): \(results.count - failed) passed, \(failed) failed"
            + " (\(plural(findings, "finding"))\(ofThemWarnings(results.flatMap(\.findings))))"
        return painter(failed == 0 ? .green : .boldRed, text)
    }
}

/// A finding's path relative to its entry (`/properties/name`), `(entry)` for the entry itself.
func relativePath(_ path: String, entry: String) -> String {
    if path == entry { return entry.isEmpty ? "(snapshot)" : "(entry)" }
    if !entry.isEmpty, path.hasPrefix(entry + "/") { return VisibleText.inline(String(path.dropFirst(entry.count))) }
    return VisibleText.inline(path)
}

/// `, 1 of them a warning`, `, 2 of them warnings`, or nothing: a total that counts warnings
/// must say so, since they do not fail a snapshot.
func ofThemWarnings(_ findings: [Finding]) -> String {
    let warnings = findings.filter { $0.severity == .warning }.count
    switch warnings {
    case 0: return ""
    case 1: return ", 1 of them a warning"
    default: return ", \(warnings) of them warnings"
    }
}

/// `1 finding`, `2 findings`.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
