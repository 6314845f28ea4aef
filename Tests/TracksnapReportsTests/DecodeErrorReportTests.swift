import Foundation
import Testing
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@Suite("decode_error in the JSON report")
struct DecodeErrorReportTests {
    static let result = SnapshotResult(
        file: "Snapshots/mixpanel.json", name: "mixpanel", profile: "mixpanel", entries: [],
        findings: [
            Finding(
                code: .decodeError, path: "/events", location: SourceLocation(line: 3, column: 13),
                message: "request #1 POST https://api.mixpanel.com/track: mixpanel: data is neither base64 nor JSON",
                request: RequestReference(id: "1", index: 0, method: "POST", url: "https://api.mixpanel.com/track"))
        ],
        selected: 1, captured: 1)

    @Test("a report with a decode_error conforms to Schemas/report.schema.json")
    func conforms() throws {
        let schema = try ParsedJSON.parse(String(contentsOf: JSONReportTests.schemaURL, encoding: .utf8))
        let report = try ParsedJSON.parse(ReportFormat.json.render([Self.result]))
        #expect(report["findings"]?.array.first?["code"] == .string("decode_error"))
        #expect(SchemaCheck(root: schema).violations(of: report) == [])
    }

    @Test("the schema still rejects a code it does not list")
    func unknownCode() throws {
        let schema = try ParsedJSON.parse(String(contentsOf: JSONReportTests.schemaURL, encoding: .utf8))
        let text = ReportFormat.json.render([Self.result]).replacingOccurrences(
            of: "\"decode_error\"", with: "\"decoding_error\"")
        #expect(!SchemaCheck(root: schema).violations(of: try ParsedJSON.parse(text)).isEmpty)
    }
}
