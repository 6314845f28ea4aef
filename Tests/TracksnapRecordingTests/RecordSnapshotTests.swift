import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Recording a snapshot from captured traffic")
struct RecordSnapshotTests {
    @Test(
        "a recorded snapshot lists the selected requests in capture order: method, url without query, parameters, body")
    func shape() throws {
        let profile = try recordingProfile(#"{"name": "shop", "filter": {"host": "t.example.com"}}"#)
        let requests = [
            get("https://t.example.com/track?ev=home&tag=a&tag=b", id: 1),
            get("https://cdn.example.com/logo.png", id: 2),
            post(
                "https://t.example.com/batch", json: #"{"event": "buy", "revenue": 12.50, "items": [{"sku": "A"}]}"#,
                id: 3),
            CapturedRequest(id: "4", method: "POST", url: "https://t.example.com/raw", body: .text("hello\nworld")),
        ]
        let snapshot = try SnapshotRecorder(profile: profile).snapshot(from: requests, name: "checkout")
        #expect(snapshot["name"] == "checkout")
        #expect(snapshot["validator"] == "shop")
        #expect(snapshot.objectValue?.keys.sorted() == ["name", "order", "requests", "validator"])
        // Three separate requests may arrive in any order.
        #expect(snapshot["order"] == "any")
        let entries = try #require(snapshot["requests"]?.arrayValue)
        #expect(entries.count == 3)
        #expect(
            entries[0] == [
                "method": "GET", "url": "https://t.example.com/track",
                "parameters": ["ev": "home", "tag": ["a", "b"]],
            ])
        #expect(entries[1].at("/body/revenue") == .number("12.50"))
        #expect(entries[1].at("/body/items/0/sku") == "A")
        #expect(entries[1]["parameters"] == nil, "an empty parameters object is left out")
        #expect(entries[1]["headers"] == nil, "headers are not recorded unless the profile lists them")
        #expect(entries[2]["body"] == "hello\nworld")
    }

