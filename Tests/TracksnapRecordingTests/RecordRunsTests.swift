import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// A snapshot recorded from one run of a client passes on the next run of the same flow, and
/// still fails on every real change; recording from several runs learns what differs.
@Suite("Recording from one run, validating the next")
struct RecordRunsTests {
    static func requests(_ client: AnalyticsClientModel) throws -> [CapturedRequest] {
        try CaptureFile.read(data: Data(client.ndjson().utf8), file: "run-\(client.seed).ndjson")
    }

    static func findings(_ snapshot: JSONValue, _ requests: [CapturedRequest]) throws -> [Finding] {
        let parsed = try Snapshot.parse(document: JSONDocument(file: "s.json", value: snapshot, locations: [:]))
        return SnapshotValidator().validate(parsed, requests: requests, profile: .builtInDefault).findings
    }

    /// The snapshot recorded from the unchanged client's first run, through the default profile.
    static func recordedFromFirstRun() throws -> JSONValue {
        try SnapshotRecorder(profile: .builtInDefault).snapshot(
            from: requests(AnalyticsClientModel(seed: 1, port: 41_589)), name: "shop")
    }

    @Test("recorded from run 1 through the default profile, run 2 (new ids, times, port) passes with no findings")
    func secondRunPasses() throws {
        let snapshot = try Self.recordedFromFirstRun()
        let second = try Self.requests(AnalyticsClientModel(seed: 2, port: 52_113))
        let findings = try Self.findings(snapshot, second)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(try Self.findings(snapshot, Self.requests(AnalyticsClientModel(seed: 7, port: 8080))).isEmpty)
        // The data itself is kept literal.
        #expect(snapshot.at("/requests/0/parameters/screen") == "Home")
        #expect(
            snapshot.at("/requests/1/body/batch/0/properties") == [
                "product_id": "p-42", "price": .number("12.5"), "quantity": .number("2"), "currency": "EUR",
            ])
        #expect(snapshot.at("/requests/1/body/batch/1/event") == "Product Added")
        #expect(snapshot.at("/requests/2/parameters/value") == "59.5")
    }

    /// What each change must produce against the snapshot of the unchanged client.
    static let changes: [(AnalyticsClientModel.Change, FindingCode)] = [
        (.renameEvent, .valueMismatch), (.dropProperty, .missingKey), (.changeConstant, .valueMismatch),
        (.sendTwice, .countMismatch),
    ]

    @Test("a second run that really changed the tracking fails with exactly one finding", arguments: changes)
    func changedRunFails(change: AnalyticsClientModel.Change, code: FindingCode) throws {
        let snapshot = try Self.recordedFromFirstRun()
        let findings = try Self.findings(
            snapshot, Self.requests(AnalyticsClientModel(seed: 2, port: 52_113, change: change)))
        #expect(findings.map(\.code) == [code], "\(findings.map(\.message))")
    }

    @Test(
        "through a profile that decodes events, run 2 passes and each real change is exactly one finding",
        arguments: [nil] + changes.map(\.0))
    func eventLevel(change: AnalyticsClientModel.Change?) throws {
        let profile = try recordingProfile(
            #"{"decoders": ["segment"], "record": {"context": ["messageId", "timestamp", "context.installId"]}}"#)
        let snapshot = try SnapshotRecorder(profile: profile).snapshot(
            from: Self.requests(AnalyticsClientModel(seed: 1, port: 41_589)), name: "shop")
        #expect(snapshot["events"]?.arrayValue?.count == 2)
        let parsed = try Snapshot.parse(document: JSONDocument(file: "s.json", value: snapshot, locations: [:]))
        let run = try Self.requests(AnalyticsClientModel(seed: 2, port: 52_113, change: change))
        let findings = SnapshotValidator().validate(parsed, requests: run, profile: profile).findings
        let expected = Self.changes.first { $0.0 == change }.map { [$0.1] } ?? []
        #expect(findings.map(\.code) == expected, "\(findings.map(\.message))")
    }

    @Test(
        "from two runs: values that differ become matchers, values equal in both stay literal unless clock- or random-made; a third run passes"
    )
    func learnsFromTwoRuns() throws {
        let runs = try [1, 2].map {
            try Self.requests(AnalyticsClientModel(seed: $0, port: 41_000 + Int($0), sendsOrderReference: true))
        }
        let snapshot = try SnapshotRecorder(profile: .builtInDefault).snapshot(fromRuns: runs, name: "shop")
        let added = "/requests/1/body/batch/1/properties"
        #expect(
            snapshot.at(added + "/order_ref") == ["$regex": "o\\-[0-9]+"],
            "differs, no volatile shape: the digits that differ")
        #expect(
            snapshot.at("/requests/1/body/context/storeId") == .string(AnalyticsClientModel.storeID),
            "a long id equal in both runs is data")
        #expect(
            snapshot.at("/requests/1/body/context/installId")?["$regex"] != nil,
            "a UUID equal in both runs is still an install's random id")
        #expect(snapshot.at("/requests/1/body/batch/0/messageId")?["$regex"] != nil)
        #expect(snapshot.at("/requests/1/body/batch/0/properties/price") == .number("12.5"))

        let single = try SnapshotRecorder(profile: .builtInDefault).snapshot(from: runs[0], name: "shop")
        #expect(
            single.at("/requests/1/body/context/storeId") == ["$regex": "[0-9]+"],
            "from one run, the same id looks random")
        #expect(single.at(added + "/order_ref")?.stringValue != nil, "from one run, o-1234 is data")

        let third = try Self.requests(AnalyticsClientModel(seed: 3, port: 63_000, sendsOrderReference: true))
        #expect(try Self.findings(snapshot, third).isEmpty)
        for (change, code) in Self.changes {
            let changed = try Self.requests(
                AnalyticsClientModel(seed: 3, port: 63_000, change: change, sendsOrderReference: true))
            #expect(try Self.findings(snapshot, changed).map(\.code) == [code], "\(change)")
        }
    }

    @Test("with generalize off, two runs still learn what differs (as its common shape), and nothing else")
    func twoRunsWithoutShapes() throws {
        let profile = try recordingProfile(#"{"record": {"generalize": false}}"#)
        let runs = try [1, 2].map { try Self.requests(AnalyticsClientModel(seed: $0, port: 41_000 + Int($0))) }
        let snapshot = try SnapshotRecorder(profile: profile).snapshot(fromRuns: runs, name: "shop")
        #expect(snapshot.at("/requests/1/body/context/installId") == .string(AnalyticsClientModel.installID))
        #expect(snapshot.at("/requests/1/body/batch/0/messageId")?["$regex"] != nil)
        #expect(
            snapshot.at("/requests/0/url") == [
                "$regex": #"http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):[0-9]+\/e"#
            ], "ports differ: their common shape")
        #expect(snapshot.at("/requests/1/body/batch/0/properties/price") == .number("12.5"))
    }

    struct Mismatch: Sendable, CustomTestStringConvertible {
        let change: AnalyticsClientModel.Change
        let message: String
        var testDescription: String { change.rawValue }
    }

    @Test(
        "runs that are not the same flow are refused, naming the first difference",
        arguments: [
            Mismatch(
                change: .sendTwice,
                message:
                    "run2.ndjson: error: not the same flow as the first run: request #2 GET http://127.0.0.1:41002/e is sent more times than in the first run (run1.ndjson); the first run has 2 requests, this one 3"
            ),
            Mismatch(change: .renameEvent, message: ""),
        ])
    func refusesOtherFlows(_ mismatch: Mismatch) throws {
        let profile = try recordingProfile(#"{"decoders": ["segment"]}"#)
        let first = try Self.requests(AnalyticsClientModel(seed: 1, port: 41_001))
        let second = try Self.requests(AnalyticsClientModel(seed: 2, port: 41_002, change: mismatch.change))
        #expect {
            try SnapshotRecorder(profile: profile).snapshot(
                fromRuns: [first, second], name: "shop", runNames: ["run1.ndjson", "run2.ndjson"])
        } throws: { error in
            let text = (error as? InputError)?.description ?? ""
            if mismatch.message.isEmpty {
                return text
                    == #"run2.ndjson: error: not the same flow as the first run: event #2 "Product Added To Cart" has no counterpart in the first run (run1.ndjson): there, event #2 "Product Added" stands in its place"#
            }
            return text == mismatch.message
        }
    }

    @Test("a later run missing one of the first run's requests is refused, naming it and both counts")
    func refusesShorterRun() throws {
        let first = try Self.requests(AnalyticsClientModel(seed: 1, port: 41_001))
        let second = try Array(Self.requests(AnalyticsClientModel(seed: 2, port: 41_002)).dropLast())
        #expect {
            try SnapshotRecorder(profile: .builtInDefault).snapshot(fromRuns: [first, second], name: "shop")
        } throws: { error in
            (error as? InputError)?.description
                == "run 2: error: not the same flow as the first run: the first run's request #3 POST http://127.0.0.1:41001/v1/devices/"
                + "\(first[2].url.split(separator: "/")[4])/events (run 1) has no counterpart in this run; the first run has 3 requests, this one 2"
        }
    }
}
