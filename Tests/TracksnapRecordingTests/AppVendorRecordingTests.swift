import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

/// The apps' own SDKs recorded from one run and validated against another: a second install on
/// another day and device (every per-install id, timestamp and counter new) passes, and one real
/// change is caught with exactly one finding. The runs are `Tests/TracksnapDecodersTests/Fixtures`'
/// `VENDOR.ndjson` and `VENDOR-run2.ndjson` (`write_app_fixtures.py`).
@Suite("Record one run of an app's SDK, validate the next", .tags(.process), .leftToMakeTest)
struct AppVendorRecordingTests {
    struct Change: Sendable, CustomTestStringConvertible {
        let vendor: String
        let old: String
        let new: String
        let path: String
        var testDescription: String { "\(vendor): \(old) → \(new)" }
    }

    static let changes = [
        Change(vendor: "meta-app", old: "fb_mobile_add_to_cart", new: "fb_mobile_add_to_wishlist", path: "/name"),
        Change(vendor: "adjust", old: "revenue=12.5", new: "revenue=15.0", path: "/properties/revenue"),
        Change(vendor: "adjust", old: "event_token=abc123", new: "event_token=def456", path: "/name"),
        Change(vendor: "branch", old: "tutorial_finished", new: "tutorial_skipped", path: "/name"),
    ]

    /// The requests with a text replaced in their URL and body, gzip'd bodies inflated and gzip'd again.
    static func changed(_ requests: [CapturedRequest], _ old: String, _ new: String) throws -> [CapturedRequest] {
        try requests.map { request in
            var request = request
            request.url = request.url.replacingOccurrences(of: old, with: new)
            if case .text(let text) = request.body {
                request.body = .text(text.replacingOccurrences(of: old, with: new))
            } else if let bytes = request.bodyBytes, ContentDecoding.looksGzipped(bytes) {
                let plain = String(
                    decoding: try ContentDecoding.decode(bytes, encoding: "gzip", limit: 1 << 20), as: UTF8.self)
                request.body = .base64(
                    try gzipped(Data(plain.replacingOccurrences(of: old, with: new).utf8)).base64EncodedString())
            }
            return request
        }
    }

    @Test("a second install passes with no edit; one real change is exactly one finding", arguments: changes)
    func recordThenValidate(_ change: Change) throws {
        let first = try VendorFixtures.requests("\(change.vendor).ndjson")
        let second = try VendorFixtures.requests("\(change.vendor)-run2.ndjson")
        let profile = try VendorFixtures.profile(change.vendor)
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "\(change.vendor).json").path
            let text = try record(first, profile: profile, to: path)
            #expect(text.contains(#""vendor": "\#(change.vendor)""#))
            // Adjust's event token is its event's name, written as it was sent (not hidden as a secret).
            if change.vendor == "adjust" { #expect(text.contains(#""name": "abc123""#), "\(text)") }
            let passing = try validateFile(path, second, profile: profile)
            #expect(passing.findings.isEmpty, "\(passing.findings.map(\.message))")
            #expect(passing.selected == second.count)

            let edited = try Self.changed(second, change.old, change.new)
            #expect(edited != second, "the change must reach the requests, or this test proves nothing")
            let failing = try validateFile(path, edited, profile: profile)
            #expect(failing.findings.count == 1, "\(failing.findings.map(\.message))")
            #expect(failing.findings.first?.path.hasSuffix(change.path) == true, "\(failing.findings.map(\.path))")
        }
    }
}
