import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// Secrets an app sends, each its own way: a bearer token in a header (and copied into a body
/// field that is not named as a secret), a write key under a secret key of a JSON body, and a
/// token inside base64 JSON in a form field, as Mixpanel's `data=` carries it.
private enum Planted {
    static let bearer = "tok_bearer_8c1f2e9a77"
    static let writeKey = "wk_live_5d4c3b2a19"
    static let formToken = "mp_token_0a9b8c7d6e"
    static var all: [String] { [bearer, writeKey, formToken] }

    static let json = #"{"event": "Order Completed", "writeKey": "\#(writeKey)", "note": "sent with \#(bearer)"}"#
    static var form: String {
        let data = Data(#"{"event":"Signed Up","properties":{"token":"\#(formToken)","plan":"pro"}}"#.utf8)
            .base64EncodedString()
        return "ip=1&data=" + FormEncoding.encode(data)
    }

    /// Sends both requests into a session.
    static func send(_ port: Int, session: String) async throws {
        let json = try await RawHTTP.send(
            port: port, method: "POST", target: "/v1/track", host: "collect.example",
            headers: [
                ("Content-Type", "application/json"), ("Authorization", "Bearer \(bearer)"),
                ("X-Tracksnap-Session", session),
            ],
            body: Array(json.utf8))
        #expect(json.status == 200)
        let form = try await RawHTTP.send(
            port: port, method: "POST", target: "/track", host: "collect.example",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("X-Tracksnap-Session", session)],
            body: Array(form.utf8))
        #expect(form.status == 200)
    }
}

@Suite("The control API exports sessions, and no captured secret leaves it", .tags(.network), .leftToMakeTest)
struct ControlExportTests {
    @Test(
        "a session exports as JSON, NDJSON and HAR, each read back as the same requests",
        arguments: [
            ("json", "application/json"), ("ndjson", "application/x-ndjson"), ("har", "application/json"),
        ])
    func exports(format: String, contentType: String) async throws {
        try await withServer { _, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/batch?v=2", host: "collect.example",
                headers: [("Content-Type", "application/json"), ("X-Tracksnap-Session", id)],
                body: Array(#"{"event":"Order Completed"}"#.utf8))
            _ = try await RawHTTP.send(
                port: port, target: "/g/collect?en=page_view", host: "collect.example",
                headers: [("X-Tracksnap-Session", id)])
            let response = try await control(port, "GET", "sessions/\(id)/requests?format=\(format)")
            #expect(response.status == 200, "\(response.text)")
            #expect(response.header("Content-Type") == contentType)
            let read = try CaptureFile.read(data: Data(response.text.utf8), file: format)
            #expect(read.map(\.method) == ["POST", "GET"])
            #expect(
                read.map(\.url) == [
                    "http://collect.example/v1/batch?v=2", "http://collect.example/g/collect?en=page_view",
                ])
            #expect(read.first?.bodyText == #"{"event":"Order Completed"}"#)
            #expect(read.allSatisfy { $0.session == id })
            #expect(read.first?.header("Content-Type") == "application/json")

            let ended = try await control(port, "DELETE", "sessions/\(id)?format=\(format)")
            #expect(try CaptureFile.read(data: Data(ended.text.utf8), file: format).map(\.url) == read.map(\.url))
        }
    }

    @Test(
        "an unknown format or query parameter, or one given twice, is refused, naming it",
        arguments: [
            ("requests?format=pcap", "format must be one of json, ndjson, har"),
            ("sessions/s1/requests?format=xml", "format must be one of"),
            ("sessions/s1/requests?cuont=2", "unknown query parameter \"cuont\""),
            ("requests?count=2", "unknown query parameter \"count\""),
            ("sessions/s1/requests?count=1&count=2", "the query parameter \"count\" is given twice; give it once"),
            ("requests?format=json&format=har", "the query parameter \"format\" is given twice"),
        ])
    func badFormat(path: String, mention: String) async throws {
        try await withServer { _, port in
            _ = try await startSession(port)
            let response = try await control(port, "GET", path)
            #expect(response.status == 400)
            #expect(try json(response.text)["error"]?.stringValue?.contains(mention) == true, "\(response.text)")
        }
    }

