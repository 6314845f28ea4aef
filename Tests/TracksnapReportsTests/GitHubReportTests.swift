import Foundation
import FoundationEssentials
import Testing
import TracksnapSnapshot
import TracksnapValidation

@testable import TracksnapReports

/// A workflow command read back the way the runner reads it.
struct ParsedCommand: Equatable {
    var name: String
    var properties: [String: String]
    var message: String

    init?(_ line: String) {
        guard line.hasPrefix("::"), let end = line.dropFirst(2).range(of: "::") else { return nil }
        let head = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]
        message = Self.unescape(String(line[end.upperBound...]))
        let parts = head.split(separator: " ", maxSplits: 1)
        name = String(parts.first ?? "")
        properties = [:]
        for pair in parts.dropFirst().first?.split(separator: ",") ?? [] {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { properties[String(kv[0])] = Self.unescape(String(kv[1])) }
        }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
            .replacingOccurrences(of: "%25", with: "%")
    }
}

@Suite("GitHub annotations")
struct GitHubReportTests {
    func commands(_ results: [SnapshotResult]) -> [ParsedCommand?] {
        ReportFormat.github.render(results).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            ParsedCommand(String($0))
        }
    }

    @Test("each finding annotates its snapshot file's line and column, titled with its code")
    func annotations() throws {
        let parsed = commands([Fixtures.passing, Fixtures.checkout])
        #expect(parsed.count == Fixtures.checkout.findings.count)
        let first = try #require(parsed.first ?? nil)
        #expect(first.name == "error")
        #expect(
            first.properties == [
                "file": "Snapshots/checkout.json", "line": "15", "col": "15", "title": "tracksnap value_mismatch",
            ])
        #expect(
            first.message
                == "name differs\nexpected: \"Order Completed\"\nactual:   \"Order Completed·\"\ncaptured #8: POST https://api.segment.io/v1/track"
        )
        // The warning comes after every error; an unexpected request has no line of its own.
        #expect(parsed.last??.name == "warning")
        let unexpected = try #require(parsed.first { $0?.properties["title"] == "tracksnap unexpected_event" } ?? nil)
        #expect(unexpected.properties["line"] == nil && unexpected.properties["file"] == "Snapshots/checkout.json")
    }

    @Test("a finding without a position of its own points at its entry's line")
    func entryFallback() throws {
        let hostile = commands([Fixtures.hostile])
        let extra = try #require(hostile[1])
        #expect(extra.properties["line"] == nil)  // the entry has no location either
        var located = Fixtures.checkout
        located.findings[0].location = nil
        let first = try #require(commands([located]).first ?? nil)
        #expect(first.properties["line"] == "14" && first.properties["col"] == "5")
    }

    @Test("percent signs, line breaks, colons and commas are escaped and come back intact")
    func hostile() throws {
        let text = ReportFormat.github.render([Fixtures.hostile])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=Snapshots/we%2Cird%3A 100%25.json,") })
        let first = try #require(ParsedCommand(String(lines[0])))
        #expect(first.properties["file"] == Fixtures.hostile.file)
        #expect(first.message.hasPrefix("50% off\\nsecond line, really: yes\\r⟨U+0000⟩</failure>]]>\nexpected: "))
        #expect(!text.contains("\r") && !text.contains("\u{1B}"))
    }

    @Test(
        "at most ten annotations: past ten findings, nine and a count of the rest",
        arguments: [
            (1, 0, 1, false), (10, 0, 10, false), (11, 0, 10, true), (25, 4, 10, true), (3, 7, 10, false),
        ])
    func limit(errors: Int, warnings: Int, lines: Int, counted: Bool) throws {
        let parsed = commands([Fixtures.many(errors: errors, warnings: warnings)])
        #expect(parsed.count == lines)
        #expect(parsed.allSatisfy { $0 != nil })
        let last = try #require(parsed.last ?? nil)
        #expect(last.message.hasPrefix("… and \(errors + warnings - 9) more finding") == counted)
        // Errors are never hidden behind warnings.
        let shown = parsed.compactMap { $0 }.filter { $0.properties["line"] != nil }
        let shownErrors = shown.filter { $0.name == "error" }.count
        #expect(shownErrors == min(errors, counted ? 9 : 10))
    }

    @Test("nothing is printed when there are no findings")
    func quiet() {
        #expect(ReportFormat.github.render([Fixtures.passing]).isEmpty)
    }

    @Test(
        "escaping follows @actions/core",
        arguments: [
            ("100%", "100%25", "100%25"), ("a\nb\r", "a%0Ab%0D", "a%0Ab%0D"), ("a:b,c", "a:b,c", "a%3Ab%2Cc"),
            ("%0A", "%250A", "%250A"),
        ])
    func escaping(raw: String, data: String, property: String) {
        #expect(WorkflowCommand.escapeData(raw) == data)
        #expect(WorkflowCommand.escapeProperty(raw) == property)
    }
}

