import Foundation
import Testing
import TracksnapTestSupport

@Suite("Szimpla snapshots and NDJSON captures through the command line", .tags(.process), .leftToMakeTest)
struct SzimplaAndNDJSONTests {
    static let szimpla = PackagePaths.fixtures.appending(path: "szimpla/checkout.json").path
    static let browse = PackagePaths.fixtures.appending(path: "captures/checkout-browse.ndjson").path
    static let buy = PackagePaths.fixtures.appending(path: "captures/checkout-buy.ndjson").path

    @Test("a tracksnap snapshot passes against NDJSON captures given in the order they were taken")
    func ndjsonInOrder() throws {
        let run = try tracksnap("validate", DemoTests.snapshot, "--capture", Self.browse, "--capture", Self.buy)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("✓ checkout"))
    }

    @Test("captures are joined in the order given: swapped, the snapshot's strict order fails")
    func ndjsonSwapped() throws {
        let run = try tracksnap("validate", DemoTests.snapshot, "--capture", Self.buy, "--capture", Self.browse)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("order_mismatch"))
    }

    @Test(
        "a Szimpla snapshot, whose strings are patterns, passes against the traffic it describes",
        arguments: [[browse, buy], [DemoTests.release14]]
    )
    func szimplaPasses(captures: [String]) throws {
        let run = try tracksnap(
            arguments: ["validate", Self.szimpla, "--validator", "acme-shop"] + captures.flatMap { ["--capture", $0] })
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("✓ checkout"))
    }

    @Test("a Szimpla snapshot reports release 1.5's renamed event on the line of the URL that carries it")
    func szimplaFails() throws {
        let run = try tracksnap(
            "validate", Self.szimpla, "--validator", "acme-shop", "--capture", DemoTests.release15, "--format", "json")
        #expect(run.status == 1, "\(run.stderr)")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = try #require(top["findings"] as? [[String: Any]])
        let renamed = try #require(findings.first { $0["path"] as? String == "/2/parameters/ev" })
        #expect(renamed["code"] as? String == "pattern_mismatch")
        #expect(renamed["actual"] as? String == "addToCart")
        // The query item has no place of its own: it is reported where its URL is written.
        let url = try #require(
            try SourceText(path: Self.szimpla).location(of: "\"https://collect.acme-shop.example/v1/e?ev=add_to_cart"))
        #expect(renamed["line"] as? Int == url.line)
        #expect(renamed["column"] as? Int == url.column)
        #expect(
            findings.contains {
                $0["path"] as? String == "/4/body/properties/currency" && $0["code"] as? String == "missing_key"
            })
    }

    @Test("validate tells a Szimpla string that is not a valid pattern at its line and column, as lint does")
    func szimplaWarningLocated() throws {
        try withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "s.json").path
            try "[\n  {\n    \"url\": \"http://t.example/e(\",\n    \"method\": \"GET\"\n  }\n]\n".write(
                toFile: snapshot, atomically: true, encoding: .utf8)
            let capture = directory.appending(path: "run.ndjson").path
            try #"{"method":"GET","url":"http://t.example/e("}"#.write(
                toFile: capture, atomically: true, encoding: .utf8)
            let lint = try tracksnap("lint", snapshot)
            let warning = "s.json:3:12: warning: \"http://t.example/e(\" is not a valid pattern"
            #expect(lint.stdout.contains(warning) || lint.stderr.contains(warning), "\(lint.stdout)\(lint.stderr)")
            let run = try tracksnap("validate", snapshot, "--capture", capture)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains(warning), "\(run.stderr)")
        }
    }

    @Test("a Szimpla snapshot without a profile uses the default one, which expects every captured request")
    func szimplaDefaultProfile() throws {
        let run = try tracksnap(
            "validate", Self.szimpla, "--capture", Self.browse, "--capture", Self.buy, "--format", "json")
        #expect(run.status == 1, "\(run.stderr)")
        let top = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let snapshots = try #require(top["snapshots"] as? [[String: Any]])
        #expect(snapshots.first?["profile"] as? String == "default")
        let findings = try #require(top["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["code"] as? String == "unexpected_event" })
    }

    @Test(
        "a Szimpla entry whose url query and parameters give one key two values that cannot both hold is warned at both lines; a pattern that accepts the other value is not"
    )
    func contradictoryParameters() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "screens.json")
            // As Szimpla's own example app fixture has it.
            let text = """
                [
                  {
                    "url": "https://example.com/screens?name=vamonos",
                    "parameters": { "name": "quedamonOS" },
                    "body": null
                  },
                  {
                    "url": "https://example.com/screens?name=vam.*",
                    "parameters": { "name": "vamonos" },
                    "body": null
                  }
                ]

                """
            try text.write(to: file, atomically: true, encoding: .utf8)
            let run = try tracksnap("lint", file.path)
            let warnings = run.stdout.split(separator: "\n").filter { $0.contains("can never pass") }
            #expect(warnings.count == 2, "\(run.stdout)")
            #expect(warnings.contains { $0.hasPrefix("\(file.path):3:12: warning:") }, "\(run.stdout)")
            #expect(warnings.contains { $0.hasPrefix("\(file.path):4:29: warning:") }, "\(run.stdout)")
            #expect(
                warnings.allSatisfy {
                    $0.contains(#"parameter "name" is "vamonos" in the url's query and "quedamonOS""#)
                })
            #expect(try tracksnap("lint", "--strict", file.path).status != 0)
        }
    }
}
