import Foundation
import Testing
import TracksnapTestSupport

@Suite(
    "Profiles from the command line: built in, overridden, composed; six SDKs through one collector", .tags(.process),
    .leftToMakeTest)
struct ProfileCommandTests {
    /// The SDKs whose real traffic `Snapshots/examples/captures/` holds, all sending to a local collector.
    static let collectorVendors = ["segment", "rudderstack", "mixpanel", "amplitude", "snowplow", "posthog"]

    /// The six captures as one collector would have taken them: one origin, ids renumbered in order.
    static func mixedCapture(in directory: URL) throws -> URL {
        var lines: [String] = []
        for vendor in collectorVendors {
            let text = try String(
                contentsOf: PackagePaths.root.appending(path: "Snapshots/examples/captures/\(vendor).ndjson"),
                encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let url = try #require(object["url"] as? String)
                let path = url.replacingOccurrences(
                    of: #"^http://127\.0\.0\.1:[0-9]+"#, with: "", options: .regularExpression)
                #expect(path != url, "\(vendor)'s capture was not taken by a local collector: \(url)")
                object["url"] = "http://127.0.0.1:8125" + path
                object["id"] = String(lines.count + 1)
                lines.append(
                    String(
                        decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
                        as: UTF8.self))
            }
        }
        let file = directory.appending(path: "six-sdks.ndjson")
        try write(lines.joined(separator: "\n") + "\n", to: file)
        return file
    }

    @Test(
        "through each vendor profile, six SDKs' traffic through one collector records only that vendor's events and validates with no finding",
        arguments: collectorVendors)
    func sixSDKsOneCollector(vendor: String) throws {
        try withTemporaryDirectory { directory in
            let capture = try Self.mixedCapture(in: directory).path
            let snapshot = directory.appending(path: "\(vendor).json").path
            let record = try tracksnap("record", snapshot, "--capture", capture, "--validator", vendor)
            #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
            let recorded = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: snapshot)))
                    as? [String: Any])
            let events = try #require(recorded["events"] as? [[String: Any]])
            #expect(!events.isEmpty)
            #expect(Set(events.compactMap { $0["vendor"] as? String }) == [vendor])
            #expect(
                recorded["requests"] == nil,
                "another vendor's traffic was recorded as requests: \(recorded["requests"] ?? "")")

            let check = try tracksnap("validate", snapshot, "--capture", capture, "--format", "json")
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
            #expect((report["findings"] as? [Any])?.isEmpty == true, "\(check.stdout)")
            let results = try #require(report["snapshots"] as? [[String: Any]])
            #expect(results.first?["profile"] as? String == vendor)
        }
    }

    @Test("several profiles at once: a snapshot's list, or --validator with commas, selects each vendor's traffic")
    func composedOnTheCommandLine() throws {
        try withTemporaryDirectory { directory in
            let capture = try Self.mixedCapture(in: directory).path
            let snapshot = directory.appending(path: "two.json").path
            let record = try tracksnap("record", snapshot, "--capture", capture, "--validator", "segment,amplitude")
            #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
            let text = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(text.contains(#""vendor": "segment""#) && text.contains(#""vendor": "amplitude""#))
            #expect(!text.contains(#""vendor": "posthog""#) && !text.contains(#""requests""#))
            let listed = text.replacingOccurrences(
                of: #""validator": "segment,amplitude""#, with: #""validator": ["segment", "amplitude"]"#)
            #expect(listed != text, "the recorded snapshot names both profiles")
            try write(listed, to: URL(fileURLWithPath: snapshot))
            let check = try tracksnap("validate", snapshot, "--capture", capture)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }
    }

    @Test("lint notes a Validators file that overrides a built-in profile, naming both; a note is not a warning")
    func overrideNoted() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "Validators/segment.json")
            try write(#"{"extends": "segment", "unexpected": "allow"}"#, to: file)
            let lint = try tracksnap("lint", directory.appending(path: "Validators").path)
            #expect(lint.status == 0, "\(lint.stdout)")
            #expect(
                lint.stdout.contains(
                    #"\#(file.path): note: overrides the built-in profile "segment" (<built-in>/segment.json)"#),
                "\(lint.stdout)")
            #expect(lint.stdout.hasSuffix("1 file checked: 0 errors, 0 warnings\n"))
            let strict = try tracksnap("lint", "--strict", directory.appending(path: "Validators").path)
            #expect(strict.status == 0, "a note is not a warning")
        }
    }

    @Test("lint reports an extends cycle and an unknown profile at file:line:column")
    func lintExtendsErrors() throws {
        try withTemporaryDirectory { directory in
            try write("{\n  \"extends\": \"b\"\n}\n", to: directory.appending(path: "Validators/a.json"))
            try write("{\n  \"extends\": \"a\"\n}\n", to: directory.appending(path: "Validators/b.json"))
            try write("{\n  \"extends\": \"segmnet\"\n}\n", to: directory.appending(path: "Validators/c.json"))
            let lint = try tracksnap("lint", directory.appending(path: "Validators").path)
            #expect(lint.status == 1)
            #expect(
                lint.stdout.contains("Validators/b.json:2:14: error: \"extends\" makes a cycle: a → b → a"),
                "\(lint.stdout)")
            #expect(
                lint.stdout.contains(
                    "Validators/c.json:2:14: error: no validator profile \"segmnet\"; did you mean segment? available: a, adjust, amplitude, b, branch, c, default"
                ), "\(lint.stdout)")
        }
    }
}

@Suite("A snapshot naming a profile that does not exist", .tags(.process), .leftToMakeTest)
struct UnknownProfileNameTests {
    @Test(
        "lint and validate report a snapshot's unknown profile name at its line and column, listing the profiles there are"
    )
    func unknownName() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "checkout.json")
            try write("{\n  \"validator\": [\"segment\", \"ga44\"],\n  \"events\": []\n}\n", to: file)
            let lint = try tracksnap("lint", file.path)
            #expect(lint.status == 1)
            #expect(
                lint.stdout.hasPrefix(
                    #"\#(file.path):2:28: error: no validator profile "ga44" (not in Validators/, not built in); did you mean ga4? available: acme-shop, adjust, amplitude, branch, default, firebase, ga4"#
                ), "\(lint.stdout)")
            let validate = try tracksnap(
                "validate", file.path, "--capture", "Snapshots/examples/captures/segment.ndjson")
            #expect(validate.status == 2)
            #expect(
                validate.stderr.contains(#"\#(file.path):2:28: error: no validator profile "ga44""#),
                "\(validate.stderr)")
        }
    }
}
