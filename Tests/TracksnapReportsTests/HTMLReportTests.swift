import Foundation
import Testing
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("HTML report")
struct HTMLReportTests {
    private func page(_ results: [SnapshotResult], options: ReportOptions = ReportOptions()) throws -> XMLDocument {
        try XMLDocument(xmlString: ReportFormat.html.render(results, options: options), options: [])
    }

    @Test("one well-formed page with a section per snapshot and a row per differing field")
    func structure() throws {
        let document = try page([Fixtures.passing, Fixtures.checkout])
        #expect(try document.nodes(forXPath: "//*[local-name()='section']").count == 2)
        let failed = try document.nodes(forXPath: "//*[local-name()='section'][@class='failed']")
        #expect(failed.count == 1)
        let cells = try document.nodes(
            forXPath: "//*[local-name()='section'][@class='failed']//*[local-name()='td'][@class='actual']"
        ).compactMap(\.stringValue)
        #expect(cells.contains("\"x-12\""))
        #expect(cells.contains("\"Order Completed·\""))
    }

    @Test("a warning is labelled as one beside its code, and an error is not")
    func warningsAreLabelled() throws {
        let document = try page([Fixtures.checkout])
        let labelled = try document.nodes(forXPath: "//*[local-name()='span'][@class='warning']/..")
            .compactMap(\.stringValue)
        #expect(labelled == ["order_mismatch warning"])
        let codes = try document.nodes(forXPath: "//*[local-name()='td'][starts-with(., 'value_mismatch')]")
        #expect(codes.compactMap(\.stringValue) == ["value_mismatch"])
    }

    @Test("captured values cannot inject markup, and the page loads nothing from elsewhere")
    func escaping() throws {
        var result = Fixtures.checkout
        result.findings[0].actual = "</td><script>alert(1)</script>"
        let html = ReportFormat.html.render([result])
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(!html.contains("src=") && !html.contains("<link"))
        _ = try page([result])
    }

    @Test("what concerns a captured request names it in data-request, vendor rules and replay misses included")
    func requestReferences() throws {
        var result = Fixtures.checkout
        result.findings += [
            Finding(
                code: .vendorRule, path: "", message: "ga4.event_name_length: 41 characters",
                request: Fixtures.stray.event(2)),
            Finding(
                code: .replayMiss, path: "", message: "the cassette has no answer for GET /api/cart",
                request: RequestReference(id: "r\"<11", index: 11, method: "GET", url: "https://shop.example/api/cart")),
        ]
        let document = try page([result])
        let ids = { (elements: String) in
            try document.nodes(forXPath: elements + "/@data-request").compactMap(\.stringValue)
        }
        #expect(try ids("//*[local-name()='details']") == ["r7"])
        #expect(try ids("//*[local-name()='tr'][@data-request]").count == 5)
        #expect(try Set(ids("//*[local-name()='li'][@data-request]")) == ["r9", "r\"<11"])
        let events = try document.nodes(forXPath: "//*[local-name()='li']/@data-event").compactMap(\.stringValue)
        #expect(events == ["2"], "only the rule's finding is about one event")
        let headings = try document.nodes(forXPath: "//*[local-name()='h3']").compactMap(\.stringValue)
        #expect(headings.contains("Vendor rules") && headings.contains("Replay"), "\(headings)")
        // The missing entry concerns no request.
        let missing = try document.nodes(forXPath: "//*[local-name()='li'][not(@data-request)]").compactMap(
            \.stringValue)
        #expect(missing.count == 1 && missing[0].contains("Coupon Applied"), "\(missing)")
    }

    @Test("a failed snapshot ends with its accept command")
    func acceptCommand() throws {
        let options = ReportOptions(acceptCommand: { "tracksnap record \($0.file) --capture s.har --mode all" })
        let html = ReportFormat.html.render([Fixtures.checkout], options: options)
        #expect(html.contains("tracksnap record Snapshots/checkout.json --capture s.har --mode all"))
        #expect(
            html.contains(
                "Accepting would remove 1 expected entry that nothing captured matched: /events/2 segment Coupon Applied (line 25)"
            ))
    }
}
