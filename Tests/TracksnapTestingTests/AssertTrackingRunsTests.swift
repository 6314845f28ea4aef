import Foundation
import Synchronization
import Testing
import TracksnapCapture
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client whose events carry values of their own, as real SDKs' do: a UUID and a timestamp
/// per event, an order id per run, and a counter of the app's launches, which no shape gives
/// away but which differs from run to run. Fire and forget: `trackCheckout()` returns at
/// once, the events leave later from a background task.
private final class VolatileAnalytics: Sendable {
    static let checkout = ["Checkout Started", "Product Added", "Order Completed"]
    private static let launches = Atomic<Int>(0)

    let session: URLSession
    let launch: Int

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration)
        launch = Self.launches.add(1, ordering: .relaxed).newValue
    }

    /// - Parameters:
    ///   - events: the events to send, in order.
    ///   - path: the collector path they are posted to.
    func trackCheckout(_ events: [String] = checkout, path: String = "collect") {
        let order = "o-\(Int.random(in: 100_000...999_999))"
        Task { [self] in
            try? await Task.sleep(for: .milliseconds(200))
            for (index, event) in events.enumerated() {
                if index > 0 { try? await Task.sleep(for: .milliseconds(150)) }
                guard let url = URL(string: "https://collect.example/\(path)") else { return }
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                let body: [String: JSONValue] = [
                    "event": .string(event), "message_id": .string(UUID().uuidString.lowercased()),
                    "sent_at": .string(Date().ISO8601Format()), "order_id": .string(order),
                    "launch": .number(String(launch)), "revenue": .number("12.5"),
                ]
                request.httpBody = Data(JSONValue.object(body).serialized().utf8)
                session.dataTask(with: request).resume()
            }
        }
    }
}

@Suite("assertTracking across several runs of a flow")
struct AssertTrackingRunsTests {
    /// Recording waits for traffic to settle: long enough for a busy machine's URLSession,
    /// which can hold a request up for seconds.
    static let recordSettle = Duration.seconds(10)