    @Test("every answer that carries captured requests hides the planted secrets, and keeps the rest decodable")
    func secretsStayInside() async throws {
        try await withServer { server, port in
            let id = try await startSession(port)
            try await Planted.send(port, session: id)
            // The server holds them as sent: the checks below can fail.
            let held = server.store.requests()
            #expect(held.first?.header("Authorization") == "Bearer \(Planted.bearer)")
            #expect(held.first?.bodyText?.contains(Planted.writeKey) == true)
            let heldData = held.last?.formItems.first { $0.name == "data" }.flatMap { Data(base64Encoded: $0.value) }
            #expect(heldData.map { String(decoding: $0, as: UTF8.self).contains(Planted.formToken) } == true)

            var answers: [(String, String)] = []
            for path in [
                "requests", "sessions/\(id)/requests", "sessions/\(id)/requests?format=ndjson",
                "sessions/\(id)/requests?format=har",
                "sessions/\(id)/requests?count=2&timeout=5", "requests?format=har",
            ] {
                answers.append((path, try await control(port, "GET", path).text))
            }
            answers.append(("DELETE sessions/\(id)", try await control(port, "DELETE", "sessions/\(id)").text))
            for (path, text) in answers {
                for secret in Planted.all {
                    #expect(!text.contains(secret), "\(secret) leaves the server in \(path): \(text)")
                }
                #expect(text.contains("[redacted]"), "\(path)")
            }

            // What is left still decodes: the JSON body, the form's base64 JSON with its plan.
            let (_, last) = try #require(answers.last)
            let requests = try CaptureFile.read(data: Data(last.utf8), file: "answer")
            #expect(requests.count == 2)
            let body = try json(try #require(requests.first?.bodyText))
            #expect(body["event"]?.stringValue == "Order Completed")
            #expect(body["writeKey"]?.stringValue == "[redacted]")
            #expect(requests.first?.header("Authorization") == "[redacted]")
            let data = try #require(requests.last?.formItems.first { $0.name == "data" }?.value)
            let decoded = try json(String(decoding: try #require(Data(base64Encoded: data)), as: UTF8.self))
            #expect(decoded["properties"]?["plan"]?.stringValue == "pro")
            #expect(decoded["properties"]?["token"]?.stringValue == "[redacted]")
        }
    }

    @Test("validate takes the snapshot's content in the body, and a findings' place points into it")
    func validateContent() async throws {
        try await withServer { _, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(
                port: port, target: "/e?ev=scroll", host: "collect.example", headers: [("X-Tracksnap-Session", id)])
            let content =
                #"{"requests": [{"method": "GET", "url": "http://collect.example/e", "parameters": {"ev": "view"}}]}"#
            let response = try await control(
                port, "POST", "sessions/\(id)/validate", body: #"{"snapshotContent": \#(content), "format": "text"}"#)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.header("X-Tracksnap-Passed") == "false")
            // Named snapshotContent; line 6 of the content pretty-printed with sorted keys is `"ev": "view"`.
            #expect(
                response.text.contains("✗ snapshotContent (snapshotContent) — 1 expected, 1 captured, 1 finding"),
                "\(response.text)")
            #expect(
                response.text.contains(#"/parameters/ev  "view"    "scroll"  value_mismatch  line 6"#),
                "\(response.text)")

            let passing = content.replacingOccurrences(of: "view", with: "scroll")
            let passed = try await control(
                port, "POST", "sessions/\(id)/validate", body: #"{"snapshotContent": \#(passing)}"#)
            #expect(try json(passed.text)["passed"] == .bool(true), "\(passed.text)")
        }
    }

    @Test(
        "validate takes the snapshot file's text too, as the inspector sends what was pasted: a mistake is told at its line and column in that text, as the CLI tells it"
    )
    func validatePastedText() async throws {
        try await withServer { _, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(
                port: port, target: "/e?ev=scroll", host: "collect.example", headers: [("X-Tracksnap-Session", id)])
            let pasted =
                "{\n  \"requests\": [\n    {\"method\": \"GET\", \"url\": \"http://collect.example/e\",}\n  ]\n}\n"
            let broken = try await control(
                port, "POST", "sessions/\(id)/validate",
                body: JSONValue.object(["snapshotContent": .string(pasted)]).serialized())
            #expect(broken.status == 400, "\(broken.text)")
            let message = try #require(try json(broken.text)["error"]?.stringValue)
            #expect(message.hasPrefix("snapshotContent:3:"), "line 3 of the pasted text: \(message)")

            let unknown = pasted.replacingOccurrences(of: "\"url\"", with: "\"ur1\"").replacingOccurrences(
                of: ",}", with: "}")
            let misspelt = try await control(
                port, "POST", "sessions/\(id)/validate",
                body: JSONValue.object(["snapshotContent": .string(unknown)]).serialized())
            #expect(misspelt.status == 400, "\(misspelt.text)")
            #expect(
                try json(misspelt.text)["error"]?.stringValue?.contains("snapshotContent:3:") == true,
                "\(misspelt.text)")

            let good = unknown.replacingOccurrences(of: "\"ur1\"", with: "\"url\"").replacingOccurrences(
                of: "e\"}", with: "e\", \"parameters\": {\"ev\": \"view\"}}")
            let validated = try await control(
                port, "POST", "sessions/\(id)/validate",
                body: JSONValue.object(["snapshotContent": .string(good), "format": "text"]).serialized())
            #expect(validated.status == 200, "\(validated.text)")
            #expect(validated.text.contains("line 3"), "findings point into the text as pasted: \(validated.text)")
        }
    }

    @Test("record without a path answers the snapshot, recorded over the content given, and writes nothing")
    func recordContent() async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port, name: "checkout")
                try await Planted.send(port, session: id)
                let response = try await control(port, "POST", "sessions/\(id)/record", body: "{}")
                #expect(response.status == 200, "\(response.text)")
                let answer = try json(response.text)
                #expect(answer["recorded"] == .bool(true))
                #expect(answer["requests"]?.doubleValue == 2)
                #expect(answer["file"] == nil)
                let snapshot = try #require(answer["snapshotContent"])
                #expect(snapshot["name"]?.stringValue == "checkout")
                for secret in Planted.all { #expect(!response.text.contains(secret)) }
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

                // The answer is a snapshot the same traffic passes.
                let check = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshotContent": \#(snapshot.serialized())}"#)
                #expect(try json(check.text)["passed"] == .bool(true), "\(check.text)")
            }
        }
    }

