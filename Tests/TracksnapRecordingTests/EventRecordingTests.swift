import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// The decoder fixtures recorded from the vendors' SDKs and tags (`Tests/TracksnapDecodersTests/Fixtures`).
enum VendorFixtures {
    static let directory = PackagePaths.root.appending(path: "Tests/TracksnapDecodersTests/Fixtures")
    static let vendors = [
        "universal-analytics", "rudderstack", "meta-pixel", "amplitude", "snowplow", "mixpanel", "segment", "posthog",
        "ga4", "meta-app", "adjust", "branch",
    ]

    /// Every NDJSON fixture.
    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".ndjson")
        }.sorted()
    }

    /// The vendor a fixture's traffic belongs to: its name's prefix (`gtag` is GA4's tag).
    static func vendor(of fixture: String) -> String? {
        fixture.hasPrefix("gtag") ? "ga4" : vendors.first { fixture.hasPrefix($0) }
    }

    static func requests(_ fixture: String) throws -> [CapturedRequest] {
        try CaptureFile.read(path: directory.appending(path: fixture).path)
    }

    /// The built-in profile of a vendor.
    static func profile(_ vendor: String) throws -> Profile {
        try #require(Profile.builtIn(vendor))
    }
}

@Suite("Recording events through the vendor profiles")
struct EventRecordingTests {
    /// Fixtures holding a request their decoder rejects, and why.
    static let undecodable = ["posthog-js.ndjson": "lz64"]

