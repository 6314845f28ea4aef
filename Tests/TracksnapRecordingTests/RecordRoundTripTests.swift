import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("A recorded snapshot validates against the capture it came from")
struct RecordRoundTripTests {
    /// A capture file of the repository and the profile it is recorded under.
    struct Case: Sendable, CustomTestStringConvertible {
        let capture: String
        let profile: String
        var testDescription: String { "\(capture) under \(profile)" }
    }

    static let files = [
        Case(capture: "Snapshots/demo/captures/release-1.4.har", profile: "Validators/acme-shop.json"),
        Case(capture: "Snapshots/demo/captures/release-1.5.har", profile: "Validators/acme-shop.json"),
        Case(
            capture: "Tests/TracksnapCLITests/Fixtures/captures/checkout-browse.ndjson",
            profile: "Validators/acme-shop.json"),
        Case(
            capture: "Tests/TracksnapCLITests/Fixtures/captures/checkout-buy.ndjson",
            profile: "Validators/acme-shop.json"),
        Case(capture: "Tests/TracksnapCLITests/Fixtures/captures/checkout-buy.ndjson", profile: "default"),
        Case(capture: "Tests/TracksnapTrafficTests/Fixtures/captures/chrome.har", profile: "default"),
        Case(capture: "Tests/TracksnapTrafficTests/Fixtures/captures/firefox.har", profile: "default"),
        Case(capture: "Tests/TracksnapTrafficTests/Fixtures/captures/charles.har", profile: "default"),
        Case(capture: "Tests/TracksnapTrafficTests/Fixtures/captures/mitmproxy.har", profile: "default"),
        Case(capture: "Tests/TracksnapTrafficTests/Fixtures/captures/capture.ndjson", profile: "default"),
    ]

    @Test("recorded from a capture file, then validated against it: no findings", arguments: files)
    func captureFiles(_ testCase: Case) throws {
        let requests = try CaptureFile.read(path: PackagePaths.root.appending(path: testCase.capture).path)
        let reference =
            testCase.profile.contains("/") ? PackagePaths.root.appending(path: testCase.profile).path : testCase.profile
        let profile = try Profile.load(reference)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "recorded.json").path
            let text = try record(requests, profile: profile, to: path)
            let result = try validateFile(path, requests, profile: profile)
            #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
            #expect(result.entries.count == result.selected)
            #expect(!text.contains("wk_live_"), "the demo's write key is never written")
        }
    }

    @Test("the demo's release 1.4 records the five checkout requests the hand-written snapshot expects")
    func demoMatchesHandWritten() throws {
        let requests = try CaptureFile.read(
            path: PackagePaths.root.appending(path: "Snapshots/demo/captures/release-1.4.har").path)
        let profile = try Profile.load(PackagePaths.root.appending(path: "Validators/acme-shop.json").path)
        let recorded = try SnapshotRecorder(profile: profile).snapshot(from: requests, name: "checkout")
        let handWritten = try json(at: PackagePaths.root.appending(path: "Snapshots/demo/checkout.json").path)
        #expect(recorded["requests"]?.arrayValue?.count == handWritten["requests"]?.arrayValue?.count)
        #expect(recorded.at("/requests/4/body/writeKey") == ["$type": "string"])
        #expect(recorded.at("/requests/2/parameters/ev") == "add_to_cart")
        #expect(recorded.at("/requests/0/parameters/cb") == nil, "the profile ignores the cache-buster")
    }

    /// Traffic with repeated requests, secrets everywhere, JSON and form bodies, any order of keys.
    static func generatedCapture() -> [CapturedRequest] {
        var requests: [CapturedRequest] = []
        for round in 0..<3 {
            requests.append(
                get(
                    "https://t.example.com/track?ev=screen_view&screen=Home&api_key=ak_secret_\(round)1234",
                    id: requests.count))
            requests.append(
                get(
                    "https://t.example.com/track?ev=screen_view&screen=Home&api_key=ak_secret_\(round)1234",
                    id: requests.count))
            requests.append(
                CapturedRequest(
                    id: String(requests.count), method: "POST", url: "https://t.example.com/v1/batch",
                    headers: [
                        .init(
                            name: "Authorization",
                            value: "Basic " + Data("sk_write_\(round)abcdef:".utf8).base64EncodedString()),
                        .init(name: "Content-Type", value: "application/json"),
                        .init(name: "Cookie", value: "sid=cookie_\(round)xyz99"),
                    ],
                    body: .text(
                        #"{"writeKey": "sk_write_\#(round)abcdef", "batch": [{"event": "Order Completed", "properties": {"revenue": 12.5, "token": "tok_\#(round)_zzzzzz", "nested": {"password": "hunter2hunter2"}}}, {"event": "Order Completed", "properties": {"revenue": 12.5}}]}"#
                    )))
            requests.append(
                form(
                    "https://t.example.com/collect?v=1", "t=event&client_secret=cs_\(round)_qqqqqq&ea=buy+now&ea=again",
                    id: requests.count))
            requests.append(
                CapturedRequest(
                    id: String(requests.count), method: "POST", url: "https://t.example.com/log",
                    body: .text("key sk_write_\(round)abcdef sent")))
        }
        return requests
    }

    @Test(
        "a generated capture with repeated requests, secrets, JSON and form bodies round-trips in strict and any order",
        arguments: ["strict", "any"])
    func generated(order: String) throws {
        let requests = Self.generatedCapture()
        let profile = try recordingProfile(
            #"{"order": "\#(order)", "record": {"headers": ["Authorization", "Content-Type"]}}"#)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "generated.json").path
            let text = try record(requests, profile: profile, to: path)
            let result = try validateFile(path, requests, profile: profile)
            #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
            #expect(result.entries.count == requests.count)
            for secret in [
                "ak_secret_", "sk_write_", "cookie_", "tok_", "hunter2", "cs_0_",
                Data("sk_write_0abcdef:".utf8).base64EncodedString(),
            ] {
                #expect(!text.contains(secret), "\(secret) was written")
            }
        }
    }
}
