import Foundation
import FoundationEssentials
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapReports

@Suite("text report")
struct TextReportTests {
    let plain = ReportFormat.text.render([Fixtures.passing, Fixtures.checkout], options: Fixtures.acceptOptions)
    var lines: [String] { plain.components(separatedBy: "\n") }

    @Test("a header line per snapshot says whether it passed and what was expected and captured")
    func headers() {
        #expect(lines.contains("✓ home (Snapshots/home.json) — 1 expected, 1 captured (of 3 requests)"))
        #expect(
            lines.contains(
                "✗ checkout (Snapshots/checkout.json) — 3 expected, 4 captured (of 11 requests), 7 findings, 1 of them a warning"
            ))
    }

    @Test("a near miss names its entry and the captured request it was paired with")
    func entryLine() {
        #expect(lines.contains("  /events/1  segment Order Completed  (line 14) ↔ captured #8"))
    }

    @Test("a near miss shows all its differing fields side by side in aligned columns")
    func sideBySide() throws {
        let header = try #require(lines.firstIndex { $0.hasPrefix("      field") })
        let rows = Array(lines[header...].prefix { $0.hasPrefix("      ") && !$0.contains(": ") })
        #expect(rows.count == 5)  // the heading and four fields with values
        let name = try #require(rows.first { $0.contains("/name") })
        let pattern = try #require(rows.first { $0.contains("/properties/order_id") })
        let currency = try #require(rows.first { $0.contains("/properties/currency") })
        let coupon = try #require(rows.first { $0.contains("/properties/coupon") })
        #expect(name.contains("\"Order Completed\""))
        #expect(name.contains("\"Order Completed·\""))
        #expect(name.contains("value_mismatch") && name.hasSuffix("line 15"))
        #expect(pattern.contains(#"{"$regex":"o-[0-9]+"}"#) && pattern.contains("\"x-12\""))
        #expect(currency.contains("\"EUR\"") && currency.contains("(absent)"))
        #expect(coupon.contains(#"{"$type":"string"}"#) && coupon.contains("null"))

        // Each column starts at the same offset on every row.
        func column(_ row: String, _ text: String) -> Int? {
            row.range(of: text).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
        }
        let expectedColumn = try #require(column(rows[0], "expected"))
        let actualColumn = try #require(column(rows[0], "actual"))
        #expect(column(name, "\"Order Completed\"") == expectedColumn)
        #expect(column(pattern, "{\"$regex\"") == expectedColumn)
        #expect(column(name, "\"Order Completed·\"") == actualColumn)
        #expect(column(pattern, "\"x-12\"") == actualColumn)
        #expect(column(currency, "(absent)") == actualColumn)
        #expect(column(name, "value_mismatch") == column(pattern, "pattern_mismatch"))
    }

    @Test("a finding without values is a note under its entry")
    func note() {
        #expect(lines.contains("      (entry): captured before Checkout Started  warning: order_mismatch  line 14"))
    }

    @Test("entry differences come first, then missing entries, then unexpected traffic")
    func sections() throws {
        let entry = try #require(lines.firstIndex { $0.contains("↔ captured #8") })
        let missing = try #require(lines.firstIndex { $0.hasPrefix("  missing") })
        let unexpected = try #require(lines.firstIndex { $0.hasPrefix("  unexpected") })
        #expect(entry < missing && missing < unexpected)
        #expect(lines[missing + 1] == "    /events/2  segment Coupon Applied  (line 25)")
        #expect(
            lines[unexpected + 1]
                == "    captured #10  POST https://api.segment.io/v1/page  unexpected event segment \"Cart Viewed\"")
    }

    @Test("the summary counts snapshots and findings, and a failed snapshot gets its accept command")
    func summary() throws {
        let summary = try #require(lines.firstIndex { $0.hasPrefix("2 snapshots:") })
        #expect(lines[summary] == "2 snapshots: 1 passed, 1 failed (7 findings, 1 of them a warning)")
        #expect(lines[summary - 1].isEmpty)
        #expect(
            lines[summary + 1]
                == "Accepting would remove 1 expected entry that nothing captured matched: /events/2 segment Coupon Applied (line 25)"
        )
        #expect(lines[summary + 2] == "To accept the new result: tracksnap accept 'Snapshots/checkout.json'")
        #expect(!plain.contains("tracksnap accept 'Snapshots/home.json'"))
        #expect(plain.hasSuffix("\n"))
    }

    @Test("a failure where only the entries' order differs says to write \"order\": \"any\", not to accept it")
    func onlyOrder() {
        var swapped = Fixtures.passing
        swapped.findings = [
            Finding(
                code: .orderMismatch, path: "/events/0", entry: "/events/0",
                message: "captured as request #2, out of the expected order")
        ]
        let text = ReportFormat.text.render([swapped], options: Fixtures.acceptOptions)
        #expect(!text.contains("To accept"), "\(text)")
        #expect(text.contains(#"write "order": "any" in Snapshots/home.json instead of re-recording"#), "\(text)")
    }

    @Test("a passing run is one line per snapshot and a summary")
    func passingRun() {
        let text = ReportFormat.text.render([Fixtures.passing, Fixtures.passing], options: Fixtures.acceptOptions)
        #expect(
            text.components(separatedBy: "\n") == [
                "✓ home (Snapshots/home.json) — 1 expected, 1 captured (of 3 requests)",
                "✓ home (Snapshots/home.json) — 1 expected, 1 captured (of 3 requests)",
                "",
                "2 snapshots: 2 passed, 0 failed (0 findings)",
                "",
            ])
    }

    @Test("without colour there are no escape codes; with colour the same text is painted")
    func colour() {
        let coloured = ReportFormat.text.render(
            [Fixtures.passing, Fixtures.checkout],
            options: ReportOptions(color: true, acceptCommand: Fixtures.acceptOptions.acceptCommand)
        )
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[1;31m✗\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;32m✓\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[32m\"Order Completed\"\u{1B}[0m"))
        #expect(strippingANSI(coloured) == plain)
    }

    @Test("escape sequences in captured data cannot reach the terminal")
    func hostileText() {
        let text = ReportFormat.text.render([Fixtures.hostile], options: ReportOptions(color: false))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{0}"))
        #expect(text.contains("esc⟨U+001B⟩[31m"))
        #expect(text.contains("      (entry): seen twice⟨U+001B⟩[2J\\nclear screen  count_mismatch\n"))
    }

    @Test(
        "a difference made only of an invisible character is visible",
        arguments: [
            ("Order Completed", "Order Completed ", "\"Order Completed·\""),
            ("Order Completed", " Order Completed", "\"·Order Completed\""),
            ("Order Completed", "Order\u{00A0}Completed", "\"Order⟨U+00A0⟩Completed\""),
            ("Order Completed", "Order\u{200B} Completed", "\"Order⟨U+200B⟩ Completed\""),
            ("Order Completed", "Order\tCompleted", "\"Order\\tCompleted\""),
            ("Order Completed", "\u{FEFF}Order Completed", "\"⟨U+FEFF⟩Order Completed\""),
            ("Order Completed", "Order·Completed", "\"Order⟨U+00B7⟩Completed\""),
        ])
    func invisible(expected: String, actual: String, shown: String) throws {
        let text = ReportFormat.text.render([Fixtures.invisible(expected: expected, actual: actual)])
        let row = try #require(text.components(separatedBy: "\n").first { $0.contains("/parameters/ev") })
        #expect(row.contains(shown))
        #expect(row.contains("\"Order Completed\""))
    }

    @Test("findings of an entry the entry list does not name, or of no entry, still get a block")
    func orphans() {
        var result = Fixtures.passing
        result.findings = [
            Finding(
                code: .countMismatch, path: "", entry: nil, expected: 3, actual: 4, message: "4 events, 3 expected"),
            Finding(
                code: .valueMismatch, path: "/events/9/name", entry: "/events/9", expected: "a", actual: "b",
                message: "name differs"),
            Finding(code: .countMismatch, path: "/events/9", entry: "/events/9", message: "captured twice"),
        ]
        let lines = ReportFormat.text.render([result]).components(separatedBy: "\n")
        #expect(lines[1] == "  (snapshot)")
        #expect(lines[2] == "      (snapshot): 4 events, 3 expected  count_mismatch")
        #expect(lines[3] == "  /events/9")
        #expect(lines[5].hasPrefix("      /name  \"a\"  ") && lines[5].contains("\"b\""))
        #expect(lines[6] == "      (entry): captured twice  count_mismatch")
    }
}
