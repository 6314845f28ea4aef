import Foundation
import Synchronization
import Testing
import TracksnapCapture
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `assertTracking` on an app whose events race (`RacingCheckout`): recorded from one run or
/// learnt from four, twenty runs in process pass, and a dropped or renamed event is one finding.
@Suite("assertTracking on events that race")
struct RaceAssertionTests {
    /// The captured index of each expected entry, in snapshot order: the run's order.
    static func order(_ result: SnapshotResult) -> [Int] { result.entries.compactMap { $0.request?.index } }

    static func checkout(_ configuration: URLSessionConfiguration, events: [String] = RacingCheckout.events) async {
        await RacingCheckout.run(
            session: URLSession(configuration: configuration), base: "https://api.segment.io", events: events)
    }

    @Test(
        "recorded from one run and from four, twenty runs pass in whatever order the events arrive; a dropped and a renamed event are one finding each",
        arguments: [1, 4])
    func twentyRuns(recordedFrom runs: Int) async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            await withKnownIssue {
                await assertTracking(matches: snapshot, runs: runs, validator: "segment", record: .all) {
                    await Self.checkout($0)
                }
            } matching: {
                text(of: $0).contains("Recorded the snapshot")
            }
            let written = try String(contentsOfFile: snapshot, encoding: .utf8)
            #expect(written.contains(#""order": "any""#), "\(written)")

            let results = await assertTracking(matches: snapshot, runs: 20, validator: "segment", record: .never) {
                await Self.checkout($0)
            }
            #expect(results.count == 20 && results.allSatisfy(\.passed))
            #expect(Set(results.map(Self.order)).count > 1, "the events did not race: \(results.map(Self.order))")

            for (events, code) in [
                (["Order Completed", "Checkout Started"], FindingCode.missingEvent),
                (["Checkout Started", "Coupon Applied", "Order Placed"], .valueMismatch),
            ] {
                var changed: [SnapshotResult] = []
                await withKnownIssue {
                    changed = await assertTracking(
                        matches: snapshot, runs: 1, validator: "segment", record: .never
                    ) { await Self.checkout($0, events: events) }
                }
                #expect(changed.first?.findings.map(\.code) == [code], "\(changed.first?.findings ?? [])")
            }
        }
    }

    @Test("a snapshot that says strict is validated strictly, and its failure advises order any, not re-recording")
    func strictAdvice() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "checkout.json").path
            await withKnownIssue {
                await assertTracking(matches: snapshot, runs: 1, validator: "segment", record: .all) {
                    await Self.checkout($0)
                }
            }
            let strict = try String(contentsOfFile: snapshot, encoding: .utf8).replacingOccurrences(
                of: #""order": "any""#, with: #""order": "strict""#)
            try strict.write(toFile: snapshot, atomically: true, encoding: .utf8)
            let failures = Mutex<[String]>([])
            // Twenty runs: some arrive in the recorded order, the others fail on order alone.
            for _ in 0..<20 {
                await withKnownIssue(isIntermittent: true) {
                    await assertTracking(matches: snapshot, runs: 1, validator: "segment", record: .never) {
                        await Self.checkout($0)
                    }
                } matching: { issue in
                    failures.withLock { $0.append(text(of: issue)) }
                    return true
                }
            }
            let seen = failures.withLock { $0 }
            #expect(!seen.isEmpty, "twenty runs all arrived in the recorded order")
            for failure in seen {
                #expect(
                    failure.contains("order_mismatch") || failure.contains("out of the expected order"), "\(failure)")
                #expect(failure.contains(SnapshotResult.orderAdvice(file: snapshot)), "\(failure)")
                #expect(!failure.contains("TRACKSNAP_RECORD=failed"))
            }
        }
    }
}
