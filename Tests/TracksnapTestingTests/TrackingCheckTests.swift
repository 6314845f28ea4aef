import Foundation
import Synchronization
import Testing
import TracksnapDecoders
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapTesting

/// A stand-in for the recorder: remembers what it was asked to write.
final class WriterSpy: Sendable {
    struct Call: Sendable, Equatable {
        var count: Int
        var path: String
        var profile: String?
    }
    let calls = Mutex<[Call]>([])

    func write(_ requests: [CapturedRequest], _ path: String, _ profile: String?, _ workspace: Workspace) throws {
        calls.withLock { $0.append(Call(count: requests.count, path: path, profile: profile)) }
    }
}

struct DiskFull: Error, CustomStringConvertible {
    var description: String { "no space left on device" }
}

@Suite("The decision behind an assertion: validate, record, or fail")
struct TrackingCheckTests {
    let testFile = #filePath

    func run(
        _ requests: [CapturedRequest], _ snapshot: String, record: RecordMode? = nil,
        configuration: TracksnapConfiguration = TracksnapConfiguration(), environment: [String: String] = [:],
        spy: WriterSpy = WriterSpy()
    ) -> TrackingCheck.Outcome {
        TrackingCheck.run(
            requests, snapshot: snapshot, validator: nil, record: record, configuration: configuration,
            environment: environment, testFile: testFile, write: spy.write)
    }