    @Test(
        "bad snapshot fields are refused with 400 naming the field",
        arguments: [
            ("validate", #"{}"#, "snapshot (a path under the root), snapshotContent (the snapshot's JSON) or plan"),
            ("validate", #"{"plan": 7}"#, "plan must be a path under the root, or an array of them"),
            ("validate", #"{"plan": ["a.json", 7]}"#, "plan must be a path under the root, or an array of them"),
            ("validate", #"{"snapshot": "a.json", "snapshotContent": {}}"#, "give one"),
            ("validate", #"{"snapshotContent": 7}"#, "snapshotContent must be a snapshot's JSON"),
            ("validate", #"{"snapshotContent": "text"}"#, "snapshotContent:1:1:"),
            ("validate", #"{"snapshotContent": {"requests": 3}}"#, "snapshotContent:"),
            ("validate", #"{"snapshot": 7}"#, "snapshot must be a string"),
            ("validate", #"{"snapshot": "../../etc/passwd"}"#, "outside the root"),
            ("validate", #"{"snapshot": "a.json", "colour": "red"}"#, "unknown field \"colour\""),
            ("validate", #"{"snapshot": "a.json""#, "the body is not JSON"),
            ("record", #"{"mode": "all"}"#, "mode is about a snapshot file"),
            ("record", #"{"snapshotContent": {"requests": []}, "pending": true}"#, "pending is about a snapshot file"),
            ("record", #"{"reruns": "s2"}"#, "reruns must be an array of strings"),
        ])
    func badFields(call: String, body: String, mention: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(.init(root: directory.path)) { _, port in
                let id = try await startSession(port)
                _ = try await RawHTTP.send(port: port, target: "/e", headers: [("X-Tracksnap-Session", id)])
                let response = try await control(port, "POST", "sessions/\(id)/\(call)", body: body)
                #expect(response.status == 400, "\(response.text)")
                #expect(try json(response.text)["error"]?.stringValue?.contains(mention) == true, "\(response.text)")
            }
        }
    }

    @Test("starting a session refuses unknown fields and wrong types")
    func startSessionFields() async throws {
        try await withServer { _, port in
            for (body, mention) in [
                (#"{"nmae": "x"}"#, "unknown field \"nmae\"; did you mean name? this call takes cassette, name"),
                (#"{"name": 3}"#, "name must be a string"),
            ] {
                let response = try await control(port, "POST", "sessions", body: body)
                #expect(response.status == 400)
                #expect(try json(response.text)["error"]?.stringValue?.contains(mention) == true, "\(response.text)")
            }
        }
    }

    @Test("a method an endpoint does not take is 405 with the methods it does in Allow")
    func allow() async throws {
        try await withServer { _, port in
            let response = try await control(port, "PUT", "sessions")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, POST")
        }
    }
}
