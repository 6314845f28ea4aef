import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("The control API records requests captured elsewhere into a session", .tags(.process, .network), .leftToMakeTest)
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
            // Woken by the arrivals, not the 60 s timeout: the answer's marker says so, not a stopwatch.
            async let waited = control(port, "GET", "sessions/\(session)/requests?count=2&timeout=60")
            let posted = try await control(port, "POST", "sessions/\(session)/requests", body: Self.twoRecords)
            #expect(posted.status == 200)
            let answer = try await waited
            #expect(try capturedRequests(answer).count == 2)
            #expect(answer.headers.first { $0.name.lowercased() == "x-tracksnap-wait" }?.value == "complete")
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
            ("", "empty"), (" \n", "empty"),
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

    @Test("[] records no request (an empty body is refused above: a call says what it sends)")
    func noRequests() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let response = try await control(port, "POST", "sessions/\(session)/requests", body: "[]")
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

    @Test("ingested requests are marked so in every format and read back so; received ones are not")
    func marked() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            #expect(try await RawHTTP.send(port: port, target: "/received").status == 200)
            #expect(
                try await control(port, "POST", "sessions/\(session)/requests", body: Self.twoRecords).status == 200)
            #expect(server.store.requests().map(\.ingested) == [false, true, true])

            let array = try await control(port, "GET", "sessions/\(session)/requests")
            let members = try #require(try json(array.text).arrayValue).map { $0["ingested"] }
            #expect(members == [nil, .bool(true), .bool(true)], "absent means false")
            for format in ["json", "ndjson", "har"] {
                let answer = try await control(port, "GET", "sessions/\(session)/requests?format=\(format)")
                let read = try CaptureFile.read(data: Data(answer.body), file: format)
                #expect(read.map(\.ingested) == [false, true, true], "\(format)")
            }
        }
    }

    /// `count` minimal capture records as a JSON array.
    static func minimalRecords(_ count: Int) -> String {
        "[" + Array(repeating: #"{"method":"GET","url":"https://t.example/e"}"#, count: count).joined(separator: ",")
            + "]"
    }

    @Test("one call records at most 10000 requests: more is 413 naming the cap, and nothing is recorded")
    func cap() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            let over = try await control(
                port, "POST", "sessions/\(session)/requests", body: Self.minimalRecords(10_001))
            #expect(over.status == 413)
            #expect(
                try json(over.text)["error"]?.stringValue
                    == "the body holds 10001 requests; one call records at most 10000: send them in several calls")
            #expect(server.store.requests().isEmpty)
            // NDJSON and HAR are counted alike.
            let lines = Array(repeating: #"{"method":"GET","url":"https://t.example/e"}"#, count: 10_001)
            let ndjson = try await control(
                port, "POST", "sessions/\(session)/requests", body: lines.joined(separator: "\n"))
            #expect(ndjson.status == 413, "\(ndjson.text)")
            let entries = Array(repeating: #"{"request":{"method":"GET","url":"https://t.example/e"}}"#, count: 10_001)
            let har = #"{"log": {"\u0065ntries": ["# + entries.joined(separator: ",") + "]}}"
            let harAnswer = try await control(port, "POST", "sessions/\(session)/requests", body: har)
            #expect(harAnswer.status == 413, "an escaped key counts as the key: \(harAnswer.text)")
            #expect(server.store.requests().isEmpty)

            let atCap = try await control(
                port, "POST", "sessions/\(session)/requests", body: Self.minimalRecords(10_000))
            #expect(atCap.status == 200, "\(atCap.text)")
            #expect(server.store.requests().count == 10_000)
        }
    }

    @Test("ingested requests count against --max-requests: the session and the global list keep the newest N")
    func maximumRequests() async throws {
        try await withServer(.init(maximumRequests: 100)) { server, port in
            let session = try await startSession(port)
            let response = try await control(
                port, "POST", "sessions/\(session)/requests", body: Self.minimalRecords(1_000))
            #expect(try json(response.text)["recorded"] == 1000)
            #expect(server.store.requests().count == 100)
            #expect(server.store.requests(inSession: session)?.count == 100)
            let statistics = server.store.statistics
            #expect(statistics.captured == 1000)
            #expect(statistics.dropped == 900)
        }
    }

    @Test("an ingest is read on the thread pool: held there, other clients are answered, then it records")
    func otherClientsAreNotHeldUp() async throws {
        try await withServer { server, port in
            let session = try await startSession(port)
            // Marked in the query, which the control API ignores: session ids repeat from one
            // test's server to the next, and a hold on `sessions/s1/requests` would hold them all.
            let marker = "hold-" + UUID().uuidString
            BlockingWorkHold.hold(marker)
            // Released whatever happens, so that a failing test leaves no thread held.
            defer { BlockingWorkHold.release(marker) }
            // Held on the thread that reads it: a capture read where it arrived never gets there.
            let ingest = try await heldOnThreadPool(marker) {
                try await control(port, "POST", "sessions/\(session)/requests?\(marker)", body: Self.twoRecords)
            }
            // Six calls on fresh connections, so that some share the ingest's event loop: each
            // answered while the ingest still waits, unread.
            for _ in 0..<6 { #expect(try await control(port, "GET", "health").status == 200) }
            #expect(BlockingWorkHold.isHeld(marker))
            #expect(server.store.requests().isEmpty)
            BlockingWorkHold.release(marker)
            #expect(try await ingest.value.status == 200)
            #expect(server.store.requests().count == 2)
        }
    }

    @Test(
        "a 16 MiB ingest costs bounded memory, refused or recorded",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads /proc"))
    func largeIngest() async throws {
        let server = try await ServeChild.launch(["--quiet", "--max-requests", "1000"])
        defer { server.stop() }
        let pid = server.process.processIdentifier
        let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
        let before = try Self.peakMemory(pid)
        let target = "/__tracksnap/sessions/\(session)/requests"

        // 16 MiB of the smallest records: 600,000 of them.
        let record = #"{"method":"GET","url":"https://t.example/x"},"#
        let count = (16 * 1024 * 1024 - 2) / record.utf8.count
        let minimal = "[" + String(repeating: record, count: count).dropLast() + "]"
        let answer = try await RawHTTP.send(
            port: server.port, method: "POST", target: target, headers: [("Content-Type", "application/json")],
            body: Array(minimal.utf8), timeout: Self.ingestTimeout)
        #expect(answer.status == 413, "\(answer.text)")
        #expect(answer.text.contains("one call records at most 10000"))

        // 16 MiB that is recorded: 10,000 records of 64 headers each.
        let headers = Array(repeating: #"{"name":"a","value":"b"}"#, count: 64).joined(separator: ",")
        let heavy =
            "["
            + Array(
                repeating: #"{"method":"GET","url":"https://t.example/x","headers":["# + headers + "]}", count: 10_000
            ).joined(
                separator: ",") + "]"
        let recorded = try await RawHTTP.send(
            port: server.port, method: "POST", target: target, headers: [("Content-Type", "application/json")],
            body: Array(heavy.utf8), timeout: Self.ingestTimeout)
        #expect(recorded.status == 200, "\(recorded.text)")
        let growth = try Self.peakMemory(pid) - before
        // Before ingests were bounded: 395 MB for the first, 270 MB for the second.
        #expect(growth < 160 * 1024 * 1024, "peak memory grew by \(growth / 1024 / 1024) MiB")
    }

    /// How long a 16 MiB ingest's answer is waited for, in seconds: what this test bounds is
    /// memory, not the ingest's own time, which in a debug build took 24 s alone on 2 busy
    /// cores, and more than the usual 30 s beside the whole suite.
    static let ingestTimeout = 180

    /// The process's peak resident memory (`VmHWM`), in bytes.
    private static func peakMemory(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }
}
