import Foundation
import Testing
import TracksnapTestSupport

@Suite("The demo: a web shop's releases 1.4 and 1.5 checked against one snapshot", .tags(.process), .leftToMakeTest)
struct DemoTests {
    static let snapshot = "Snapshots/demo/checkout.json"
    static let release14 = "Snapshots/demo/captures/release-1.4.har"
    static let release15 = "Snapshots/demo/captures/release-1.5.har"

    @Test("release 1.4 sends what the snapshot expects: exit 0 and a ✓ line")
    func releaseOnePointFourPasses() throws {
        let run = try tracksnap("validate", Self.snapshot, "--capture", Self.release14)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix("✓ checkout (\(Self.snapshot))") })
        #expect(!run.stdout.contains("✗"))
        #expect(run.stderr.isEmpty)
    }

    @Test("release 1.5 exits 1 and the text report names each of its three mismatches")
    func releaseOnePointFiveFails() throws {
        let run = try tracksnap("validate", Self.snapshot, "--capture", Self.release15)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("✗ checkout (\(Self.snapshot))") == true)
        #expect(lines.contains { $0.contains("/requests/2") })
        #expect(
            lines.contains {
                $0.contains("/parameters/ev") && $0.contains(#""add_to_cart""#) && $0.contains(#""addToCart""#)
            })
        #expect(lines.contains { $0.contains("/requests/3") })
        #expect(lines.contains { $0.contains("count_mismatch") })
        #expect(lines.contains { $0.contains("/body/properties/currency") && $0.contains("missing_key") })
        #expect(lines.contains { $0.contains("3 findings") })
    }

    /// Which snapshot a secrets check runs: the demo's, or one whose finding is about the key.
    enum SecretCase: String, CaseIterable, Sendable {
        case demo = "the demo snapshot"
        case keyMismatch = "a snapshot expecting another write key"
    }

    @Test(
        "no report format shows the shop's write key, even where the finding is about it",
        arguments: ["text", "json", "junit", "github", "markdown"], SecretCase.allCases
    )
    func secretsStayOut(format: String, snapshot: SecretCase) throws {
        let capture = try String(contentsOf: PackagePaths.root.appending(path: Self.release15), encoding: .utf8)
        #expect(capture.contains("wk_live_"), "the demo capture carries a live write key to hide")
        try withTemporaryDirectory { directory in
            // Expecting another key makes the captured key the "actual" of a finding.
            let mismatch = directory.appending(path: "writeKey-mismatch.json")
            try write(
                """
                {
                  "requests": [
                    {
                      "body": { "event": "purchase", "writeKey": "wk_test_0" },
                      "method": "POST",
                      "url": "https://collect.acme-shop.example/v1/track"
                    }
                  ],
                  "unexpected": "allow",
                  "validator": "acme-shop"
                }
                """, to: mismatch)
            let path = snapshot == .demo ? Self.snapshot : mismatch.path
            let run = try tracksnap(
                "validate", path, "--capture", Self.release15, "--format", format, "--color", "always")
            #expect(run.status == 1)
            #expect(!run.stdout.isEmpty)
            #expect(!run.stdout.contains("wk_live_"))
            #expect(!run.stderr.contains("wk_live_"))
            if snapshot == .keyMismatch {
                #expect(run.stdout.contains("[redacted]"))
            }
        }
    }
}
