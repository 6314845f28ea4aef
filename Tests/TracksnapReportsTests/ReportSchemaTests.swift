import Foundation
import Testing
import TracksnapJSON
import TracksnapReports
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// `Schemas/report.schema.json` describes for other languages the report `ValidationReport` is;
/// these run the real JSON Schema validator (`Schemas/check.py`, jsonschema in the venv `make test`
/// installs) over what the writer writes.
@Suite("The report schema and the writer agree", .tags(.process), .leftToMakeTest)
struct ReportSchemaTests {
    static let python = PackagePaths.python
    static let check = PackagePaths.root.appending(path: "Schemas/check.py")

    static let runs: [[SnapshotResult]] = [
        [], [Fixtures.passing], [Fixtures.passing, Fixtures.checkout],
        [Fixtures.hostile, Fixtures.many(errors: 3, warnings: 2)],
        [DecodeErrorReportTests.result], [PlanReportTests.planned], [PrivacyReportTests.leaking],
    ]

    /// Writes each report into a directory and runs `check.py -v --report` over them.
    static func check(_ reports: [String]) async throws -> (result: ProcessResult, files: [String]) {
        try await withTemporaryDirectory { directory in
            let files = try reports.enumerated().map { index, text in
                let file = directory.appending(path: "report-\(index).json")
                try write(text, to: file)
                return file.path
            }
            return (try await runProcess(python, [check.path, "-v", "--report"] + files), files)
        }
    }

    @Test("Schemas/check.py accepts every report ReportFormat.json writes")
    func accepted() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            Issue.record("\(Self.python.path) is missing: run `make test`, which installs jsonschema there")
            return
        }
        let (result, files) = try await Self.check(
            Self.runs.map { ReportFormat.json.render($0, options: Fixtures.acceptOptions) })
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for file in files {
            #expect(result.stdout.contains("ok   \(file) is accepted"), "\(file) was not checked: \(result.stdout)")
        }
    }

    @Test("Schemas/check.py rejects a report that strays from the schema")
    func rejected() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            Issue.record("\(Self.python.path) is missing: run `make test`, which installs jsonschema there")
            return
        }
        let written = ReportFormat.json.render([Fixtures.checkout], options: Fixtures.acceptOptions)
        let strays = [
            written.replacingOccurrences(of: #""severity": "error""#, with: #""severity": "fatal""#),
            written.replacingOccurrences(of: #""selected": "#, with: #""chosen": "#),
            written.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#),
        ]
        #expect(strays.allSatisfy { $0 != written })
        let (result, files) = try await Self.check(strays)
        #expect(result.status == 1)
        for file in files {
            #expect(result.stdout.contains("FAIL \(file) is accepted"), "\(file) was accepted: \(result.stdout)")
        }
    }

    @Test("Foundation's JSONDecoder reads the report as ValidationReport(json:) does", arguments: runs)
    func foundationDecoder(results: [SnapshotResult]) throws {
        let written = Data(ReportFormat.json.render(results, options: Fixtures.acceptOptions).utf8)
        #expect(try JSONDecoder().decode(ValidationReport.self, from: written) == ValidationReport(json: written))
    }

    @Test("the client's model keeps every member the writer writes", arguments: runs)
    func roundTrip(results: [SnapshotResult]) throws {
        let written = ReportFormat.json.render(results, options: Fixtures.acceptOptions)
        let decoded = try ValidationReport(json: Data(written.utf8))
        // Encoded again from the decoded members alone: a member the model lacked would be missing here.
        let encoded = try JSONValueCoder.encode(decoded).serialized(pretty: true) + "\n"
        #expect(encoded == written)
    }
}
