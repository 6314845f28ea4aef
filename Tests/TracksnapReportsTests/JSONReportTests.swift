import Foundation
import Testing
import TracksnapSnapshot
import TracksnapValidation

@testable import TracksnapReports

@Suite("JSON report")
struct JSONReportTests {
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas/report.schema.json")

    let report: ParsedJSON

    init() throws {
        report = try ParsedJSON.parse(
            ReportFormat.json.render([Fixtures.passing, Fixtures.checkout], options: Fixtures.acceptOptions))
    }

    @Test("the document has a version, an overall verdict, the snapshots and every finding")
    func topLevel() {
        #expect(report.keys == ["version", "passed", "snapshots", "findings"])
        #expect(report["version"] == .number(1))
        #expect(report["passed"] == .bool(false))
        #expect(report["snapshots"]?.array.count == 2)
        #expect(report["findings"]?.array.count == Fixtures.checkout.findings.count)
        #expect(report["findings"]?.array.allSatisfy { $0["snapshot"] == .string("Snapshots/checkout.json") } == true)
    }

    @Test("a snapshot carries its counts, entries, findings and accept command")
    func snapshot() throws {
        let snapshots = try #require(report["snapshots"]).array
        let home = snapshots[0]
        let checkout = snapshots[1]
        #expect(home["passed"] == .bool(true) && home["acceptCommand"] == nil)
        #expect(home["selected"] == .number(1) && home["captured"] == .number(3))
        #expect(checkout["name"] == .string("checkout") && checkout["profile"] == .string("segment"))
        #expect(checkout["passed"] == .bool(false))
        #expect(checkout["acceptCommand"] == .string("tracksnap accept 'Snapshots/checkout.json'"))
        #expect(
            checkout["entries"]?.array.map { $0["status"] } == [
                .string("matched"), .string("mismatched"), .string("missing"),
            ])
        let missing = try #require(checkout["entries"]?.array.last)
        #expect(missing["line"] == .number(25) && missing["column"] == .number(5) && missing["request"] == nil)
        #expect(checkout["findings"]?.array.count == 7)
        #expect(checkout["findings"]?.array.allSatisfy { $0["snapshot"] == nil } == true)
    }

    @Test("a finding has its code, pointers, position, values and request")
    func finding() throws {
        let findings = try #require(report["findings"]).array
        let pattern = findings[1]
        #expect(pattern["code"] == .string("pattern_mismatch") && pattern["severity"] == .string("error"))
        #expect(pattern["path"] == .string("/events/1/properties/order_id") && pattern["entry"] == .string("/events/1"))
        #expect(pattern["line"] == .number(17) && pattern["column"] == .number(21))
        #expect(pattern["expected"] == .object(["$regex": .string("o-[0-9]+")]))
        #expect(pattern["actual"] == .string("x-12"))
        #expect(
            pattern["request"]
                == .object([
                    "id": .string("r7"), "index": .number(7), "method": .string("POST"),
                    "url": .string("https://api.segment.io/v1/track"),
                ]))
    }

    @Test("an absent value is omitted, a JSON null is null, unknown positions and entries are null")
    func absence() throws {
        let findings = try #require(report["findings"]).array
        let missingKey = findings[2]
        #expect(missingKey.keys.contains("expected") && !missingKey.keys.contains("actual"))
        let nullValue = findings[3]
        #expect(nullValue["actual"] == .null)
        let unexpected = findings[6]
        #expect(unexpected["entry"] == .null && unexpected["line"] == .null && unexpected["column"] == .null)
        #expect(!unexpected.keys.contains("expected") && !unexpected.keys.contains("actual"))
        let missingEvent = findings[5]
        #expect(!missingEvent.keys.contains("request"))
    }

    @Test("strings that need escaping survive the round trip")
    func hostile() throws {
        let parsed = try ParsedJSON.parse(ReportFormat.json.render([Fixtures.hostile]))
        let finding = try #require(parsed["findings"]?.array.first)
        #expect(finding["message"] == .string("50% off\nsecond line, really: yes\r\u{0}</failure>]]>"))
        #expect(finding["actual"] == .string("nul\u{0}bell\u{7}esc\u{1B}[31m|`tick`"))
        #expect(parsed["snapshots"]?.array.first?["name"] == .string(Fixtures.hostile.name))
    }

    @Test(
        "rendered reports conform to Schemas/report.schema.json",
        arguments: [
            [Fixtures.passing], [Fixtures.checkout], [Fixtures.hostile, Fixtures.many(errors: 3, warnings: 2)], [],
        ])
    func schema(results: [SnapshotResult]) throws {
        let schema = try ParsedJSON.parse(String(contentsOf: Self.schemaURL, encoding: .utf8))
        let report = try ParsedJSON.parse(ReportFormat.json.render(results, options: Fixtures.acceptOptions))
        #expect(SchemaCheck(root: schema).violations(of: report) == [])
    }

    @Test("the schema check itself catches a missing key, a wrong type and an unknown key")
    func schemaCheckWorks() throws {
        let schema = try ParsedJSON.parse(String(contentsOf: Self.schemaURL, encoding: .utf8))
        var report = try ParsedJSON.parse(ReportFormat.json.render([Fixtures.checkout]))
        guard case .object(var top) = report, case .array(var findings)? = top["findings"],
            case .object(var first) = findings[0]
        else {
            Issue.record("unexpected report shape")
            return
        }
        first["line"] = .string("15")
        first["severity"] = .string("fatal")
        first["colour"] = .bool(true)
        first["code"] = nil
        findings[0] = .object(first)
        top["findings"] = .array(findings)
        top["version"] = .number(2)
        report = .object(top)
        let violations = SchemaCheck(root: schema).violations(of: report)
        #expect(violations.count == 5)
        #expect(violations.contains("/findings/0: missing required code"))
        #expect(violations.contains("/findings/0: unexpected key colour"))
    }
}
