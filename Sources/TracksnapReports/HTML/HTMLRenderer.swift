import TracksnapJSON
import TracksnapTraffic
import TracksnapValidation

/// One self-contained HTML page (inline CSS, no scripts, no external resources), written as
/// well-formed XHTML so any XML tool can read it too.
///
/// The inspector (`/__tracksnap/ui/`) shows a validation as this page's body, styled by the
/// same `style` (its asset `report.css`), so that a CI artifact and the live page read alike.
/// Whatever concerns one captured request carries its id in `data-request` (and, when it is
/// about one decoded event, the event's position in `data-event`), which the inspector follows
/// to put a finding beside its event.
package struct HTMLRenderer {
    let options: ReportOptions

    func render(_ results: [SnapshotResult]) -> String {
        let failed = results.filter { !$0.passed }.count
        let title =
            failed == 0 ? "tracksnap: \(results.count) passed" : "tracksnap: \(failed) of \(results.count) failed"
        var html = """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head><meta charset="utf-8"/><title>\(escape(title))</title><style>\(Self.style)</style></head>
            <body class="tracksnap-report">
            <h1>\(escape(title))</h1>
            <table class="runs"><tr><th></th><th>snapshot</th><th>file</th><th>expected</th><th>captured</th><th>findings</th></tr>

            """
        for (index, result) in results.enumerated() {
            html +=
                "<tr><td>\(mark(result))</td><td><a href=\"#s\(index)\">\(escape(result.name))</a></td><td><code>\(escape(result.file))</code></td>"
            html +=
                "<td>\(result.entries.count)</td><td>\(result.selected)</td><td>\(result.findings.count)</td></tr>\n"
        }
        html += "</table>\n"
        for (index, result) in results.enumerated() { html += section(result, id: "s\(index)") }
        return html + "</body>\n</html>\n"
    }

    private func section(_ result: SnapshotResult, id: String) -> String {
        var html = "<section id=\"\(id)\" class=\"\(result.passed ? "passed" : "failed")\">\n"
        html += "<h2>\(mark(result)) \(escape(result.name)) <code>\(escape(result.file))</code></h2>\n"
        html +=
            "<p>profile <code>\(escape(result.profile))</code>: \(result.entries.count) expected, \(result.selected) captured of \(result.captured) requests</p>\n"
        let groups = FindingGroups(result)
        for block in groups.entries {
            var heading = escape(block.path.isEmpty ? "(snapshot)" : block.path)
            if let summary = block.entry?.summary { heading += " <b>\(escape(summary))</b>" }
            if let line = block.entry?.location?.line { heading += " (line \(line))" }
            if let request = block.request { heading += " ↔ captured #\(request.index + 1)" }
            html +=
                "<details open=\"open\"\(requestAttribute(block.request))><summary>\(heading)</summary>\n<table><tr><th>field</th><th>expected</th><th>actual</th><th>code</th><th>line</th></tr>\n"
            for finding in block.findings {
                let field = finding.path == block.path ? "(entry)" : String(finding.path.dropFirst(block.path.count))
                let shown = VisibleText.pair(finding.expected, finding.actual, limit: 200)
                let expected = shown.expected ?? (finding.path == block.path ? finding.message : "(absent)")
                html +=
                    "<tr\(requestAttribute(finding.request ?? block.request))><td><code>\(escape(field))</code></td><td class=\"expected\">\(escape(expected))</td>"
                html +=
                    "<td class=\"actual\">\(escape(shown.actual ?? "(absent)"))</td><td>\(code(finding))</td><td>\(line(finding))</td></tr>\n"
            }
            html += "</table></details>\n"
        }
        html += list("Missing", groups.missing) { finding in
            "<code>\(escape(finding.path))</code> \(escape(groups.entry(finding.entry)?.summary ?? "")) \(line(finding).isEmpty ? "" : "(line \(line(finding)))")"
        }
        html += list("Unexpected", groups.unexpected) { finding in
            let request = finding.request.map { "#\($0.index + 1) \($0.method) \($0.url)" } ?? ""
            return escape(request)
                + (finding.actual.map { " <code>\(escape(VisibleText.value($0, limit: 200)))</code>" } ?? "")
        }
        for (title, findings) in [
            ("Vendor rules", groups.rules), ("Replay", groups.replayMisses), ("Tracking plan", groups.plan),
            ("Privacy", groups.privacy),
        ] {
            html += list(title, findings) { finding in
                let request = finding.request.map { "#\($0.index + 1) \($0.method) \($0.url) " } ?? ""
                return escape(request + finding.message)
            }
        }
        if !result.unsentPlanned.isEmpty {
            html += "<h3>Planned, never sent</h3>\n<ul>\n"
            html += result.unsentPlanned.map { "<li>\(escape($0.title)) <code>\(escape($0.place))</code></li>\n" }
                .joined()
            html += "</ul>\n"
        }
        if let command = options.acceptCommand(for: result) {
            if let loss = result.acceptingLoss {
                html += "<p class=\"accept\">\(escape("Accepting would remove " + loss))</p>\n"
            }
            html += "<p class=\"accept\">To accept the new result: <code>\(escape(command))</code></p>\n"
        }
        return html + "</section>\n"
    }

    private func list(_ title: String, _ findings: [Finding], item: (Finding) -> String) -> String {
        guard !findings.isEmpty else { return "" }
        return "<h3>\(title)</h3>\n<ul>\n"
            + findings.map {
                "<li\(requestAttribute($0.request))>\(item($0)) <span class=\"code\">\(code($0))</span></li>\n"
            }.joined()
            + "</ul>\n"
    }

    /// ` data-request="ID"` (and ` data-event="N"`) for what concerns a captured request (or
    /// one of its events), nothing otherwise.
    private func requestAttribute(_ request: RequestReference?) -> String {
        guard let request else { return "" }
        return " data-request=\"\(XMLEscaping.attribute(request.id))\""
            + (request.event.map { " data-event=\"\($0)\"" } ?? "")
    }

    private func line(_ finding: Finding) -> String { finding.location.map { String($0.line) } ?? "" }
    /// The finding's code, and a label when it is a warning: a warning does not fail the run, and
    /// must not read as if it did.
    private func code(_ finding: Finding) -> String {
        finding.code.rawValue + (finding.severity == .warning ? " <span class=\"warning\">warning</span>" : "")
    }
    private func mark(_ result: SnapshotResult) -> String { result.passed ? "✓" : "✗" }
    private func escape(_ text: String) -> String { XMLEscaping.text(VisibleText.inline(text)) }

    /// The page's style, every rule below `.tracksnap-report`: inlined in the report, served
    /// to the inspector as `report.css`.
    package static let style = """
        .tracksnap-report{font:14px/1.45 system-ui,sans-serif;color:#1f2328}body.tracksnap-report{margin:2em}\
        .tracksnap-report table{border-collapse:collapse;margin:.5em 0}\
        .tracksnap-report th,.tracksnap-report td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top}\
        .tracksnap-report th{background:#f6f8fa}.tracksnap-report code{font:12px ui-monospace,monospace}\
        .tracksnap-report .failed h2{color:#cf222e}.tracksnap-report .passed h2{color:#1a7f37}\
        .tracksnap-report .expected{color:#1a7f37;font-family:ui-monospace,monospace}\
        .tracksnap-report .actual{color:#cf222e;font-family:ui-monospace,monospace}\
        .tracksnap-report summary{cursor:pointer;margin-top:.6em}.tracksnap-report .code{color:#57606a}\
        .tracksnap-report .accept{background:#fff8c5;padding:.5em}\
        .tracksnap-report .warning{background:#fff8c5;color:#9a6700;border-radius:3px;padding:0 .3em;font-size:12px}
        """
}