    @Test("headers the profile's record.headers lists are kept, lower-cased; the others are left out")
    func listedHeaders() throws {
        let profile = try recordingProfile(#"{"record": {"headers": ["X-Client"]}}"#)
        let request = get(
            "https://t.example.com/track?ev=home",
            headers: ["X-Client": "ios/4.2", "User-Agent": "Shop/4.2", "Accept": "*/*"])
        let entry = try SnapshotRecorder(profile: profile).snapshot(from: [request], name: "s").at("/requests/0")
        #expect(entry?["headers"] == ["x-client": "ios/4.2"])
    }

    @Test("fields the profile ignores are left out, by pointer with * and by bare key at any depth")
    func ignoredFields() throws {
        let profile = try recordingProfile(#"{"ignore": ["/parameters/cb", "/body/batch/*/messageId", "sentAt"]}"#)
        let requests = [
            get("https://t.example.com/track?ev=home&cb=123", id: 1),
            post(
                "https://t.example.com/batch",
                json:
                    #"{"sentAt": "now", "batch": [{"event": "a", "messageId": "m1", "context": {"sentAt": "then"}}]}"#,
                id: 2),
        ]
        let snapshot = try SnapshotRecorder(profile: profile).snapshot(from: requests, name: "s")
        #expect(snapshot.at("/requests/0/parameters") == ["ev": "home"])
        #expect(snapshot.at("/requests/1/body") == ["batch": [["event": "a", "context": [:]]]])
    }

    @Test("a form body is recorded as parameters, not repeated as text")
    func formBody() throws {
        let entry = try SnapshotRecorder(profile: .builtInDefault)
            .snapshot(from: [form("https://t.example.com/collect?v=1", "t=event&ea=buy+now")], name: "s").at(
                "/requests/0")
        #expect(entry?["parameters"] == ["v": "1", "t": "event", "ea": "buy now"])
        #expect(entry?["body"] == nil)
    }

    @Test("data keys beginning with $ are written as $$ so they are not read as matchers, and still match as a subset")
    func dollarKeys() throws {
        let requests = [
            post(
                "https://t.example.com/track",
                json: #"{"event": "open", "properties": {"$section": "cart", "plan": "pro"}}"#)
        ]
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            try record(requests, to: path)
            #expect(try json(at: path).at("/requests/0/body/properties") == ["$$section": "cart", "plan": "pro"])
            #expect(try validateFile(path, requests).findings.isEmpty)
            let changed = [
                post(
                    "https://t.example.com/track",
                    json: #"{"event": "open", "properties": {"$section": "home", "plan": "pro", "$experiment": "x"}}"#)
            ]
            let findings = try validateFile(path, changed).findings
            #expect(findings.map(\.path) == ["/requests/0/body/properties/$$section"])
        }
    }

    @Test(
        "a profile named by a path the snapshot's Validators would not find by name is recorded by that path, and the snapshot validates"
    )
    func profileByPath() throws {
        try withTemporaryDirectory { directory in
            let elsewhere = directory.appending(path: "elsewhere/shop.json")
            try FileManager.default.createDirectory(
                at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"filter": {"host": "t.example.com"}}"#.utf8).write(to: elsewhere)
            let inValidators = directory.appending(path: "Validators/shop.json")
            try FileManager.default.createDirectory(
                at: inValidators.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"filter": {"host": "t.example.com"}}"#.utf8).write(to: inValidators)
            let requests = [get("https://t.example.com/track?ev=home")]
            for (profile, written) in [
                (elsewhere.path, elsewhere.path), (inValidators.path, "shop"), ("segment", "segment"),
            ] {
                let path = directory.appending(path: "Snapshots/s.json").path
                let workspace = Workspace().checking(path)
                _ = try SnapshotRecorder(profile: profile, existing: nil, workspace: workspace)
                    .record(requests, snapshotAt: path, mode: .all)
                #expect(try json(at: path)["validator"] == .string(written))
                #expect(try PreparedCheck(snapshotAt: path).validate(requests).findings.isEmpty)
            }
        }
    }

    @Test("the file is sorted two-space pretty JSON with LF line ends and a final newline, the same bytes every time")
    func stableBytes() throws {
        let requests = [
            post(
                "https://t.example.com/batch",
                json: #"{"z": 1, "a": {"y": true, "b": null}, "token": "tok_123456", "e": {}}"#, id: 1),
            get("https://t.example.com/track?b=2&a=1", id: 2),
        ]
        try withTemporaryDirectory { directory in
            let first = directory.appending(path: "a.json").path
            let second = directory.appending(path: "b.json").path
            let text = try record(requests, to: first)
            #expect(try record(requests, to: second) == text)
            #expect(
                try record(requests, to: first, existing: true) == text, "re-recording the same traffic changes nothing"
            )
            #expect(text.hasSuffix("}\n") && !text.hasSuffix("\n\n"))
            #expect(!text.contains("\r") && !text.contains("\t"))
            #expect(text.contains("\n  \"name\": \"test\",\n"))
            #expect(
                text.contains("\n        \"token\": { \"$type\": \"string\" },\n"), "a matcher stands on its key's line"
            )
            #expect(text.contains("\n        \"e\": {},\n"))
            #expect(
                try json(at: first) == SnapshotRecorder(profile: .builtInDefault).snapshot(from: requests, name: "test")
            )
            let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: ":")[0] }
            #expect(keys == keys.sorted())
        }
    }

    @Test(
        "writing is atomic: no temporary file is left, an existing file is replaced whole, missing directories are made"
    )
    func atomicWrite() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "nested/deeper/s.json").path
            try record([get("https://t.example.com/a")], to: path)
            try record([get("https://t.example.com/b")], to: path)
            let left = try FileManager.default.contentsOfDirectory(
                atPath: directory.appending(path: "nested/deeper").path)
            #expect(left == ["s.json"])
            #expect(try json(at: path).at("/requests/0/url") == "https://t.example.com/b")
        }
    }

    @Test("writing into a path that cannot hold a file fails with an error naming it, leaving nothing behind")
    func unwritable() throws {
        try withTemporaryDirectory { directory in
            let blocker = directory.appending(path: "file")
            try Data("x".utf8).write(to: blocker)
            let recorder = SnapshotRecorder(profile: .builtInDefault)
            #expect(throws: InputError.self) {
                try recorder.write(["requests": []], to: blocker.appending(path: "s.json").path)
            }
            let directoryTarget = directory.appending(path: "dir.json")
            try FileManager.default.createDirectory(
                at: directoryTarget.appending(path: "inside"), withIntermediateDirectories: true)
            do {
                try recorder.write(["requests": []], to: directoryTarget.path)
                Issue.record("writing over a non-empty directory should fail")
            } catch {
                #expect("\(error)".contains("dir.json"))
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["dir.json", "file"])
        }
    }
}
