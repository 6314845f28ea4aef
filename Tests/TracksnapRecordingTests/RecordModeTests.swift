import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Record modes and pending snapshots")
struct RecordModeTests {
    let recorder = SnapshotRecorder(profile: .builtInDefault)

    @Test(
        "missing records only a file that does not exist; all always; never nothing",
        arguments: [
            (RecordMode.missing, false, true), (.missing, true, false), (.all, false, true), (.all, true, true),
            (.never, false, false), (.never, true, false),
        ])
    func modes(mode: RecordMode, exists: Bool, records: Bool) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            if exists { try record(screenRequests(["old"]), to: path) }
            let outcome = try recorder.record(screenRequests(["home", "cart"]), snapshotAt: path, mode: mode)
            #expect(outcome.recorded == records)
            #expect(FileManager.default.fileExists(atPath: path) == (exists || records))
            if records {
                #expect(outcome.requests == 2 && outcome.file == path)
                #expect(try validateFile(path, screenRequests(["home", "cart"])).passed)
            } else {
                #expect(outcome.reason != nil)
            }
        }
    }

    @Test("failed records only when validation against the existing snapshot fails")
    func failedMode() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            try record(screenRequests(["home"]), to: path)
            let before = try String(contentsOfFile: path, encoding: .utf8)
            let passing = try recorder.record(screenRequests(["home"]), snapshotAt: path, mode: .failed)
            #expect(!passing.recorded)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
            let failing = try recorder.record(screenRequests(["home", "cart"]), snapshotAt: path, mode: .failed)
            #expect(failing.recorded && failing.requests == 2)
        }
    }

    @Test("pending writes X.new.json beside X.json; accept moves it over, reject deletes it")
    func pendingAcceptReject() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            let original = try record(screenRequests(["home"]), to: path)
            let outcome = try recorder.record(
                screenRequests(["home", "cart"]), snapshotAt: path, mode: .all, pending: true)
            let pending = directory.appending(path: "s.new.json").path
            #expect(outcome.file == pending)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
            #expect(try PendingSnapshot.find(in: [directory.path]) == [pending])
            #expect(try PendingSnapshot.find(in: [path]) == [pending])

            let pendingText = try String(contentsOfFile: pending, encoding: .utf8)
            #expect(try PendingSnapshot.accept(path) == path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == pendingText)
            #expect(!FileManager.default.fileExists(atPath: pending))

            _ = try recorder.record(screenRequests(["other"]), snapshotAt: path, mode: .all, pending: true)
            #expect(try PendingSnapshot.reject(pending) == pending)
            #expect(!FileManager.default.fileExists(atPath: pending))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == pendingText)
            #expect(throws: InputError.self) { try PendingSnapshot.accept(path) }
            #expect(throws: InputError.self) { try PendingSnapshot.reject(path) }
        }
    }

    @Test(
        "a pending file that is no snapshot (cut short, edited into something else) is not accepted: the snapshot is kept, and so is the pending file",
        arguments: [#"{"requests": ["#, #"{"requests": {"url": "https://t.example/e"}}"#])
    func brokenPendingIsNotAccepted(text: String) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            let original = try record(screenRequests(["home"]), to: path)
            let pending = directory.appending(path: "s.new.json").path
            try text.write(toFile: pending, atomically: true, encoding: .utf8)
            let error = try #require(throws: InputError.self) { try PendingSnapshot.accept(path) }
            #expect(error.diagnostics.count == 2 && error.diagnostics.allSatisfy { $0.file == pending }, "\(error)")
            #expect(
                error.diagnostics.last?.message
                    == "not accepted, since it is no snapshot: \(path) is kept as it is; fix it, or reject it (tracksnap reject \(path))"
            )
            #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
            #expect(try String(contentsOfFile: pending, encoding: .utf8) == text)
            // Without a snapshot yet, nothing is written.
            try FileManager.default.removeItem(atPath: path)
            let first = try #require(throws: InputError.self) { try PendingSnapshot.accept(path) }
            #expect(first.description.contains("no snapshot: nothing is written"), "\(first)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test(
        "pending paths pair X.json with X.new.json",
        arguments: [
            ("Snapshots/a.json", "Snapshots/a.new.json"), ("Snapshots/a.new.json", "Snapshots/a.new.json"),
            ("a", "a.new.json"),
        ])
    func pendingPaths(snapshot: String, pending: String) {
        #expect(PendingSnapshot.path(for: snapshot) == pending)
        #expect(
            PendingSnapshot.snapshotPath(for: pending)
                == (snapshot.hasSuffix(".json")
                    ? snapshot.replacingOccurrences(of: ".new.json", with: ".json")
                    : pending.replacingOccurrences(of: ".new", with: "")))
    }

    @Test("a line diff shows removed and added lines with context, and nothing for equal texts")
    func lineDiff() throws {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var newLines = (1...20).map { "line \($0)" }
        newLines[4] = "line five"
        newLines.insert("inserted", at: 15)
        let diff = LineDiff.unified(old: old, new: newLines.joined(separator: "\n") + "\n", oldName: "a", newName: "b")
        let lines = diff.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["--- a", "+++ b"])
        #expect(lines.filter { $0.hasPrefix("@@") } == ["@@ -2,7 +2,7 @@", "@@ -13,6 +13,7 @@"])
        #expect(lines.contains("-line 5") && lines.contains("+line five") && lines.contains("+inserted"))
        let removed = try #require(lines.firstIndex(of: "-line 5"))
        let added = try #require(lines.firstIndex(of: "+line five"))
        #expect(removed < added)
        #expect(LineDiff.unified(old: old, new: old, oldName: "a", newName: "b").isEmpty)
        #expect(LineDiff.unified(old: "", new: "x\n", oldName: "a", newName: "b").hasSuffix("+x\n"))
    }
}
