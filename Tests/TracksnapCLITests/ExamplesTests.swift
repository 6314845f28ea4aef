import Foundation
import Testing
import TracksnapTestSupport

/// `Snapshots/examples/VENDOR.json` was recorded through the built-in profile `VENDOR` from a capture of
/// that vendor's real SDK or tag (`Snapshots/examples/captures/VENDOR.ndjson`); each must keep
/// validating against it.
@Suite("The shipped vendor examples", .tags(.process), .leftToMakeTest)
struct ExamplesTests {
    static let vendors = [
        "adjust", "amplitude", "branch", "firebase", "ga4", "meta-app", "meta-pixel", "mixpanel", "posthog",
        "rudderstack", "segment", "snowplow", "universal-analytics",
    ]

    @Test("every vendor has an example, and nothing else is there", arguments: [0])
    func complete(_: Int) throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: PackagePaths.root.appending(path: "Snapshots/examples").path)
        #expect(files.filter { $0.hasSuffix(".json") }.sorted() == Self.vendors.map { "\($0).json" })
    }

    @Test("each example validates against its capture at the event level", arguments: vendors)
    func validates(vendor: String) throws {
        let run = try tracksnap(
            "validate", "Snapshots/examples/\(vendor).json", "--capture", "Snapshots/examples/captures/\(vendor).ndjson"
        )
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(" events captured in ") || run.stdout.contains(" event captured in "), "\(run.stdout)")
    }

    @Test("a product team's edit to an example is caught, with the event named", arguments: [0])
    func editCaught(_: Int) throws {
        try withTemporaryDirectory { directory in
            let original = try String(
                contentsOf: PackagePaths.root.appending(path: "Snapshots/examples/segment.json"), encoding: .utf8)
            let edited = directory.appending(path: "segment.json")
            try write(original.replacingOccurrences(of: #""currency": "EUR""#, with: #""currency": "USD""#), to: edited)
            let run = try tracksnap(
                "validate", edited.path, "--capture", "Snapshots/examples/captures/segment.ndjson", "--validator",
                "segment")
            #expect(run.status == 1)
            #expect(run.stdout.contains("segment track Order Completed"))
            #expect(run.stdout.contains("/properties/currency"))
        }
    }
}
