import Testing
import TracksnapJSON
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

    @Test(
        "the accept command is asked for failed snapshots only, and not when recording would refuse them: a replay miss, a request that does not decode"
    )
    func accept() {
        let options = Fixtures.acceptOptions
        #expect(options.acceptCommand(for: Fixtures.passing) == nil)
        #expect(options.acceptCommand(for: Fixtures.checkout) == "tracksnap accept 'Snapshots/checkout.json'")
        #expect(ReportOptions(acceptCommand: { _ in "" }).acceptCommand(for: Fixtures.checkout) == nil)
        for code in [FindingCode.replayMiss, .decodeError] {
            var result = Fixtures.checkout
            result.findings.append(Finding(code: code, path: "", message: "request 3"))
            #expect(options.acceptCommand(for: result) == nil, "\(code)")
        }
    }
}

@Suite("tracking plans in every report")
struct PlanReportTests {
    /// A run checked against a plan: one event it refuses, and one planned event never sent.
    static let planned: SnapshotResult = {
        var result = SnapshotResult(
            file: "--plan", name: "Validators/shop.plan.json", profile: "default", entries: [],
            findings: [
                Finding(
                    code: .planViolation, path: "/properties/revenue", location: SourceLocation(line: 12, column: 23),
                    expected: ["type": "number"], actual: "12.5",
                    message:
                        #"track "Order Completed" (event 2) at /properties/revenue: type: "12.5" is not of type number"#,
                    request: RequestReference(
                        id: "1", index: 0, method: "POST", url: "https://api.segment.io/v1/batch"),
                    file: "Validators/shop.plan.json")
            ], selected: 1, captured: 1)
        result.unsentPlanned = [
            PlannedEvent(
                title: #"track "Refund Issued""#, file: "Validators/shop.plan.json",
                location: SourceLocation(line: 27, column: 17))
        ]
        result.checkedPlans = true
        return result
    }()

    @Test("every format lists the planned event never sent", arguments: ReportFormat.all.map(\.name))
    func coverage(name: String) throws {
        let format = try #require(ReportFormat.named(name))
        let output = format.render([Self.planned])
        let title = name == "html" || name == "junit" ? "track &quot;Refund Issued&quot;" : #"track "Refund Issued""#
        #expect(output.contains(title) || output.contains(#"track \"Refund Issued\""#), "\(output)")
        #expect(output.contains("27"), "\(output)")
        // Coverage alone still reaches a report that would otherwise say nothing.
        var passing = Self.planned
        passing.findings = []
        #expect(format.render([passing]).contains("Refund Issued"), "\(format.render([passing]))")
    }

    @Test("a plan's finding stands in the text report's plan section and on the plan's line in GitHub's")
    func placement() {
        let text = ReportFormat.text.render([Self.planned])
        #expect(text.contains("tracking plan — events the plan lacks or refuses:"), "\(text)")
        #expect(text.contains("planned, never sent"))
        #expect(!text.contains("(snapshot)"))
        let github = ReportFormat.github.render([Self.planned])
        #expect(github.contains("::error file=Validators/shop.plan.json,line=12,col=23,title=tracksnap plan_violation"))
        #expect(github.contains("::notice file=Validators/shop.plan.json,line=27,col=17,title=tracksnap plan coverage"))
    }
}