    @Test(
        "every fixture recorded through its vendor's profile validates against that capture with no findings",
        arguments: VendorFixtures.all)
    func roundTrip(fixture: String) throws {
        let vendor = try #require(VendorFixtures.vendor(of: fixture), "no vendor for \(fixture)")
        var requests = try VendorFixtures.requests(fixture)
        let profile = try VendorFixtures.profile(vendor)
        if let reason = Self.undecodable[fixture] {
            do {
                _ = try SnapshotRecorder(profile: profile).snapshot(from: requests, name: vendor)
                Issue.record("\(fixture) recorded in spite of its undecodable request")
            } catch {
                #expect(error.description.contains(reason))
            }
            requests.removeAll { Decoders.decode($0).error != nil }
        }
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "\(vendor).json").path
            let text = try record(requests, profile: profile, to: path)
            let recorded = try json(at: path)
            let events = try #require(recorded["events"]?.arrayValue)
            #expect(!events.isEmpty)
            #expect(events.allSatisfy { $0["vendor"] == .string(vendor) })
            // Every selected request of the fixture is the vendor's: nothing is left as a request.
            #expect(recorded["requests"] == nil)
            #expect(recorded["validator"] == .string(vendor))
            // The SDKs' fake keys (`*_test_fixture*`, `phc_…`) and captured secrets never reach the file.
            for secret in ["test_fixture", "phc_", "G-FX7T3K4Q9B-secret"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
            let result = try validateFile(path, requests, profile: profile)
            #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
            #expect(result.selected == requests.count)
        }
    }

    @Test("a data key beginning with $ is written $$ and a $$ ignore rule leaves it out")
    func dollarKeys() throws {
        let requests = try VendorFixtures.requests("mixpanel.ndjson")
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "mixpanel.json").path
            let text = try record(requests, profile: try VendorFixtures.profile("mixpanel"), to: path)
            #expect(text.contains("\"$$set\"") && text.contains("\"$$email\""))
            #expect(!text.contains("insert_id"))
            #expect(!text.contains("\"$set\""))
            // Without the rule, the insert id is recorded, spelt as a data key.
            let plain = try recordingProfile(#"{"decoders": ["mixpanel"]}"#)
            #expect(try record(requests, profile: plain, to: path).contains("\"$$insert_id\""))
        }
    }

    @Test("ignore rules name $ keys in either spelling, compared as the snapshot spells them")
    func ignoreSpelling() {
        let rules = IgnoreRules(["/properties/$insert_id", "/context/$$time", "$os"])
        #expect(rules.ignores(["properties", "$$insert_id"]))
        #expect(rules.ignores(dataKeys: ["properties", "$insert_id"]))
        #expect(rules.ignores(["context", "$$time"]))
        #expect(rules.ignores(["properties", "deep", "$$os"]))
        #expect(!rules.ignores(["properties", "insert_id"]))
        #expect(!rules.ignores(["context", "time"]))
    }

    @Test("an ignored $ key is not compared, even when the snapshot expects another value")
    func ignoredDollarKeyNotCompared() throws {
        let requests = try VendorFixtures.requests("mixpanel.ndjson")
        let wrong = try snapshot(
            #"""
            {"order": "any", "unexpected": "allow", "events": [
              {"vendor": "mixpanel", "name": "Signed Up", "properties": {"$$insert_id": "not-it", "plan": "pro"}}]}
            """#)
        #expect(validate(wrong, requests, profile: try VendorFixtures.profile("mixpanel")).findings.isEmpty)
        let strict = try recordingProfile(#"{"decoders": ["mixpanel"], "unexpected": "allow", "order": "any"}"#)
        #expect(validate(wrong, requests, profile: strict).findings.map(\.path) == ["/events/0/properties/$$insert_id"])
    }

    @Test("context is recorded only at the paths the profile's record.context lists")
    func recordedContext() throws {
        let requests = try VendorFixtures.requests("segment.ndjson")
        let profile = try recordingProfile(
            #"""
            {"decoders": ["segment"], "ignore": ["/context/messageId"], "record": {"context": ["userId", "context.library.name", "nowhere.at.all"]}}
            """#)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "segment.json").path
            try record(requests, profile: profile, to: path)
            let events = try #require(try json(at: path)["events"]?.arrayValue)
            for event in events {
                #expect(event.at("/context/context") == ["library": ["name": "analytics-python"]])
                #expect(Set((event["context"]?.objectValue ?? [:]).keys) == ["userId", "context"])
            }
            #expect(events.first?.at("/context/userId") == "user-42")
            #expect(try validateFile(path, requests, profile: profile).findings.isEmpty)
        }
    }

    @Test("re-recording keeps the patterns and descriptions that still match, and replaces the rest")
    func reRecordKeepsPatterns() throws {
        let requests = try VendorFixtures.requests("segment.ndjson")
        let profile = try VendorFixtures.profile("segment")
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "segment.json").path
            try record(requests, profile: profile, to: path)
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(
                of: #""order_id": "o-1001""#, with: #""order_id": { "$regex": "o-[0-9]+" }"#)
            text = text.replacingOccurrences(of: #""revenue": 12.5"#, with: #""revenue": 99"#)
            text = text.replacingOccurrences(
                of: #""name": "Order Completed","#,
                with: #""description": "Sent on purchase", "name": "Order Completed","#)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let before = try json(at: path)["events"]?.arrayValue?.count
            try record(requests, profile: profile, to: path, existing: true)
            let events = try #require(try json(at: path)["events"]?.arrayValue)
            #expect(events.count == before)
            let order = try #require(events.first { $0["name"] == "Order Completed" })
            #expect(order.at("/properties/order_id") == ["$regex": "o-[0-9]+"])
            #expect(order.at("/properties/revenue") == .number("12.5"))
            #expect(order["description"] == "Sent on purchase")
            #expect(try validateFile(path, requests, profile: profile).findings.isEmpty)
        }
    }

    @Test("traffic a decoder claims but cannot decode stops recording with the request and the reason")
    func decodeErrorStopsRecording() throws {
        let broken = form("https://api.mixpanel.com/track", "data=%7Bnot-json", id: 7)
        let recorder = SnapshotRecorder(profile: try VendorFixtures.profile("mixpanel"))
        do {
            _ = try recorder.snapshot(from: [broken], name: "broken")
            Issue.record("recording went on")
        } catch {
            #expect(error.description.contains("request #1 POST https://api.mixpanel.com/track (id 7): mixpanel:"))
        }
    }

    @Test("requests no decoder claimed are recorded beside the events, and none when all were claimed")
    func unclaimedRequests() throws {
        let requests =
            try VendorFixtures.requests("segment.ndjson") + [
                post("https://api.segment.io/v1/projects/settings", json: #"{"x": 1}"#, id: 99)
            ]
        // The built-in profile selects what Segment's decoder claims; this one adds Segment's host.
        let profile = try recordingProfile(
            #"{"extends": "segment", "filter": {"any": [{"vendor": "segment"}, {"host": "api.segment.io"}]}}"#)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "segment.json").path
            try record(requests, profile: profile, to: path)
            let recorded = try json(at: path)
            #expect(
                recorded["requests"]?.arrayValue?.map { $0["url"] } == ["https://api.segment.io/v1/projects/settings"])
            #expect(recorded["events"]?.arrayValue?.isEmpty == false)
            #expect(try validateFile(path, requests, profile: profile).findings.isEmpty)
        }
    }

    @Test("a profile without decoders still records requests")
    func requestLevelUnchanged() throws {
        let requests = try VendorFixtures.requests("segment.ndjson")
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "plain.json").path
            try record(requests, to: path)
            let recorded = try json(at: path)
            #expect(recorded["events"] == nil)
            #expect(recorded["requests"]?.arrayValue?.count == 1)
        }
    }
}
