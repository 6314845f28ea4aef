import Foundation
import Testing
import TracksnapCapture
import TracksnapDecoders
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("assertTracking fails the running test with the whole diff")
struct AssertTrackingTests {
    @Test("traffic that matches passes without an issue and returns the result")
    func passes() throws {
        let result = try #require(
            assertTracking(checkoutRequests(), matches: "Fixtures/Snapshots/checkout.json", record: .never))
        #expect(result.passed)
        #expect(result.entries.map(\.status) == [.matched, .matched])
    }

    @Test("a mismatch records one issue holding the text report: the field, expected, actual, code and line")
    func mismatchReportsDiff() throws {
        var result: SnapshotResult?
        withKnownIssue {
            result = assertTracking(
                checkoutRequests(screen: "Basket"), matches: "Fixtures/Snapshots/checkout.json", record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("Tracking does not match the snapshot")
                && message.contains("/parameters/screen")
                && message.contains("\"Cart\"") && message.contains("\"Basket\"")
                && message.contains("value_mismatch") && message.contains("line 7")
                && message.contains("TRACKSNAP_RECORD=failed")
        }
        #expect(result?.passed == false)
    }

    @Test("the issue points at the line of the assertion")
    func issueLocation() {
        let line = #line + 2
        withKnownIssue {
            assertTracking([], matches: "Fixtures/Snapshots/checkout.json", record: .never)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "AssertTrackingTests.swift"
        }
    }

    @Test("every finding is reported, not the first")
    func everyFinding() {
        withKnownIssue {
            assertTracking([], matches: "Fixtures/Snapshots/checkout.json", record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("/requests/0  GET https://collect.example/v1/e  (line 6)")
                && message.contains("/requests/1  POST https://collect.example/v1/track  (line 8)")
                && message.contains("2 findings")
        }
    }

    @Test("a snapshot path may be absolute")
    func absolutePath() {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
            path: "Fixtures/Snapshots/checkout.json"
        ).path
        #expect(assertTracking(checkoutRequests(), matches: path, record: .never)?.passed == true)
    }

    @Test("a profile name is found in the nearest Validators directory above the snapshot")
    func nearestValidators() {
        let noise = CapturedRequest(id: "9", method: "GET", url: "https://cdn.example/app.js")
        let result = assertTracking(
            [noise, CapturedRequest(id: "1", method: "GET", url: "https://collect.example/v1/e?ev=screen_view")],
            matches: "Fixtures/Snapshots/filtered.json", record: .never)
        #expect(result?.passed == true)
        #expect(result?.profile == "collect-only")
        #expect(result?.selected == 1)
    }

    @Test("a validator named by the caller overrides the snapshot's")
    func validatorArgument() {
        withKnownIssue {
            assertTracking(
                checkoutRequests(), matches: "Fixtures/Snapshots/checkout.json", validator: "no-such-profile",
                record: .never)
        } matching: { issue in
            text(of: issue).contains("no validator profile \"no-such-profile\"")
        }
    }

    @Test("a malformed snapshot fails the test with the file, line and column, without crashing")
    func malformedSnapshot() {
        withKnownIssue {
            assertTracking(checkoutRequests(), matches: "Fixtures/Snapshots/broken.json", record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("tracksnap cannot check") && message.contains("broken.json:4:")
        }
    }

    @Test("a missing snapshot in record mode never is a failure that says how to record it")
    func missingNever() {
        withKnownIssue {
            assertTracking(checkoutRequests(), matches: "Fixtures/Snapshots/absent.json", record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("No snapshot at") && message.contains("absent.json")
                && message.contains("record mode is `never`")
        }
    }

    @Test("the trait's record mode applies to the assertions of the test", .tracksnap(record: .never))
    func traitRecordMode() {
        #expect(TracksnapConfiguration.current.record == .never)
        withKnownIssue {
            assertTracking(checkoutRequests(), matches: "Fixtures/Snapshots/absent.json")
        } matching: { issue in
            text(of: issue).contains("record mode is `never`")
        }
    }

    @Test("an explicit record argument wins over the trait", .tracksnap(record: .never))
    func argumentOverTrait() throws {
        // Recording writes a file: into a directory of its own, never into the fixtures.
        try withTemporaryDirectory { directory in
            withKnownIssue {
                assertTracking(checkoutRequests(), matches: directory.appending(path: "new.json").path, record: .all)
            } matching: { issue in
                text(of: issue).contains("record mode `all`")
            }
        }
    }

    @Test("withTracksnap sets the mode for a block; the inner setting wins")
    func withTracksnapNesting() async {
        withTracksnap(record: .failed) {
            #expect(TracksnapConfiguration.current.record == .failed)
            withTracksnap(record: .all) { #expect(TracksnapConfiguration.current.record == .all) }
            withTracksnap(validatorsDirectory: "V") {
                #expect(
                    TracksnapConfiguration.current == TracksnapConfiguration(record: .failed, validatorsDirectory: "V"))
            }
        }
        await withTracksnap(record: .never) {
            await Task.yield()
            #expect(TracksnapConfiguration.current.record == .never)
        }
        #expect(TracksnapConfiguration.current.record == nil)
    }

    @Test("the async overload waits for an in-process capture's requests until the snapshot is matched")
    func asyncCapture() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let capture = CaptureSession.install(on: configuration, mode: .respond())
        let session = URLSession(configuration: configuration)
        var purchase = URLRequest(url: try #require(URL(string: "https://collect.example/v1/track")))
        purchase.httpMethod = "POST"
        purchase.setValue("application/json", forHTTPHeaderField: "Content-Type")
        purchase.httpBody = Data(#"{"event":"purchase","order_id":"o-7","revenue":12.5}"#.utf8)
        // Sent without awaiting: the assertion itself waits for both requests.
        let sending = Task {
            _ = try await session.data(
                from: try #require(URL(string: "https://collect.example/v1/e?ev=screen_view&screen=Cart")))
            _ = try await session.data(for: purchase)
        }
        // The wait must end on the match, and a busy machine that holds the second request up
        // must not end it early. No marker of why it ended reaches the assertion: a settle time
        // and deadline twice Bounds.wait, so returning within Bounds.wait shows the match ended it.
        let started = ContinuousClock.now
        let result = await assertTracking(
            capture, matches: "Fixtures/Snapshots/checkout.json", record: .never, settle: Bounds.wait * 2,
            timeout: Bounds.wait * 2)
        #expect(ContinuousClock.now - started < Bounds.wait, "it ended on the match, not the settle time")
        try await sending.value
        #expect(result?.passed == true)
    }

    @Test(
        "the async overload reads a server session's requests through the client, and stops once the snapshot is matched"
    )
    func asyncServerSession() async throws {
        let array = "[" + checkoutRequests().map(CaptureFile.ndjsonLine).joined(separator: ",") + "]"
        let configuration = URLSessionConfiguration.ephemeral
        let stub = CaptureSession.install(
            on: configuration, mode: .reply { _ in CaptureResponse(body: Data(array.utf8)) })
        let client = TracksnapClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:8181")), configuration: configuration)

        let result = await assertTracking(
            client.session(id: "s1"), matches: "Fixtures/Snapshots/checkout.json", record: .never)
        #expect(result?.passed == true)
        // What is there first; it matches the snapshot, so there is no second call.
        #expect(
            stub.requests.map(\.url) == ["http://127.0.0.1:8181/__tracksnap/sessions/s1/requests?count=0&timeout=0"])
    }

    @Test("an in-process capture's request is decoded once for the assertion's wait and its validation")
    func decodedOnceForWaitAndValidation() async throws {
        let marker = "assert-decoded-once-" + UUID().uuidString
        DecoderCalls.watch(marker)
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "order.json").path
            try write(
                #"{"validator": "segment", "events": [{"type": "track", "name": "Order Completed"}]}"#,
                to: URL(fileURLWithPath: snapshot))
            let configuration = URLSessionConfiguration.ephemeral
            let capture = CaptureSession.install(on: configuration, mode: .respond())
            var track = URLRequest(url: try #require(URL(string: "https://api.segment.io/v1/track?probe=\(marker)")))
            track.httpMethod = "POST"
            track.setValue("application/json", forHTTPHeaderField: "Content-Type")
            track.httpBody = Data(#"{"type": "track", "event": "Order Completed"}"#.utf8)
            _ = try await URLSession(configuration: configuration).data(for: track)
            let result = await assertTracking(capture, matches: snapshot, record: .never, timeout: Bounds.wait)
            #expect(result?.passed == true)
        }
        let counts = DecoderCalls.count(marker)
        #expect(counts == ["segment": 1], "decoded \(counts)")
    }

    @Test("a control API error fails the test with the server's message")
    func asyncServerError() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let stub = CaptureSession.install(
            on: configuration, mode: .respond(status: 404, body: Data(#"{"error":"no session \"s9\""}"#.utf8)))
        let client = TracksnapClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:8181")), configuration: configuration)
        await withKnownIssue {
            await assertTracking(client.session(id: "s9"), matches: "Fixtures/Snapshots/checkout.json", record: .never)
        } matching: { issue in
            text(of: issue).contains("404: no session \"s9\"")
        }
        #expect(stub.requests.count == 1)
    }
}

func fixture(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures").appending(path: path).path
}

@Suite("Recording through an assertion")
struct AssertRecordingTests {
    @Test("a missing snapshot is recorded (failing the test once), then the same traffic passes")
    func recordThenPass() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "checkout.json").path
            var requests = checkoutRequests()
            requests[0].headers.append(.init(name: "Authorization", value: "Bearer sk_live_abcdef123456"))
            withKnownIssue {
                assertTracking(requests, matches: path, record: .missing)
            } matching: { issue in
                text(of: issue).contains("Recorded the snapshot \(path)")
            }
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(written.contains("\"requests\""))
            #expect(!written.contains("sk_live_abcdef123456"))
            let result = try #require(assertTracking(requests, matches: path, record: .never))
            #expect(result.passed)
        }
    }
}

@Suite("assertTracking checks the tracking plan its profile names")
struct AssertTrackingPlanTests {
    func order(revenue: String) -> CapturedRequest {
        CapturedRequest(
            id: "1", method: "POST", url: "https://api.segment.io/v1/track",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text(
                #"{"type": "track", "event": "Order Completed", "userId": "u1", "properties": {"revenue": \#(revenue)}}"#
            ))
    }

    @Test("an event the plan refuses fails the assertion, naming the keyword and the plan's line")
    func planViolation() {
        #expect(
            assertTracking([order(revenue: "12.5")], matches: "Fixtures/Snapshots/planned.json", record: .never)?.passed
                == true)
        withKnownIssue {
            assertTracking([order(revenue: #""12.5""#)], matches: "Fixtures/Snapshots/planned.json", record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("tracking plan") && message.contains("at /properties/revenue: type:")
                && message.contains("shop.plan.json:7:")
        }
    }

    @Test("a plan given to the assertion (relative to the test file) checks every decoded event too")
    func plansArgument() {
        let plan = "Fixtures/Validators/shop.plan.json"
        #expect(
            assertTracking(
                [order(revenue: "12.5")], matches: "Fixtures/Snapshots/order.json", plans: [plan], record: .never)?
                .passed == true)
        withKnownIssue {
            assertTracking(
                [order(revenue: #""12.5""#)], matches: "Fixtures/Snapshots/order.json", plans: [plan], record: .never)
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("tracking plan") && message.contains("at /properties/revenue: type:")
                && message.contains("shop.plan.json:7:")
        }
        // Without it, the snapshot alone passes the same traffic.
        #expect(
            assertTracking([order(revenue: #""12.5""#)], matches: "Fixtures/Snapshots/order.json", record: .never)?
                .passed == true)
    }
}
