import Testing
import TracksnapValidation

@testable import TracksnapReports

@Suite("report formats")
struct ReportFormatTests {
    @Test(
        "a built-in format is found by its name, in any case",
        arguments: ["text", "json", "junit", "github", "markdown", "html", "JUnit"])
    func named(name: String) {
        #expect(ReportFormat.named(name)?.name == name.lowercased())
    }

    @Test("an unknown name finds nothing")
    func unknown() {
        #expect(ReportFormat.named("pdf") == nil)
        #expect(ReportFormat.named("") == nil)
    }

    @Test("every built-in report ends with a newline, whatever the results", arguments: ReportFormat.all.map(\.name))
    func newline(name: String) throws {
        let format = try #require(ReportFormat.named(name))
        let output = format.render([Fixtures.passing, Fixtures.checkout, Fixtures.hostile])
        #expect(output.hasSuffix("\n"))
        #expect(!output.contains("\u{1B}"))
    }

    @Test("a custom format is a value built from a closure")
    func custom() {
        let names = ReportFormat(name: "names") { results, _ in results.map(\.name).joined(separator: ",") }
        #expect(names.render([Fixtures.passing, Fixtures.checkout]) == "home,checkout")
    }

    @Test("the accept command is asked for failed snapshots only")
    func accept() {
        let options = Fixtures.acceptOptions
        #expect(options.acceptCommand(for: Fixtures.passing) == nil)
        #expect(options.acceptCommand(for: Fixtures.checkout) == "tracksnap accept 'Snapshots/checkout.json'")
        #expect(ReportOptions(acceptCommand: { _ in "" }).acceptCommand(for: Fixtures.checkout) == nil)
    }
}
