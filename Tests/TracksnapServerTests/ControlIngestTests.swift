import Foundation
import Synchronization
import Testing
import TracksnapCore
import TracksnapModel
import TracksnapServer
import TracksnapTestSupport

@Suite("The control API records requests captured elsewhere into a session")
struct ControlIngestTests {
    static let twoRecords = """
        [{"method": "POST", "url": "https://api.segment.io/v1/track", "headers": [{"name": "Content-Type", "value": "application/json"}],
          "body": "{\\"event\\": \\"Order Completed\\"}", "id": "7", "session": "app run"},
         {"method": "GET", "url": "https://t.example/e?ev=view", "id": "8"}]
        """

    @Test("a JSON array of capture records is recorded in the session, as if received, with the server's ids and times")
    func recordsIntoSession() async throws {
        let logged = Mutex<[RequestLogLine]>([])
        try await withServer(.init(requestLog: { line in logged.withLock { $0.append(line) } })) { server, port in
            let session = try await startSession(port)
            let other = try await startSession(port)
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: Self.twoRecords)
            #expect(response.status == 200, "\(response.text)")
            #expect(try json(response.text) == .object(["recorded": 2, "session": .string(session)]))

            let held = try capturedRequests(try await control(port, "GET", "sessions/\(session)/requests"))
            #expect(held.map(\.method) == ["POST", "GET"])
            #expect(held.map(\.url) == ["https://api.segment.io/v1/track", "https://t.example/e?ev=view"])
            #expect(held[0].header("Content-Type") == "application/json")
            #expect(held[0].bodyText == #"{"event": "Order Completed"}"#)
            #expect(held.allSatisfy { $0.session == session }, "the path's session, not the record's")
            #expect(held.map(\.id) != ["7", "8"], "the server's own ids")
            #expect(held.allSatisfy { $0.time != nil })
            #expect(try capturedRequests(try await control(port, "GET", "sessions/\(other)/requests")).isEmpty)
            #expect(server.store.requests().count == 2, "in the global list too")
            #expect(logged.withLock { $0.map(\.url) } == held.map(\.url))
        }
    }

    @Test("requests recorded through the API are journalled as received ones are")
    func journalled() async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson").path
            try await withServer(.init(journalPath: journal)) { _, port in
                let session = try await startSession(port)
                #expect(
                    try await control(port, "POST", "sessions/\(session)/requests", body: Self.twoRecords).status == 200
                )
            }
            let lines = try CaptureFile.read(path: journal)
            #expect(lines.map(\.url) == ["https://api.segment.io/v1/track", "https://t.example/e?ev=view"])
        }
    }

    @Test("a waiter on the session is woken by requests recorded through the API")
    func wakesWaiters() async throws {
        try await withServer { _, port in
            let session = try await startSession(port)
            async let waited = control(port, "GET", "sessions/\(session)/requests?count=2&timeout=60")
            let clock = ContinuousClock()
            let start = clock.now
            let posted = try await control(port, "POST", "sessions/\(session)/requests", body: Self.twoRecords)
            #expect(posted.status == 200)
            let answer = try await waited
            #expect(try capturedRequests(answer).count == 2)
            #expect(answer.headers.first { $0.name.lowercased() == "x-tracksnap-wait" }?.value == "complete")
            #expect(clock.now - start < .seconds(30), "woken by the arrivals, not the 60 s timeout")
        }
    }

    @Test("NDJSON lines are read as a capture file is")
    func ndjson() async throws {
        try await withServer { _, port in
            let session = try await startSession(port)
            let body = """
                {"method": "GET", "url": "https://t.example/a"}
                {"method": "GET", "url": "https://t.example/b"}
                """
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: body)
            #expect(response.status == 200, "\(response.text)")
            #expect(
                try capturedRequests(try await control(port, "GET", "sessions/\(session)/requests")).map(\.url)
                    == ["https://t.example/a", "https://t.example/b"])
        }
    }

    @Test(
        "bad bodies are refused with what and where, and nothing is recorded",
        arguments: [
            (#"[{"method": "GET", "url": "https://t.example/a"}, {"method": "GET"}]"#, "[1]"),
            (#"[{"method": "GET", "url": "https://t.example/a"}, {"method": "GET", "url": 3}]"#, "url"),
            (#"[{"method": "GET", "url": "https://t.example/a"},"#, "malformed JSON"),
        ])
    func badBodies(body: String, named: String) async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: body)
            #expect(response.status == 400, "\(response.text)")
            let message = try #require(try json(response.text)["error"]?.stringValue)
            #expect(message.contains(named), "\(message)")
            #expect(message.contains("body"), "\(message)")
            #expect(server.store.requests().isEmpty)
            #expect(try await control(port, "GET", "health").status == 200, "the server stays up")
        }
    }

    @Test(
        "a capture of no request is no error, as in every capture file: an empty body or [] records none",
        arguments: ["", "[]"])
    func noRequests(body: String) async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: body)
            #expect(response.status == 200, "\(response.text)")
            #expect(try json(response.text)["recorded"] == .number("0"))
            #expect(server.store.requests().isEmpty)
        }
    }

    @Test("an unknown session is 404; the control API's guard applies: JSON only, no other origin")
    func refusals() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let unknown = try await control(port, "POST", "sessions/s99/requests", body: Self.twoRecords)
            #expect(unknown.status == 404)
            #expect(try json(unknown.text)["error"]?.stringValue == "no open session \"s99\"")

            let plain = try await RawHTTP.send(
                port: port, method: "POST", target: "/__tracksnap/sessions/\(session)/requests",
                headers: [("Content-Type", "text/plain")], body: Array(Self.twoRecords.utf8))
            #expect(plain.status == 415)
            let page = try await control(
                port, "POST", "sessions/\(session)/requests", body: Self.twoRecords,
                headers: [("Origin", "https://evil.example")])
            #expect(page.status == 403)
            #expect(server.store.requests().isEmpty)
        }
    }
}
