import Foundation
import Testing
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Personal data found in the traffic has a section of its own in every report format, its
/// values masked (issue 31, "Seen where people look").
@Suite("The privacy section in every report")
struct PrivacyReportTests {
    static let masked = "a***@example.com"

    /// A run with a differing value and an email address in a GA4 event, masked.
    static let leaking = SnapshotResult(
        file: "Snapshots/checkout.json", name: "checkout", profile: "ga4",
        entries: [
            EntryResult(
                path: "/events/0", location: SourceLocation(line: 4, column: 5), summary: "ga4 begin_checkout",
                status: .mismatched, request: Fixtures.track)
        ],
        findings: [
            Finding(
                code: .valueMismatch, path: "/events/0/properties/value", entry: "/events/0",
                location: SourceLocation(line: 6, column: 18), expected: 12, actual: 13, message: "value differs",
                request: Fixtures.track),
            Finding(
                code: .personalData, path: "/properties/contact", actual: .string(masked),
                message: #"email: ga4 event "begin_checkout" (event 1) at /properties/contact: \#(masked)"#,
                request: Fixtures.track.event(0)),
        ],
        selected: 1, captured: 1)

    @Test("a code's category puts it in the privacy section: personal data is in it, a difference is not")
    func category() {
        #expect(FindingCode.allCases.filter { $0.category == .privacy }.contains(.personalData))
        #expect(FindingCode.valueMismatch.category == nil)
        #expect(FindingCode.Category.privacy.rawValue == "privacy")
    }

    @Test("every format shows the privacy section with the masked value", arguments: ReportFormat.all.map(\.name))
    func section(name: String) throws {
        let format = try #require(ReportFormat.named(name))
        let output = format.render([Self.leaking])
        let heading =
            switch name {
            case "text", "junit": "privacy — personal data (masked) and consent:"
            case "json": #""privacy""#
            case "github": "title=tracksnap privacy personal_data::"
            case "markdown": "#### Privacy — values masked"
            default: "<h3>Privacy</h3>"
            }
        #expect(output.contains(heading), "\(output)")
        #expect(output.contains(Self.masked), "\(output)")
    }

    @Test("the JSON report lists the privacy findings in the snapshot's privacy section, and in its findings")
    func json() throws {
        let report = try ValidationReport(json: Data(ReportFormat.json.render([Self.leaking]).utf8))
        let snapshot = try #require(report.snapshots.first)
        #expect(snapshot.privacy?.map(\.code) == ["personal_data"])
        #expect(snapshot.privacy?.first?.actual == .string(Self.masked))
        #expect(snapshot.findings.map(\.code) == ["value_mismatch", "personal_data"])
        // Additive: a snapshot without any leaves the key out.
        let clean = try ValidationReport(json: Data(ReportFormat.json.render([Fixtures.checkout]).utf8))
        #expect(clean.snapshots.first?.privacy == nil)
        #expect(!ReportFormat.json.render([Fixtures.checkout]).contains("\"privacy\""))
    }

    @Test("the Markdown summary keeps the privacy finding out of the differences' table")
    func markdownTables() {
        let output = ReportFormat.markdown.render([Self.leaking])
        let differences = output.components(separatedBy: "#### Privacy")[0]
        #expect(differences.contains("value_mismatch"), "\(output)")
        #expect(!differences.contains("personal_data"), "\(output)")
        #expect(output.contains("#8 POST") && output.contains("event 1"), "\(output)")
    }
}