@Suite("Markdown step summary")
struct StepSummaryTests {
    /// The cells of a table row, split at pipes that are not escaped.
    func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in row {
            if character == "|", !escaped {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
            escaped = character == "\\" && !escaped
        }
        return Array(cells.dropFirst())
    }

    @Test("a table of snapshots, then each failed snapshot's findings and its accept command")
    func summary() throws {
        let markdown = ReportFormat.githubStepSummary(
            [Fixtures.passing, Fixtures.checkout], options: Fixtures.acceptOptions)
        let lines = markdown.components(separatedBy: "\n")
        #expect(lines[0] == "## tracksnap: 1 of 2 snapshots failed")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| Status |") })
        #expect(cells(lines[header + 2]) == ["✅ passed", "home", "`Snapshots/home.json`", "1", "1", "0"])
        #expect(cells(lines[header + 3]) == ["❌ failed", "checkout", "`Snapshots/checkout.json`", "3", "4", "7"])
        let section = try #require(lines.firstIndex(of: "### ❌ failed checkout"))
        #expect(cells(lines[section + 2]) == ["Code", "Path", "Line", "Expected", "Actual", "Message"])
        let rows = lines[(section + 4)...].prefix { $0.hasPrefix("|") }
        #expect(rows.count == Fixtures.checkout.findings.count)
        #expect(rows.allSatisfy { cells($0).count == 6 })
        #expect(
            cells(rows[rows.startIndex]) == [
                "`value_mismatch`", "`/events/1/name`", "15", "`\"Order Completed\"`", "`\"Order Completed·\"`",
                "name differs",
            ])
        #expect(cells(rows[rows.startIndex + 2])[4] == "*absent*")
        #expect(cells(rows[rows.startIndex + 5])[3..<5] == ["segment Coupon Applied", "*nothing captured*"])
        #expect(cells(rows[rows.startIndex + 4])[5] == "captured before Checkout Started")
        #expect(markdown.contains("To accept the new result: `tracksnap accept 'Snapshots/checkout.json'`"))
        #expect(
            markdown.contains(
                "Accepting would remove 1 expected entry that nothing captured matched: /events/2 segment Coupon Applied (line 25)"
            ))
        #expect(
            ReportFormat.markdown.render([Fixtures.passing, Fixtures.checkout], options: Fixtures.acceptOptions)
                == markdown)
    }

    @Test("pipes, backticks and markup in data cannot break the table")
    func hostile() throws {
        let lines = ReportFormat.githubStepSummary([Fixtures.hostile]).components(separatedBy: "\n")
        let rows = lines.filter { $0.hasPrefix("| `") }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { cells($0).count == 6 })
        #expect(lines.contains { $0.hasPrefix("### ❌ failed a\\<") && $0.contains("\\|\\*x\\*") })
        #expect(cells(rows[2])[5] == "seen twice⟨U+001B⟩\\[2J\\\\nclear screen")
        #expect(cells(rows[0])[4] == "``\"nul⟨U+0000⟩bell⟨U+0007⟩esc⟨U+001B⟩[31m\\|`tick`\"``")
    }

    @Test(
        "a code span fence is longer than any run of backticks inside",
        arguments: [
            ("a", "`a`"), ("a`b", "``a`b``"), ("``x", "``` ``x ```"), ("a|b", "`a\\|b`"), ("", "—"),
        ])
    func codeSpan(raw: String, markdown: String) {
        #expect(Markdown.code(raw) == markdown)
    }
}
