import Foundation
import Testing
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Re-recording keeps the patterns that still match")
struct RecordReRecordTests {
    /// Writes a snapshot, re-records it from the requests, and returns the new JSON.
    private func rerecord(_ existing: String, _ requests: [CapturedRequest], profile: Profile = .builtInDefault) throws
        -> JSONValue
    {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            try Data(existing.utf8).write(to: URL(fileURLWithPath: path))
            try record(requests, profile: profile, to: path, existing: true)
            let result = try validateFile(path, requests, profile: profile)
            #expect(result.findings.isEmpty, "the re-recorded snapshot validates: \(result.findings.map(\.message))")
            return try json(at: path)
        }
    }

    @Test("a $regex that still matches is kept; one that no longer matches is replaced by the captured value")
    func keepsAndReplacesPatterns() throws {
        let updated = try rerecord(
            #"""
            {"name": "s", "requests": [{"method": "GET", "url": "https://t.example.com/track",
              "parameters": {"ev": "home", "sid": {"$regex": "s-[0-9a-f]{8}"}, "ts": {"$regex": "[0-9]{13}"}}}]}
            """#, [get("https://t.example.com/track?ev=home&sid=s-0c4e9a12&ts=17637")])
        #expect(updated.at("/requests/0/parameters/sid") == ["$regex": "s-[0-9a-f]{8}"])
        #expect(updated.at("/requests/0/parameters/ts") == "17637")
    }

    @Test("literals that changed are updated, $type, $any and $absent that still hold are kept, number text is kept")
    func literalsAndMatchers() throws {
        let updated = try rerecord(
            #"""
            {"name": "s", "requests": [{"method": "POST", "url": "https://t.example.com/v1/track",
              "body": {"event": "add_to_cart", "qty": 2, "price": 29.950, "user": {"$type": "string"}, "meta": {"$any": true}, "debug": {"$absent": true}}}]}
            """#,
            [
                post(
                    "https://t.example.com/v1/track",
                    json: #"{"event": "addToCart", "qty": 2, "price": 29.95, "user": "u1", "meta": [1], "extra": true}"#
                )
            ])
        #expect(
            updated.at("/requests/0/body") == [
                "event": "addToCart", "qty": 2, "price": .number("29.950"), "user": ["$type": "string"],
                "meta": ["$any": true],
                "debug": ["$absent": true], "extra": true,
            ])
    }

    @Test("entries keep their description and the file its top-level keys; gone entries are dropped, new ones added")
    func entriesAndTopLevel() throws {
        let updated = try rerecord(
            #"""
            {"$schema": "../schema.json", "description": "checkout", "name": "kept", "order": "strict", "unexpected": "fail",
             "events": [], "validator": "default",
             "requests": [
               {"description": "home screen", "method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "home"}},
               {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "gone"}},
               {"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "cart", "n": {"$regex": "[0-9]+"}}}]}
            """#, screenRequests(["home", "product"]) + [get("https://t.example.com/track?ev=cart&n=3", id: 9)])
        #expect(
            updated["$schema"] == "../schema.json" && updated["description"] == "checkout" && updated["name"] == "kept")
        #expect(updated["order"] == "strict" && updated["events"] == [])
        let entries = try #require(updated["requests"]?.arrayValue)
        #expect(entries.map { $0.at("/parameters/ev") } == ["home", "product", "cart"])
        #expect(entries[0]["description"] == "home screen")
        #expect(entries[2].at("/parameters/n") == ["$regex": "[0-9]+"])
        #expect(entries[1]["description"] == nil)
    }

    @Test("repeated requests each keep the patterns of the entry they pair with")
    func repeatedRequests() throws {
        let updated = try rerecord(
            #"""
            {"requests": [{"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "home", "cb": {"$regex": "[0-9]+"}}}]}
            """#, screenRequests(["home", "home", "home"]))
        #expect(
            updated["requests"]?.arrayValue?.map { $0.at("/parameters/cb") }
                == Array(repeating: ["$regex": "[0-9]+"], count: 3))
    }

    @Test("a literal that spelled out a secret is replaced by a matcher; a pattern on it is kept")
    func secretsStayOut() throws {
        let updated = try rerecord(
            #"""
            {"requests": [{"method": "POST", "url": "https://t.example.com/v1/track",
              "body": {"writeKey": "wk_LITERAL_123", "token": {"$regex": "tok_.*"}}}]}
            """#, [post("https://t.example.com/v1/track", json: #"{"writeKey": "wk_LITERAL_123", "token": "tok_abc"}"#)]
        )
        #expect(updated.at("/requests/0/body/writeKey") == ["$type": "string"])
        #expect(updated.at("/requests/0/body/token") == ["$regex": "tok_.*"])
    }

    @Test("ignored fields keep whatever the snapshot wrote there; unlisted headers the snapshot names are updated")
    func ignoredAndHeaders() throws {
        let profile = try recordingProfile(#"{"ignore": ["/parameters/cb"]}"#)
        let updated = try rerecord(
            #"""
            {"requests": [{"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "home", "cb": "1"},
              "headers": {"X-Client": "ios/4.1", "X-Env": {"$regex": "prod|staging"}}}]}
            """#,
            [
                get(
                    "https://t.example.com/track?ev=home&cb=999",
                    headers: ["X-Client": "ios/4.2", "X-Env": "prod", "Accept": "*/*"])
            ], profile: profile)
        #expect(updated.at("/requests/0/parameters/cb") == "1")
        #expect(updated.at("/requests/0/headers") == ["X-Client": "ios/4.2", "X-Env": ["$regex": "prod|staging"]])
    }

    @Test("a Szimpla file becomes a tracksnap snapshot: strings that matched as patterns become $regex")
    func szimpla() throws {
        let updated = try rerecord(
            #"""
            [{"url": "https://t.example.com/track?ev=home&ts=[0-9]+", "parameters": {}, "body": null}]
            """#, [get("https://t.example.com/track?ev=home&ts=123")])
        #expect(updated["requests"]?.arrayValue?.count == 1)
        #expect(updated.at("/requests/0/parameters") == ["ev": "home", "ts": ["$regex": "[0-9]+"]])
        #expect(updated.at("/requests/0/url") == "https://t.example.com/track")
    }

    @Test("an existing file that is not a valid snapshot is an error, not overwritten")
    func invalidExisting() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "bad.json").path
            try Data(#"{"requests": [{"url": {"$regexp": "x"}}]}"#.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: InputError.self) { try record([get("https://t.example.com/")], to: path, existing: true) }
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("$regexp"))
        }
    }

    @Test(
        "entries that still match keep the existing snapshot's order: one changed field is a one-entry diff",
        arguments: [false, true])
    func keepsOrder(asEvents: Bool) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            func batch(_ names: [String], plan: String) -> [CapturedRequest] {
                names.enumerated().map { i, name in
                    let properties = name == "checkout" ? #"{"plan": "\#(plan)"}"# : "{}"
                    return post(
                        "https://api.segment.io/v1/track",
                        json: #"{"type": "track", "event": "\#(name)", "userId": "u1", "properties": \#(properties)}"#,
                        id: i)
                }
            }
            let profile = try #require(asEvents ? Profile.builtIn("segment") : Profile.builtInDefault)
            let old = try record(
                batch(["home", "cart", "checkout", "done"], plan: "basic"), profile: profile, to: path)
            #expect(old.contains(#""order": "any""#))
            // The next run sends them in another order, and one field changed.
            let new = try record(
                batch(["done", "checkout", "home", "cart"], plan: "pro"), profile: profile, to: path, existing: true)
            let diff = LineDiff.unified(old: old, new: new, oldName: "old", newName: "new", context: 0)
            let changed = diff.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.map {
                $0.prefix(1) + $0.dropFirst().trimmingCharacters(in: .whitespaces)
            }
            #expect(changed == ["--- old", "+++ new", #"-"plan": "basic""#, #"+"plan": "pro""#], "\(diff)")
        }
    }
}
