import Foundation
import Testing
import TracksnapTestSupport

/// `tracksnap events`: what each captured request decodes to, run on the repository's own captures.
@Suite("tracksnap events", .tags(.process), .leftToMakeTest)
struct EventsCommandTests {
    static let examples = "Snapshots/examples/captures"
    static let appFixtures = PackagePaths.root.appending(path: "Tests/TracksnapDecodersTests/Fixtures")

    /// The parsed `--format json` output.
    static func array(_ run: TracksnapRun) throws -> [[String: Any]] {
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(parsed as? [[String: Any]], "not an array of objects: \(run.stdout)")
    }

    @Test("text: each request with its vendor, events and encodings, then a summary")
    func text() throws {
        let run = try tracksnap("events", "--capture", "\(Self.examples)/mixpanel.ndjson")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("#1 POST http://127.0.0.1:40541/track"), "\(run.stdout)")
        #expect(run.stdout.contains("   mixpanel: 1 event, read as form; /data: JSON"), "\(run.stdout)")
        #expect(run.stdout.contains(#"1. mixpanel track "Signed Up""#), "\(run.stdout)")
        #expect(run.stdout.contains(#"properties: {"#) && run.stdout.contains(#""plan":"pro""#), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("4 of 4 requests selected, 5 events (mixpanel 5)\n"), "\(run.stdout)")
    }

    @Test("a capture named without --capture is read the same, before those named with it")
    func positional() throws {
        let mixpanel = "\(Self.examples)/mixpanel.ndjson"
        let named = try tracksnap("events", "--capture", mixpanel)
        let positional = try tracksnap("events", mixpanel)
        #expect(positional.status == 0, "\(positional.stderr)")
        #expect(positional.stdout == named.stdout)
        let both = try tracksnap("events", mixpanel, "--capture", "\(Self.examples)/segment.ndjson", "--format", "json")
        let vendors = try Self.array(both).compactMap { $0["vendor"] as? String }
        #expect(vendors.first == "mixpanel" && vendors.last == "segment", "\(vendors)")
        let none = try tracksnap("events")
        #expect(
            none.status == 2 && none.stderr.contains("a capture file is required: tracksnap events FILE"),
            "\(none.stderr)")
    }

    @Test("json: one element per request, its events, chain and vendor", arguments: ["ga4", "segment", "meta-pixel"])
    func json(vendor: String) throws {
        let run = try tracksnap("events", "--capture", "\(Self.examples)/\(vendor).ndjson", "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        let requests = try Self.array(run)
        let lines = try String(
            contentsOfFile: "\(PackagePaths.root.path)/\(Self.examples)/\(vendor).ndjson", encoding: .utf8)
        #expect(requests.count == lines.split(separator: "\n").count)
        for (offset, request) in requests.enumerated() {
            #expect((request["request"] as? [String: Any])?["number"] as? Int == offset + 1)
            #expect(request["vendor"] as? String == vendor)
            let events = try #require(request["events"] as? [[String: Any]])
            #expect(!events.isEmpty)
            #expect(events.allSatisfy { $0["vendor"] as? String == vendor && $0["index"] is Int })
            #expect(request["chain"] is [Any])
        }
    }

    @Test("the demo's captures: its own collector not decoded, Segment's batch read as JSON")
    func demo() throws {
        let run = try tracksnap("events", "--capture", "Snapshots/demo/captures/release-1.4.har")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("/v1/e?ev=screen_view"), "\(run.stdout)")
        #expect(run.stdout.contains("   not decoded: no decoder claims it\n"), "\(run.stdout)")
        #expect(run.stdout.contains(" requests selected, 0 events, "), "\(run.stdout)")
        let json = try Self.array(
            try tracksnap("events", "--capture", "Snapshots/demo/captures/segment-run-1.ndjson", "--format", "json"))
        let chain = try #require(json.first?["chain"] as? [[String: Any]])
        #expect(chain.first?["encodings"] as? [String] == ["JSON"])
    }

    @Test("an app's uploads: gzip'd JSON, multipart and forms, read into Meta's app events")
    func appEvents() throws {
        let capture = Self.appFixtures.appending(path: "meta-app.ndjson").path
        let run = try tracksnap("events", "--capture", capture)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("meta-app: 3 events, read as gzip → JSON; /custom_events: JSON; /extinfo: JSON"),
            "\(run.stdout)")
        #expect(run.stdout.contains(#"meta-app custom_app_events "fb_mobile_purchase""#), "\(run.stdout)")
        #expect(
            run.stdout.contains("meta-app: 1 event, read as multipart; /custom_events: JSON; /extinfo: JSON\n"),
            "\(run.stdout)")
        #expect(!run.stdout.contains("meta_client_token_test_fixture"), "the client token is shown")
    }

    @Test("--validator selects as validation does: another vendor's requests are left out")
    func validatorSelects() throws {
        let mixed =
            try String(contentsOfFile: "\(PackagePaths.root.path)/\(Self.examples)/ga4.ndjson", encoding: .utf8)
            + String(contentsOfFile: "\(PackagePaths.root.path)/\(Self.examples)/segment.ndjson", encoding: .utf8)
        try withTemporaryDirectory { directory in
            let capture = directory.appending(path: "mixed.ndjson")
            try write(mixed, to: capture)
            let run = try tracksnap("events", "--capture", capture.path, "--validator", "segment", "--format", "json")
            #expect(run.status == 0, "\(run.stderr)")
            let requests = try Self.array(run)
            #expect(requests.count == 1)
            #expect(requests.first?["vendor"] as? String == "segment")
        }
    }

    @Test("a planted secret is hidden in the URL and in the events, and an unclaimed request is shown as such")
    func secretsHidden() throws {
        let planted = "sk_live_planted_4242"
        let body =
            #"{"batch": [{"type": "track", "event": "Order Completed", "messageId": "m-1", "properties": {"#
            + #""access_token": "\#(planted)", "note": "paid with \#(planted)"}}], "writeKey": "wk_\#(planted)"}"#
        let records = [
            #"{"id": "1", "method": "POST", "url": "https://api.segment.io/v1/batch?api_key=\#(planted)", "#
                + #""headers": [{"name": "Content-Type", "value": "application/json"}], "body": \#(quoted(body))}"#,
            #"{"id": "2", "method": "GET", "url": "https://cdn.example/app.js?token=\#(planted)"}"#,
        ]
        try withTemporaryDirectory { directory in
            let capture = directory.appending(path: "secret.ndjson")
            try write(records.joined(separator: "\n") + "\n", to: capture)
            for format in ["text", "json"] {
                let run = try tracksnap("events", "--capture", capture.path, "--format", format)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(!run.stdout.contains(planted), "\(format): \(run.stdout)")
                #expect(run.stdout.contains("[redacted]"), "\(format): \(run.stdout)")
                #expect(run.stdout.contains("Order Completed"), "\(format): \(run.stdout)")
            }
            let text = try tracksnap("events", "--capture", capture.path)
            #expect(
                text.stdout.contains(
                    "#2 GET https://cdn.example/app.js?token=%5Bredacted%5D\n   not decoded: no decoder claims it"),
                "\(text.stdout)")
            #expect(text.stdout.hasSuffix(", 1 not decoded\n"), "\(text.stdout)")
        }
    }

    @Test("a file that cannot be read exits 2 with its place; so does an unknown format or profile")
    func badInput() throws {
        try withTemporaryDirectory { directory in
            let capture = directory.appending(path: "broken.ndjson")
            try write("{\"id\": \"1\", \"method\": \"GET\", \"url\": \"https://x.test/\"}\n{\"id\": 2,\n", to: capture)
            let run = try tracksnap("events", "--capture", capture.path)
            #expect(run.status == 2)
            #expect(run.stderr.contains("broken.ndjson:2"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let format = try tracksnap("events", "--capture", "\(Self.examples)/ga4.ndjson", "--format", "jsn")
        #expect(format.status == 2 && format.stderr.contains("did you mean json"), "\(format.stderr)")
        let profile = try tracksnap("events", "--capture", "\(Self.examples)/ga4.ndjson", "--validator", "ga44")
        #expect(profile.status == 2 && profile.stderr.contains("ga44"), "\(profile.stderr)")
        let missing = try tracksnap("events")
        #expect(missing.status == 2 && missing.stderr.contains("--capture"), "\(missing.stderr)")
    }

    @Test("Schemas/check.py accepts what --format json writes", arguments: [0])
    func schema(_: Int) throws {
        let python = try PackagePaths.sdkPython(for: "jsonschema")
        try withTemporaryDirectory { directory in
            var files: [String] = []
            for capture in [
                "\(Self.examples)/ga4.ndjson", "\(Self.examples)/mixpanel.ndjson",
                "Snapshots/demo/captures/release-1.5.har", Self.appFixtures.appending(path: "branch.ndjson").path,
            ] {
                let run = try tracksnap("events", "--capture", capture, "--format", "json")
                let file = directory.appending(path: "events-\(files.count).json")
                try write(run.stdout, to: file)
                files.append(file.path)
            }
            let check = try runProcess(
                python,
                [PackagePaths.root.appending(path: "Schemas/check.py").path, "-v", "--events"] + files)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            for file in files { #expect(check.stdout.contains("ok   \(file) is accepted"), "\(check.stdout)") }
        }
    }

    /// A JSON string literal of the text.
    private func quoted(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text])) ?? Data(), as: UTF8.self)
            .dropFirst().dropLast().description
    }
}
