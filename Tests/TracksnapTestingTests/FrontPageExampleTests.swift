import Foundation
import Testing
import TracksnapCapture
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport

@testable import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The front page's Swift test (README.md, "A Swift test"): an in-process capture, an SDK that
/// sends Segment's calls from a background task, and `assertTracking(capture, matches:validator:)`
/// through the built-in `segment` profile, which decodes them into events.
@Suite("the front page's Swift test")
struct FrontPageExampleTests {
    /// One run of the example: a fresh capture and client, the checkout, the assertion.
    /// The first run records as a developer's machine does (CI=true would make the mode `never`).
    private func checkout(
        _ snapshot: String, events: [String] = FakeAnalytics.checkout, record: RecordMode? = nil
    ) async throws -> SnapshotResult? {
        let configuration = URLSessionConfiguration.ephemeral
        let capture = CaptureSession.install(on: configuration, mode: .respond())
        let analytics = FakeAnalytics(
            session: URLSession(configuration: configuration),
            endpoint: try #require(URL(string: "https://api.segment.io/")))
        analytics.trackCheckout(events)
        // As WaitingTests: a settle time far above the client's pauses, for a busy machine.
        let result = await assertTracking(
            capture, matches: snapshot, validator: "segment", record: record, settle: .seconds(10),
            timeout: Bounds.wait)
        await analytics.flush()
        return result
    }

    @Test("recorded as events on the first run, passes on the next, fails when an event is renamed")
    func builtInProfile() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            try await withKnownIssue {
                _ = try await checkout(snapshot, record: .missing)
            } matching: { issue in
                text(of: issue).contains("Recorded the snapshot \(snapshot) from 3 captured requests")
            }
            let written = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(written.contains(#""vendor": "segment""#), "the segment profile recorded events: \(written)")

            #expect(try await checkout(snapshot)?.passed == true)

            var renamed: SnapshotResult?
            try await withKnownIssue {
                renamed = try await checkout(snapshot, events: ["Checkout Started", "Product Added", "Order Complete"])
            } matching: { issue in
                text(of: issue).contains(#""Order Completed"  "Order Complete"  value_mismatch"#)
            }
            #expect(renamed?.passed == false)
        }
    }
}
