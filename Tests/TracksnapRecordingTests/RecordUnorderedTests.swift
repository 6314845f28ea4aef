import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

/// Recording from several runs of an SDK whose batch array comes in any order learns
/// `$unordered`, pairing its elements by content, so that an event's name stays a literal.
@Suite("Recording an array whose order varies between runs")
struct RecordUnorderedTests {
    static func run(_ model: SignalBatchModel) -> [CapturedRequest] {
        [post(SignalBatchModel.url, json: model.body, id: Int(model.seed))]
    }

    static func findings(_ snapshot: JSONValue, _ requests: [CapturedRequest]) throws -> [Finding] {
        let parsed = try Snapshot.parse(document: JSONDocument(file: "s.json", value: snapshot, locations: [:]))
        return SnapshotValidator().validate(parsed, requests: requests, profile: .builtInDefault).findings
    }

    /// Two runs whose batches hold the same signals in different orders.
    static func twoRuns() throws -> [[CapturedRequest]] {
        let first = SignalBatchModel(seed: 1)
        let second = try #require((UInt64(2)...20).map { SignalBatchModel(seed: $0) }.first { $0.order != first.order })
        return [run(first), run(second)]
    }

    @Test("from two runs in different orders: $unordered learnt, each type literal, ten more runs pass")
    func learnsUnordered() throws {
        let recording = try SnapshotRecorder(profile: .builtInDefault).recording(
            from: try Self.twoRuns(), name: "signals", existing: nil, file: "signals")
        let snapshot = recording.snapshot
        let elements = try #require(snapshot.at("/requests/0/body/$unordered")?.arrayValue)
        #expect(
            Set(elements.compactMap { $0["type"]?.stringValue })
                == ["appLaunched", "screenShown", "itemAdded", "checkoutStarted"],
            "each signal's type stays a literal: \(elements)")
        #expect(
            recording.generalized.contains {
                $0.path == "/requests/0/body" && $0.reason == "the runs sent its elements in different orders"
            }, "\(recording.generalized)")
        #expect(
            recording.generalized.contains {
                $0.path.hasPrefix("/requests/0/body/$unordered/") && $0.path.hasSuffix("/sessionID")
            })
        #expect(!recording.generalized.contains { $0.path.hasSuffix("/type") })

        for seed in UInt64(10)..<20 {
            let findings = try Self.findings(snapshot, Self.run(SignalBatchModel(seed: seed)))
            #expect(findings.isEmpty, "seed \(seed): \(findings.map(\.message))")
        }
    }

    @Test("after learning, a renamed signal type is exactly one finding, a dropped signal one, a moved one none")
    func learntSnapshotCatchesChanges() throws {
        let snapshot = try SnapshotRecorder(profile: .builtInDefault).snapshot(fromRuns: try Self.twoRuns(), name: "s")
        for seed in UInt64(30)..<36 {
            let renamed = try Self.findings(snapshot, Self.run(SignalBatchModel(seed: seed, change: .renameSignal)))
            #expect(renamed.map(\.code) == [.valueMismatch], "\(renamed.map(\.message))")
            #expect(renamed.first?.path.hasPrefix("/requests/0/body/$unordered/") == true)
            #expect(renamed.first?.path.hasSuffix("/type") == true)
            #expect(renamed.first?.actual == "checkoutBegan")

            let dropped = try Self.findings(snapshot, Self.run(SignalBatchModel(seed: seed, change: .dropSignal)))
            #expect(dropped.map(\.code) == [.missingKey], "\(dropped.map(\.message))")
            #expect(dropped.first?.expected?["type"] == "itemAdded")

            let queued = try Self.findings(snapshot, Self.run(SignalBatchModel(seed: seed, queued: true)))
            #expect(queued.isEmpty, "\(queued.map(\.message))")
        }
    }

    @Test("runs that agree on the order keep a plain array, compared element by element")
    func sameOrderStaysAnArray() throws {
        let runs = [
            Self.run(SignalBatchModel(seed: 1, queued: true)), Self.run(SignalBatchModel(seed: 2, queued: true)),
        ]
        let snapshot = try SnapshotRecorder(profile: .builtInDefault).snapshot(fromRuns: runs, name: "s")
        #expect(snapshot.at("/requests/0/body/0/type") == "appLaunched")
        #expect(snapshot.at("/requests/0/body/3/type") == "checkoutStarted")
        let single = try SnapshotRecorder(profile: .builtInDefault).snapshot(from: runs[0], name: "s")
        #expect(single.at("/requests/0/body")?.arrayValue != nil, "one run tells nothing of order")
    }

    @Test("re-recording a $unordered snapshot from a run in another order keeps it, in the snapshot's order")
    func reRecordingKeepsUnordered() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unordered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("signals.json").path
        let recorder = SnapshotRecorder(profile: .builtInDefault)
        try recorder.write(recorder.snapshot(fromRuns: try Self.twoRuns(), name: "signals"), to: path)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let after = try record(Self.run(SignalBatchModel(seed: 77)), to: path, existing: true)
        let types = { (text: String) -> [String] in
            let document = try JSONDocument.parse(Array(text.utf8), file: path)
            return (document.value.at("/requests/0/body/$unordered")?.arrayValue ?? []).compactMap {
                $0["type"]?.stringValue
            }
        }
        #expect(try types(after) == types(before), "still $unordered, in the snapshot's order")
        #expect(try validateFile(path, Self.run(SignalBatchModel(seed: 79))).passed)
        let changed = try record(Self.run(SignalBatchModel(seed: 78, change: .renameSignal)), to: path, existing: true)
        #expect(
            try types(changed) == types(before).map { $0 == "checkoutStarted" ? "checkoutBegan" : $0 },
            "the renamed signal re-recorded in its place, the others kept: \(changed)")
    }
}

extension SignalBatchModel {
    /// The signal types in the order this run sends them.
    var order: [String] {
        body.components(separatedBy: "\"type\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
