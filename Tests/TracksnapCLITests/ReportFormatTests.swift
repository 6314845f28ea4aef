import Foundation
import Testing
import TracksnapTestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("validate --format: the demo's mismatches in each machine-readable form", .tags(.process), .leftToMakeTest)
struct ReportFormatTests {
    static let snapshot = DemoTests.snapshot
    static let release15 = DemoTests.release15

    /// The places in the demo snapshot that release 1.5's three findings should point at,
    /// found in the file's text so that an edit of the snapshot keeps the test honest.
    static func expectedPlaces() throws -> [String: (line: Int, column: Int)] {
        let text = try SourceText(path: snapshot)
        let ev = try #require(text.location(of: #""add_to_cart""#, after: #""ev": "#))
        let cart = try #require(text.locationOfObject(holding: #""screen": "Cart""#))
        let currency = try #require(text.location(of: #""EUR""#, after: #""currency": "#))
        return [
            "/requests/2/parameters/ev": ev,
            "/requests/3": cart,
            "/requests/4/body/properties/currency": currency,
        ]
    }

    @Test("--format json: passed is false, and each finding has its code and the line and column of its value")
    func json() throws {
        let run = try tracksnap("validate", Self.snapshot, "--capture", Self.release15, "--format", "json")
        #expect(run.status == 1, "\(run.stderr)")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(top["passed"] as? Bool == false)
        let findings = try #require(top["findings"] as? [[String: Any]])
        let codes = Dictionary(
            uniqueKeysWithValues: findings.compactMap { finding in
                (finding["path"] as? String).map { ($0, finding["code"] as? String) }
            })
        #expect(
            codes == [
                "/requests/2/parameters/ev": "value_mismatch",
                "/requests/3": "count_mismatch",
                "/requests/4/body/properties/currency": "missing_key",
            ])
        let places = try Self.expectedPlaces()
        for finding in findings {
            let path = try #require(finding["path"] as? String)
            let place = try #require(places[path])
            #expect(finding["line"] as? Int == place.line, "line of \(path)")
            #expect(finding["column"] as? Int == place.column, "column of \(path)")
            #expect(finding["snapshot"] as? String == Self.snapshot)
        }
        let byPath = Dictionary(
            uniqueKeysWithValues: findings.compactMap { f in (f["path"] as? String).map { ($0, f) } })
        #expect(byPath["/requests/2/parameters/ev"]?["expected"] as? String == "add_to_cart")
        #expect(byPath["/requests/2/parameters/ev"]?["actual"] as? String == "addToCart")
    }

    @Test("--format junit --output FILE writes well-formed XML and still prints the text report")
    func junitToFile() throws {
        try withTemporaryDirectory { directory in
            let report = directory.appending(path: "report.xml")
            let run = try tracksnap(
                "validate", Self.snapshot, "--capture", Self.release15, "--format", "junit", "--output", report.path)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("✗ checkout"))
            #expect(!run.stdout.contains("<?xml"))

            let document = try XMLDocument(data: try Data(contentsOf: report))
            let root = try #require(document.rootElement())
            #expect(root.name == "testsuites")
            #expect(root.attribute(forName: "failures")?.stringValue == "1")
            let testcases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
            #expect(testcases.map { $0.attribute(forName: "name")?.stringValue } == ["checkout"])
            let failure = try #require(testcases.first?.elements(forName: "failure").first)
            #expect(failure.attribute(forName: "message")?.stringValue?.contains("3 findings") == true)
            let body = failure.stringValue ?? ""
            for needle in ["/parameters/ev", #""addToCart""#, "count_mismatch", "missing_key"] {
                #expect(body.contains(needle), "failure body holds \(needle)")
            }
        }
    }

    @Test("--format github prints an ::error annotation on the snapshot line of each finding")
    func github() throws {
        let run = try tracksnap("validate", Self.snapshot, "--capture", Self.release15, "--format", "github")
        #expect(run.status == 1, "\(run.stderr)")
        let annotations = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        let expected = try Self.expectedPlaces().values.map(\.line).sorted()
        let lines = try annotations.map { annotation in
            let prefix = "::error file=\(Self.snapshot),line="
            #expect(annotation.hasPrefix(prefix), "\(annotation)")
            return try #require(Int(annotation.dropFirst(prefix.count).prefix { $0.isNumber }))
        }
        #expect(lines.sorted() == expected)
    }

    @Test("--format github also appends a Markdown summary to $GITHUB_STEP_SUMMARY, keeping what was there")
    func githubStepSummary() throws {
        try withTemporaryDirectory { directory in
            let summary = directory.appending(path: "summary.md")
            try write("earlier step\n", to: summary)
            let run = try tracksnap(
                "validate", Self.snapshot, "--capture", Self.release15, "--format", "github",
                environment: ["GITHUB_STEP_SUMMARY": summary.path])
            #expect(run.status == 1)
            let text = try String(contentsOf: summary, encoding: .utf8)
            #expect(text.hasPrefix("earlier step\n"))
            #expect(text.contains("## tracksnap"))
            #expect(text.contains("`missing_key`"))
            #expect(!run.stdout.contains("## tracksnap"))
        }
    }

    @Test("$GITHUB_STEP_SUMMARY set to a file not yet there: it is created; one that cannot be: stderr says why")
    func githubStepSummaryCreated() throws {
        try withTemporaryDirectory { directory in
            let summary = directory.appending(path: "summary.md")
            let run = try tracksnap(
                "validate", Self.snapshot, "--capture", Self.release15, "--format", "github",
                environment: ["GITHUB_STEP_SUMMARY": summary.path])
            #expect(run.status == 1)
            let text = try String(contentsOf: summary, encoding: .utf8)
            #expect(text.hasPrefix("## tracksnap"))

            let nowhere = directory.appending(path: "no such directory/summary.md").path
            let refused = try tracksnap(
                "validate", Self.snapshot, "--capture", Self.release15, "--format", "github",
                environment: ["GITHUB_STEP_SUMMARY": nowhere])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("GITHUB_STEP_SUMMARY"), "\(refused.stderr)")
            #expect(refused.stderr.contains(nowhere), "\(refused.stderr)")
        }
    }

    @Test(
        "--color always colours the text report; never and auto (output not a terminal) do not",
        arguments: [("always", true), ("never", false), ("auto", false)]
    )
    func color(choice: String, coloured: Bool) throws {
        let run = try tracksnap("validate", Self.snapshot, "--capture", Self.release15, "--color", choice)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\u{1B}[") == coloured)
    }
}