    @Test("missing (the local default) records a snapshot that does not exist, and the test fails to have it looked at")
    func missingRecords() {
        let spy = WriterSpy()
        let outcome = run(checkoutRequests(), "Fixtures/Snapshots/new.json", spy: spy)
        #expect(
            spy.calls.withLock { $0 } == [WriterSpy.Call(count: 2, path: fixture("Snapshots/new.json"), profile: nil)])
        #expect(outcome.failure?.contains("Recorded the snapshot") == true)
        #expect(outcome.failure?.contains("from 2 captured requests (record mode `missing`)") == true)
        #expect(outcome.result == nil)
    }

    @Test("missing checks a snapshot that exists and records nothing")
    func missingValidates() {
        let spy = WriterSpy()
        let outcome = run(checkoutRequests(), "Fixtures/Snapshots/checkout.json", spy: spy)
        #expect(outcome.failure == nil)
        #expect(outcome.result?.passed == true)
        #expect(spy.calls.withLock { $0.isEmpty })
    }

    @Test("with CI set, a missing snapshot fails and says why, and nothing is written")
    func ciNever() {
        let spy = WriterSpy()
        let outcome = run(checkoutRequests(), "Fixtures/Snapshots/new.json", environment: ["CI": "true"], spy: spy)
        #expect(outcome.failure?.contains("record mode is `never` because CI is set") == true)
        #expect(spy.calls.withLock { $0.isEmpty })
    }

    @Test("TRACKSNAP_RECORD=all re-records an existing snapshot even when it matches")
    func allRecords() {
        let spy = WriterSpy()
        let outcome = run(
            checkoutRequests(), "Fixtures/Snapshots/checkout.json",
            environment: ["TRACKSNAP_RECORD": "all", "CI": "1"], spy: spy)
        #expect(spy.calls.withLock { $0.count } == 1)
        #expect(outcome.failure?.contains("Re-recorded the snapshot") == true)
    }

    @Test("failed records only a snapshot that does not match, after showing the diff")
    func failedRecordsMismatch() {
        let spy = WriterSpy()
        let passing = run(checkoutRequests(), "Fixtures/Snapshots/checkout.json", record: .failed, spy: spy)
        #expect(passing.failure == nil)
        #expect(spy.calls.withLock { $0.isEmpty })

        let failing = run(
            checkoutRequests(screen: "Basket"), "Fixtures/Snapshots/checkout.json", record: .failed, spy: spy)
        #expect(spy.calls.withLock { $0.count } == 1)
        let message = failing.failure ?? ""
        #expect(message.contains("value_mismatch"))
        #expect(message.contains("Re-recorded the snapshot"))
        #expect(failing.result?.passed == false)
    }

    @Test("the configuration (trait) decides when the call does not", arguments: [RecordMode.never, .missing])
    func configurationMode(mode: RecordMode) {
        let spy = WriterSpy()
        _ = run(
            checkoutRequests(), "Fixtures/Snapshots/new.json", configuration: TracksnapConfiguration(record: mode),
            environment: ["TRACKSNAP_RECORD": "all"], spy: spy)
        #expect(spy.calls.withLock { $0.count } == (mode == .missing ? 1 : 0))
    }

    @Test("a recorder failure is reported with its message")
    func writerFailure() {
        let outcome = TrackingCheck.run(
            checkoutRequests(), snapshot: "Fixtures/Snapshots/new.json", validator: nil, record: .all,
            configuration: TracksnapConfiguration(), environment: [:], testFile: testFile
        ) { _, _, _, _ in throw DiskFull() }
        #expect(outcome.failure?.hasPrefix("Could not record the snapshot") == true)
        #expect(outcome.failure?.contains(DiskFull().description) == true)
    }

    @Test("an unreadable TRACKSNAP_RECORD fails the assertion rather than guessing")
    func badEnvironment() {
        let outcome = run(
            checkoutRequests(), "Fixtures/Snapshots/checkout.json", environment: ["TRACKSNAP_RECORD": "sometimes"])
        #expect(
            outcome.failure
                == "tracksnap: TRACKSNAP_RECORD=sometimes is not a record mode; use one of missing, all, failed, never")
    }

    @Test("the configured validators directory is where profile names are looked up")
    func validatorsDirectory() {
        let outcome = run(
            checkoutRequests(), "Fixtures/Snapshots/filtered.json", record: .never,
            configuration: TracksnapConfiguration(validatorsDirectory: "/nonexistent"))
        #expect(outcome.failure?.contains("no validator profile \"collect-only\"") == true)
    }

    @Test(
        "snapshot paths: relative to the test file's directory, or absolute",
        arguments: [
            ("Snapshots/a.json", "/p/Tests/X/ATests.swift", "/p/Tests/X/Snapshots/a.json"),
            ("../Shared/a.json", "/p/Tests/X/ATests.swift", "/p/Tests/Shared/a.json"),
            ("/abs/a.json", "/p/Tests/X/ATests.swift", "/abs/a.json"),
        ])
    func paths(path: String, testFile: String, expected: String) {
        #expect(SnapshotLocation.resolve(path, testFile: testFile) == expected)
    }

    /// An assertion's wait over one capture, on a fixture snapshot, with its own decode cache.
    private func completion(_ snapshot: String = "Snapshots/checkout.json", count: Int? = nil, record: RecordMode)
        -> ([CapturedRequest]) -> Bool
    {
        TrackingCheck.completion(
            count: count, snapshot: fixture(snapshot), validator: nil, record: record,
            configuration: TracksnapConfiguration(), environment: [:], decodes: DecodeCache())
    }

    @Test("the async overloads wait until every expected entry is matched; a near miss counts as matched")
    func completionValidates() {
        let isComplete = completion(record: .never)
        let requests = checkoutRequests()
        #expect(!isComplete([]))
        #expect(!isComplete(Array(requests.prefix(1))))
        #expect(isComplete(requests))
        // Another capture, whose ids the first one's used: a wait of its own.
        #expect(completion(record: .never)(checkoutRequests(screen: "Basket")))
    }

    @Test("in record mode failed, a near miss does not end the wait: what settles is re-recorded whole")
    func completionFailedMode() {
        // Each capture a wait of its own: their ids are the same.
        #expect(!completion(record: .failed)(checkoutRequests(screen: "Basket")))
        #expect(completion(record: .failed)(checkoutRequests()))
    }

    @Test(
        "a count given by the caller wins; a recording waits for quiet; a check that cannot run does not wait",
        arguments: [
            (Optional(1), "Snapshots/checkout.json", RecordMode.never, [false, true]),
            (nil, "Snapshots/absent.json", RecordMode.missing, [false, false]),
            (nil, "Snapshots/checkout.json", RecordMode.all, [false, false]),
            (nil, "Snapshots/checkout.json", RecordMode.failed, [false, true]),
            (nil, "Snapshots/absent.json", RecordMode.never, [true, true]),
            (nil, "Snapshots/broken.json", RecordMode.never, [true, true]),
        ])
    func completionCases(count: Int?, snapshot: String, record: RecordMode, expected: [Bool]) {
        let isComplete = completion(snapshot, count: count, record: record)
        #expect([isComplete([]), isComplete(checkoutRequests())] == expected)
    }

    @Test(
        "nothing captured is never recorded: an empty snapshot would check nothing",
        arguments: [RecordMode.missing, .all])
    func emptyIsNotRecorded(record: RecordMode) {
        let spy = WriterSpy()
        let outcome = TrackingCheck.run(
            [], snapshot: "/nowhere/new.json", validator: nil, record: record, configuration: TracksnapConfiguration(),
            environment: [:], testFile: testFile, write: spy.write)
        #expect(
            outcome.failure?.contains("Captured no request, so the snapshot /nowhere/new.json was not recorded") == true
        )
        #expect(outcome.failure?.contains(TrackingCheck.batchingAdvice) == true)
        #expect(spy.calls.withLock { $0 }.isEmpty)
    }

    @Test("nothing captured against a snapshot: the failure says that SDKs batch on a timer and how to flush")
    func emptyAgainstSnapshot() {
        let outcome = run([], "Fixtures/Snapshots/checkout.json")
        let message = outcome.failure ?? ""
        #expect(message.contains("Captured no request."))
        #expect(message.contains(TrackingCheck.batchingAdvice))
        #expect(TrackingCheck.batchingAdvice.contains("flush"))
        #expect(TrackingCheck.batchingAdvice.contains("timer"))
    }

    @Test("when an expected entry is missing, the failure says what accepting would remove")
    func acceptingWouldRemove() {
        let outcome = run(Array(checkoutRequests().prefix(1)), "Fixtures/Snapshots/checkout.json")
        let message = outcome.failure ?? ""
        #expect(
            message.contains(
                "Accepting what was captured would remove 1 expected entry that nothing captured matched: "
                    + "/requests/1 POST https://collect.example/v1/track (line 8)"),
            "\(message)")
        #expect(message.contains("To accept it anyway, run the test again with TRACKSNAP_RECORD=failed."))

        let changed = run(checkoutRequests(screen: "Basket"), "Fixtures/Snapshots/checkout.json").failure ?? ""
        #expect(changed.contains("To accept what was captured, run the test again with TRACKSNAP_RECORD=failed."))
        #expect(!changed.contains("would remove"))
    }
}
