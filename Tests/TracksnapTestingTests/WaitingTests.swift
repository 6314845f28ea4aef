import Foundation
import Testing
import TracksnapCapture
import TracksnapRecording
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let collector = URL(string: "https://collect.example/")

/// One run of the Swift tests guide's example (Documentation/SwiftTests.md): a fresh capture and
/// client, the checkout, the assertion.
/// Returns the result, the client, and when the assertion began and returned.
///
/// The deadline is twice `Bounds.wait` (on a busy machine the client's three events may take
/// seconds): `assertTracking` has no marker of why its wait ended, so a run returning within
/// `Bounds.wait` of its start shows it ended on what it waited for, not on the deadline.
private func checkoutRun(
    _ snapshot: String, events: [String] = FakeAnalytics.checkout, record: RecordMode, settle: Duration
) async throws -> CheckoutRun {
    let configuration = URLSessionConfiguration.ephemeral
    let capture = CaptureSession.install(on: configuration, mode: .respond())
    let analytics = FakeAnalytics(session: URLSession(configuration: configuration), endpoint: try #require(collector))
    let started = ContinuousClock.now
    analytics.trackCheckout(events)
    let result = await assertTracking(
        capture, matches: snapshot, record: record, settle: settle, timeout: Bounds.wait * 2)
    let returned = ContinuousClock.now
    await analytics.flush()
    #expect(capture.requests.count == events.count, "every event was sent before the assertion looked")
    return CheckoutRun(result: result, analytics: analytics, started: started, returned: returned)
}

private struct CheckoutRun {
    var result: SnapshotResult?
    var analytics: FakeAnalytics
    var started: ContinuousClock.Instant
    var returned: ContinuousClock.Instant
}

@Suite("assertTracking waits for the whole snapshot", .tags(.network), .leftToMakeTest)
struct WaitingTests {
    @Test(
        "the guide's example: recorded on the first run, passes on runs 2 to 10, fails when the client drops an event")
    func readmeExample() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            // The guide's client pauses 150 ms between events; a settle time far above that
            // keeps a busy machine from ending a wait between two events: the whole suite runs
            // in parallel, and on Linux URLSession then sometimes holds a request up for
            // seconds. The runs that must end on the match get a settle time (as their deadline)
            // twice Bounds.wait, so that returning within Bounds.wait proves they did.
            let settle = Duration.seconds(10)
            let longSettle = Bounds.wait * 2

            // Run 1 records, once the client's traffic has settled: all three events.
            var recorded: CheckoutRun?
            try await withKnownIssue {
                recorded = try await checkoutRun(snapshot, record: .missing, settle: settle)
            } matching: { issue in
                text(of: issue).contains("Recorded the snapshot \(snapshot) from 3 captured requests")
            }
            let first = try #require(recorded)
            let lastSent = try #require(first.analytics.lastSendStarted)
            #expect(first.returned - lastSent >= settle, "a recording waits for the settle time after the last event")
            #expect(first.returned - first.started < Bounds.wait, "it ended on the settle time, not the deadline")
            let written = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(FakeAnalytics.checkout.allSatisfy { written.contains($0) })

            // Runs 2 to 10 pass: each waits until every expected entry is matched.
            for run in 2...10 {
                let checkout = try await checkoutRun(snapshot, record: .missing, settle: longSettle)
                #expect(checkout.result?.passed == true, "run \(run)")
                let last = try #require(checkout.analytics.lastSendStarted)
                #expect(checkout.returned >= last, "run \(run) returned before the last event was sent")
                #expect(
                    checkout.returned - checkout.started < Bounds.wait,
                    "run \(run) ended on the match, not the settle time or the deadline")
            }

            // A client that drops an event fails, after waiting for its traffic to settle.
            var dropped: SnapshotResult?
            try await withKnownIssue {
                dropped = try await checkoutRun(
                    snapshot, events: ["Checkout Started", "Order Completed"], record: .missing, settle: settle
                ).result
            } matching: { issue in
                text(of: issue).contains("Tracking does not match the snapshot")
            }
            #expect(dropped?.passed == false)
            #expect(dropped?.findings.count == 1)
        }
    }

    @Test("a first run that captured nothing fails with a clear message and records nothing")
    func nothingCaptured() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "empty.json").path
            let capture = CaptureSession.install(on: .ephemeral, mode: .respond())
            let started = ContinuousClock.now
            await withKnownIssue {
                await assertTracking(capture, matches: snapshot, record: .missing, timeout: .milliseconds(300))
            } matching: { issue in
                text(of: issue).contains("Captured no request, so the snapshot \(snapshot) was not recorded")
            }
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(300), "with nothing captured, recording waits for the deadline")
            #expect(elapsed < Bounds.wait, "and not beyond it")
            #expect(!FileManager.default.fileExists(atPath: snapshot))
        }
    }

    @Test("a server session: recorded from a client sending in bursts, then passes, waiting for every event")
    func serverSession() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            // The collector URL holds the server's port: a pattern keeps the snapshot valid for the next server.
            let server = try CaptureServer(configuration: .init())
            let url = try await server.start()
            do {
                let client = TracksnapClient(baseURL: url)
                for run in 1...3 {
                    let session = try await client.startSession(name: "run \(run)")
                    // In order: a server records events in the order they arrive, which fired
                    // and forgotten requests on separate connections need not keep.
                    let analytics = FakeAnalytics(
                        session: URLSession(configuration: .ephemeral), endpoint: session.baseURL, inOrder: true)
                    analytics.trackCheckout()
                    if run == 1 {
                        await withKnownIssue {
                            await assertTracking(
                                session, matches: snapshot, record: .missing, settle: .seconds(3),
                                timeout: Bounds.wait)
                        } matching: { issue in
                            text(of: issue).contains("from 3 captured requests")
                        }
                    } else {
                        // No marker of why the wait ended reaches the assertion: a settle time and
                        // deadline twice Bounds.wait, so returning within Bounds.wait shows the match ended it.
                        let started = ContinuousClock.now
                        let result = await assertTracking(
                            session, matches: snapshot, record: .never, settle: Bounds.wait * 2,
                            timeout: Bounds.wait * 2)
                        let returned = ContinuousClock.now
                        #expect(result?.passed == true, "run \(run)")
                        let last = try #require(analytics.lastSendStarted)
                        #expect(returned >= last, "run \(run) returned before the last event was sent")
                        #expect(returned - started < Bounds.wait, "run \(run) ended on the match, not the settle time")
                    }
                    await analytics.flush()
                    _ = try await session.stop()
                }
            } catch {
                try? await server.shutdown()
                throw error
            }
            try await server.shutdown()
        }
    }

    @Test("a failed check on a server session says when traffic reached no session, and names the stale-URL trap")
    func unattributedNote() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "one.json").path
            try write(
                #"{"requests": [{"method": "GET", "url": {"$regex": "http://127\\.0\\.0\\.1:[0-9]+/e"}}]}"#,
                to: URL(fileURLWithPath: snapshot))
            let server = try CaptureServer(configuration: .init())
            let url = try await server.start()
            do {
                let client = TracksnapClient(baseURL: url)
                let session = try await client.startSession(name: "mine")
                _ = try await client.startSession(name: "another test's")
                // No session hint while two sessions are open: neither gets it.
                _ = try await URLSession.shared.data(from: url.appending(path: "e"))
                await withKnownIssue {
                    await assertTracking(session, matches: snapshot, record: .never, timeout: .milliseconds(300))
                } matching: { issue in
                    let message = text(of: issue)
                    return message.contains("missing") && message.contains("1 request that no session got")
                        && message.contains("A common trap is a stale session URL")
                        && message.contains("X-Tracksnap-Session: \(session.id)")
                }
            } catch {
                try? await server.shutdown()
                throw error
            }
            try await server.shutdown()
        }
    }
}