    @Test("recorded from two runs, what varies is learnt and the snapshot passes a third run and a tenth")
    func recordThenPass() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            await withKnownIssue {
                await assertTracking(
                    matches: snapshot, runs: 2, record: .missing, settle: Self.recordSettle, timeout: Bounds.wait
                ) {
                    VolatileAnalytics(configuration: $0).trackCheckout()
                }
            } matching: { issue in
                let message = text(of: issue)
                return message.contains(
                    "Recorded the snapshot \(snapshot) from 2 runs of the flow (3, 3 captured requests")
                    && message.contains("/launch (differs between runs)") && message.contains("recorded as patterns")
            }
            let written = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(written.contains("\"Order Completed\""))
            #expect(
                !written.contains(/"launch"\s*:\s*[0-9]/), "the launch counter was learnt, not written as run 1's value"
            )

            for _ in 0..<2 {
                let results = await assertTracking(
                    matches: snapshot, runs: 1, record: .never, settle: .seconds(60), timeout: Bounds.wait
                ) {
                    VolatileAnalytics(configuration: $0).trackCheckout()
                }
                #expect(results.count == 1)
                #expect(results.allSatisfy { $0.passed })
            }
        }
    }

    @Test("validating several runs fails with the whole diff of the run that dropped an event")
    func droppedEventFails() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            await withKnownIssue {
                await assertTracking(
                    matches: snapshot, runs: 2, record: .all, settle: Self.recordSettle, timeout: Bounds.wait
                ) {
                    VolatileAnalytics(configuration: $0).trackCheckout()
                }
            } matching: {
                text(of: $0).contains("from 2 runs")
            }

            var run = 0
            var results: [SnapshotResult] = []
            await withKnownIssue {
                results = await assertTracking(
                    matches: snapshot, runs: 2, record: .never, settle: Self.recordSettle, timeout: Bounds.wait
                ) {
                    run += 1
                    VolatileAnalytics(configuration: $0).trackCheckout(
                        run == 2 ? ["Checkout Started", "Product Added"] : VolatileAnalytics.checkout)
                }
            } matching: { issue in
                let message = text(of: issue)
                return message.contains("in 1 of 2 runs of the flow") && message.contains("Run 2 of 2")
                    && !message.contains("Run 1 of 2") && message.contains("3 expected, 2 captured, 1 finding")
                    && message.contains("/requests/2  POST https://collect.example/collect")
            }
            #expect(results.map(\.passed) == [true, false])
        }
    }

    @Test("runs that are not the same flow are not recorded: the test fails with the first difference")
    func differentFlows() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            var run = 0
            await withKnownIssue {
                await assertTracking(
                    matches: snapshot, runs: 2, record: .all, settle: Self.recordSettle, timeout: Bounds.wait
                ) {
                    run += 1
                    // Another endpoint from the first request on: not the same flow however many arrive in time.
                    VolatileAnalytics(configuration: $0).trackCheckout(path: run == 2 ? "collect/v2" : "collect")
                }
            } matching: { issue in
                let message = text(of: issue)
                return message.contains("Could not record") && message.contains("not the same flow")
            }
            #expect(!FileManager.default.fileExists(atPath: snapshot))
        }
    }

    @Test("plans given to the runs form check every run's decoded events too (relative to the test file)")
    func plansAcrossRuns() async throws {
        /// Sends one Segment `Order Completed` whose revenue is the given JSON.
        func order(_ revenue: String) -> (URLSessionConfiguration) async throws -> Void {
            { configuration in
                let url = try #require(URL(string: "https://api.segment.io/v1/track"))
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(
                    #"{"type": "track", "event": "Order Completed", "userId": "u1", "properties": {"revenue": \#(revenue)}}"#
                        .utf8)
                _ = try await URLSession(configuration: configuration).data(for: request)
            }
        }
        let snapshot = "Fixtures/Snapshots/order.json"
        let plan = "Fixtures/Validators/shop.plan.json"
        let passing = await assertTracking(
            matches: snapshot, runs: 2, plans: [plan], record: .never, settle: .milliseconds(200), timeout: Bounds.wait,
            order("12.5"))
        #expect(passing.count == 2 && passing.allSatisfy(\.passed))
        await withKnownIssue {
            _ = await assertTracking(
                matches: snapshot, runs: 2, plans: [plan], record: .never, settle: .milliseconds(200),
                timeout: Bounds.wait, order(#""12.5""#))
        } matching: { issue in
            let message = text(of: issue)
            return message.contains("at /properties/revenue: type:") && message.contains("shop.plan.json:7:")
        }
        // Without the plan, the snapshot alone passes the same traffic.
        let alone = await assertTracking(
            matches: snapshot, runs: 2, record: .never, settle: .milliseconds(200), timeout: Bounds.wait,
            order(#""12.5""#))
        #expect(alone.count == 2 && alone.allSatisfy(\.passed))
    }

    @Test(
        "each run's wait reads that run's requests: run 2's first batch, whose id run 1's had, is not taken for run 1's"
    )
    func eachRunWaitsOnItsOwnRequests() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "signup.json").path
            try write(
                #"{"name": "signup", "events": [{"vendor": "segment", "type": "track", "name": "Signed Up"}, {"vendor": "segment", "type": "track", "name": "Plan Chosen"}]}"#,
                to: URL(fileURLWithPath: snapshot))
            let runs = Atomic<Int>(0)
            // Run 1 sends both events in one batch (request 1). Run 2's capture numbers from 1
            // again: its request 1 holds the first event alone, marked, and the second follows
            // from the background once the wait has decoded request 1 (`DecoderCalls`). A wait
            // that took run 1's decoding for it never decodes it: the second comes too late.
            let marker = "run-2-first-" + UUID().uuidString
            DecoderCalls.watch(marker)
            let results = await assertTracking(
                matches: snapshot, runs: 2, record: .never, settle: Bounds.wait, timeout: Bounds.wait
            ) { configuration in
                let session = URLSession(configuration: configuration)
                if runs.add(1, ordering: .relaxed).newValue == 1 {
                    try await Self.sendSegmentBatch(["Signed Up", "Plan Chosen"], through: session)
                    return
                }
                try await Self.sendSegmentBatch(["Signed Up"], through: session, marker: marker)
                Task {
                    let clock = ContinuousClock()
                    let deadline = clock.now + Bounds.wait
                    while DecoderCalls.count(marker).isEmpty, clock.now < deadline {
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    if !DecoderCalls.count(marker).isEmpty {
                        try? await Self.sendSegmentBatch(["Plan Chosen"], through: session)
                    }
                }
            }
            #expect(results.count == 2 && results.allSatisfy(\.passed))
            // Run 2's first request was decoded once, for its wait and its validation both: a
            // validation that read run 1's decoding under its id would pass without it.
            #expect(DecoderCalls.count(marker) == ["segment": 1])
        }
    }

    /// Posts a Segment `/v1/batch` of `track` calls, as analytics-python sends one, its URL
    /// holding `marker` (for `DecoderCalls`).
    private static func sendSegmentBatch(
        _ events: [String], through session: URLSession, marker: String = "none"
    ) async throws {
        let batch = events.map { #"{"type": "track", "event": "\#($0)", "userId": "u-1"}"# }
        var request = URLRequest(url: try #require(URL(string: "https://api.segment.io/v1/batch?probe=\(marker)")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"batch": [\#(batch.joined(separator: ", "))]}"#.utf8)
        _ = try await session.data(for: request)
    }

    @Test("a flow that throws fails the test with its error, and nothing is recorded")
    func flowThrows() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the app did not launch" } }
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            await withKnownIssue {
                await assertTracking(matches: snapshot, runs: 2, record: .all) { _ in throw Broken() }
            } matching: {
                text(of: $0).contains("run 1 of 2 of the flow threw: the app did not launch")
            }
            #expect(!FileManager.default.fileExists(atPath: snapshot))
        }
    }
}
