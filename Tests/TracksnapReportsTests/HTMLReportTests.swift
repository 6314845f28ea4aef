import Foundation
import Testing
import TracksnapCore
import TracksnapJSON
import TracksnapModel
import TracksnapReports
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

    @Test("a failed snapshot ends with its accept command")
    func acceptCommand() throws {
        let options = ReportOptions(acceptCommand: { "tracksnap record \($0.file) --capture s.har --mode all" })
        let html = ReportFormat.html.render([Fixtures.checkout], options: options)
        #expect(html.contains("tracksnap record Snapshots/checkout.json --capture s.har --mode all"))
    }
}
