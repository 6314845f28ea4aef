import Foundation
import Testing
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

@Suite("The decision behind assertTracking across runs: record from all, or validate each")
struct TrackingCheckRunsTests {
    let testFile = #filePath

    func run(_ runs: [[CapturedRequest]], _ snapshot: String, record: RecordMode?, environment: [String: String] = [:])
        -> TrackingCheck.RunsOutcome
    {
        TrackingCheck.run(
            runs: runs, snapshot: snapshot, validator: nil, record: record, configuration: TracksnapConfiguration(),
            environment: environment, testFile: testFile)
    }

    @Test("every run that matches passes, with one result per run")
    func allPass() {
        let outcome = run([checkoutRequests(), checkoutRequests()], "Fixtures/Snapshots/checkout.json", record: .never)
        #expect(outcome.failure == nil)
        #expect(outcome.results.map(\.passed) == [true, true])
    }

    @Test("only the runs that fail are reported, each with its whole diff")
    func failingRunReported() throws {
        let outcome = run(
            [checkoutRequests(), checkoutRequests(screen: "Basket"), checkoutRequests()],
            "Fixtures/Snapshots/checkout.json", record: .never)
        let message = try #require(outcome.failure)
        #expect(message.contains("in 1 of 3 runs of the flow"))
        #expect(message.contains("Run 2 of 3:") && !message.contains("Run 1 of 3") && !message.contains("Run 3 of 3"))
        #expect(message.contains("\"Basket\"") && message.contains("value_mismatch"))
        #expect(message.contains("TRACKSNAP_RECORD=failed"))
        #expect(outcome.results.map(\.passed) == [true, false, true])
    }

    @Test("a missing snapshot in CI is a failure, not a recording")
    func missingInCI() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "absent.json").path
            let outcome = run([checkoutRequests()], path, record: nil, environment: ["CI": "true"])
            #expect(outcome.failure?.contains("record mode is `never` because CI is set") == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("recording learns from every run; a run that captured nothing writes nothing")
    func recording() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "checkout.json").path
            let empty = run([checkoutRequests(), []], path, record: .all)
            #expect(empty.failure?.contains("Run 2 of 2: Captured no request") == true)
            #expect(!FileManager.default.fileExists(atPath: path))

            let second = checkoutRequests().map { request in
                var request = request
                if case .text(let text) = request.body {
                    request.body = .text(text.replacingOccurrences(of: "o-42", with: "o-77"))
                }
                return request
            }
            let recorded = run([checkoutRequests(), second], path, record: .all)
            #expect(
                recorded.failure?.contains(
                    "Recorded the snapshot \(path) from 2 runs of the flow (2, 2 captured requests") == true)
            #expect(
                recorded.failure?.contains("/requests/1/body/order_id (differs between runs)") == true,
                "\(recorded.failure ?? "")")
            #expect(run([checkoutRequests()], path, record: .never).results.map(\.passed) == [true])
        }
    }
}
