import Foundation
import Testing
import TracksnapCapture
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@Suite("The client reads the JSON report the CLI and server write")
struct ValidationReportTests {
    @Test("every field of ReportFormat.json's output is read back")
    func roundTrip() throws {
        let result = try Validation.validate(
            snapshotAt: fixture("Snapshots/checkout.json"), requests: checkoutRequests(screen: "Basket"),
            workspace: Workspace(validators: fixture("Validators")))
        let json = ReportFormat.json.render([result])
        let report = try ValidationReport(json: Data(json.utf8))

        #expect(report.version == 1)
        #expect(report.passed == result.passed)
        #expect(report.json == json)
        let snapshot = try #require(report.snapshots.first)
        #expect(snapshot.file == result.file)
        #expect(snapshot.profile == result.profile)
        #expect(snapshot.selected == result.selected)
        #expect(snapshot.captured == result.captured)
        #expect(snapshot.entries.map(\.status) == result.entries.map(\.status.rawValue))
        #expect(snapshot.entries.map(\.line) == result.entries.map { $0.location?.line })
        #expect(report.findings.count == result.findings.count)
        for (read, finding) in zip(report.findings, result.findings) {
            #expect(read.code == finding.code.rawValue)
            #expect(read.path == finding.path)
            #expect(read.line == finding.location?.line)
            #expect(read.expected == finding.expected)
            #expect(read.actual == finding.actual)
            #expect(read.message == finding.message)
            #expect(read.request?.index == finding.request?.index)
            #expect(read.snapshot == result.file)
        }
    }

    @Test("a report missing a required member is an error naming it")
    func missingMember() {
        let error = #expect(throws: (any Error).self) {
            try ValidationReport(
                json: Data(#"{"version":1,"passed":true,"snapshots":[{"file":"a.json"}],"findings":[]}"#.utf8))
        }
        #expect(String(describing: error).contains("/snapshots/0/name"))
    }
}
