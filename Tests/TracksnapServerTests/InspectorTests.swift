import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

@Suite(
    "The inspector: its page under the control API's rules, and the live stream it reads", .tags(.network),
    .leftToMakeTest)
struct InspectorTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    @Test(
        "the page and its assets come without the token, under a strict policy, with no inline script or style and nothing from elsewhere",
        arguments: [
            ("ui/", "text/html; charset=utf-8"), ("ui/inspector.js", "text/javascript; charset=utf-8"),
            ("ui/review.js", "text/javascript; charset=utf-8"), ("ui/inspector.css", "text/css; charset=utf-8"),
            ("ui/report.css", "text/css; charset=utf-8"),
        ])
    func assets(path: String, type: String) async throws {
        try await withServer(.init(token: "s3cret")) { _, port in
            let response = try await control(port, "GET", path)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == type)
            #expect(response.header("Content-Security-Policy") == Self.policy)
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Cache-Control") == "no-store")
            #expect(response.header("X-Frame-Options") == "DENY")
            let text = response.text
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"))
            #expect(!text.contains("innerHTML") && !text.contains("insertAdjacentHTML") && !text.contains("eval("))
            if path == "ui/" {
                #expect(text.contains(#"<script src="inspector.js" defer></script>"#))
                #expect(text.contains(#"<script src="review.js" defer></script>"#))
                #expect(text.components(separatedBy: "<script").count == 3, "two script elements, no inline one")
                #expect(!text.contains("<style") && !text.contains(" style=") && !text.contains(/\son[a-z]+=/))
            }
        }
    }

    @Test("the page is refused to another Host (421) and to a page on another origin (403); /ui leads to /ui/")
    func pageGuarded() async throws {
        try await withServer { _, port in
            let rebound = try await RawHTTP.send(port: port, target: "/__tracksnap/ui/", host: "evil.example:\(port)")
            #expect(rebound.status == 421)
            #expect(!rebound.text.contains("<script"))
            let framed = try await control(port, "GET", "ui/", headers: [("Origin", "https://evil.example")])
            #expect(framed.status == 403)
            #expect(!framed.text.contains("<script"))
            let bare = try await control(port, "GET", "ui")
            #expect(bare.status == 308)
            #expect(bare.header("Location") == "/__tracksnap/ui/")
            let missing = try await control(port, "GET", "ui/app.js")
            #expect(missing.status == 404)
            #expect(
                try json(missing.text)["error"]?.stringValue?.contains(
                    "index.html, inspector.css, inspector.js, report.css, review.js") == true)
        }
    }

    @Test("the stream needs the token and refuses a page on another origin, as every control call does")
    func streamGuarded() async throws {
        try await withServer(.init(token: "s3cret")) { _, port in
            #expect(try await control(port, "GET", "requests/stream").status == 401)
            let foreign = try await control(
                port, "GET", "requests/stream",
                headers: [("Authorization", "Bearer s3cret"), ("Origin", "https://evil.example")])
            #expect(foreign.status == 403)
            #expect(foreign.header("Access-Control-Allow-Origin") == nil)
            #expect(foreign.header("Content-Type") == "application/json")
            let unknown = try await control(
                port, "GET", "requests/stream?session=s1", headers: [("Authorization", "Bearer s3cret")])
            #expect(unknown.status == 400)
        }
    }

    @Test(
        "the stream sends what the server holds, then each request as it is recorded, redacted, with its decoded events; a reset is told"
    )
    func streamsLive() async throws {
        try await withServer(.init(token: "s3cret")) { server, port in
            let batch = #"{"writeKey": "wk_live_98765", "batch": [{"type": "track", "event": "Order Completed"}]}"#
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/batch",
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer tok_5f4e3d2c1b0a")],
                body: Array(batch.utf8))
            let reader = try StreamReader(port: port, token: "s3cret")
            defer { reader.close() }
            let head = try await reader.read(until: "Order Completed")
            #expect(head.contains("HTTP/1.1 200 OK"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.contains("id: 1\nevent: request\ndata: {"))
            #expect(!head.contains("wk_live_98765"))

            let page = #"{"writeKey": "wk_live_98765", "type": "page", "name": "Pricing"}"#
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/page", headers: [("Content-Type", "application/json")],
                body: Array(page.utf8))
            let live = try await reader.read(until: "Pricing")
            // A secret an earlier request carried is hidden where a later one copies it.
            _ = try await RawHTTP.send(port: port, target: "/p/tok_5f4e3d2c1b0a/view")
            #expect(!(try await reader.read(until: "/view")).contains("tok_5f4e3d2c1b0a"))
            // Delivered while the stream stays open (read returns only on what arrived, and throws
            // at the socket's timeout, Bounds.wait), each request before the next is sent, so not
            // held for a batch. The page's one-second goal is the browser test's.
            let line = try #require(
                live.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains("Pricing") })
            let message = try json(String(line.dropFirst("data: ".count)))
            #expect(message["request"]?["id"]?.stringValue == "2")
            let event = try #require(message["events"]?.arrayValue?.first)
            #expect(event["vendor"]?.stringValue == "segment")
            #expect(event["name"]?.stringValue == "Pricing")
            #expect(!live.contains("wk_live_98765"))
            #expect(live.contains("[redacted]"))

            server.store.reset()
            #expect(try await reader.read(until: "event: reset").contains("event: reset"))
        }
    }

    @Test(
        "a session holding requests ingested from a journal shows its live Segment requests' every event, their writeKey and personal data hidden"
    )
    func ingestedBesideLive() async throws {
        try await withServer { _, port in
            let session = try await startSession(port)
            // As `serve --journal` wrote it: the write key already hidden.
            let journalled =
                #"{"method":"POST","url":"https://api.segment.io/v1/batch","headers":[{"name":"Content-Type","value":"application/json"}],"body":"{\"writeKey\":\"[redacted]\",\"batch\":[{\"type\":\"track\",\"event\":\"Signed Up\",\"context\":{\"ip\":\"203.*.*.*\"}}]}"}"#
            let ingested = try await control(port, "POST", "sessions/\(session)/requests", body: journalled)
            #expect(ingested.status == 200, "\(ingested.text)")
            let live =
                #"{"writeKey": "wk_live_1a2b3c4d5e", "batch": [{"type": "track", "event": "Order Completed", "context": {"ip": "203.0.113.7"}}]}"#
            let sent = try await RawHTTP.send(
                port: port, method: "POST", target: "/v1/batch", host: "api.segment.io",
                headers: [("Content-Type", "application/json"), ("X-Tracksnap-Session", session)],
                body: Array(live.utf8))
            #expect(sent.status == 200)

            let answer = try await control(port, "GET", "sessions/\(session)/requests")
            #expect(
                !answer.text.contains("wk_live_1a2b3c4d5e") && !answer.text.contains("203.0.113.7"), "\(answer.text)")
            let held = try capturedRequests(answer)
            #expect(held.map(\.ingested) == [true, false])
            for request in held {
                let body = try json(try #require(request.bodyText))
                #expect(body["writeKey"]?.stringValue == "[redacted]", "\(request.bodyText ?? "")")
                #expect(body["batch"]?.arrayValue?.count == 1, "the body, not only its secret, is hidden: \(body)")
            }

            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            let streamed = try await reader.read(until: "Order Completed")
            #expect(!streamed.contains("wk_live_1a2b3c4d5e") && !streamed.contains("203.0.113.7"), "\(streamed)")
            let names = try streamed.split(separator: "\n").filter { $0.hasPrefix("data: ") }.flatMap { line in
                try json(String(line.dropFirst("data: ".count)))["events"]?.arrayValue ?? []
            }.compactMap { $0["name"]?.stringValue }
            #expect(names == ["Signed Up", "Order Completed"])
        }
    }

    // gzip'd by the system's gzip: a process.
    @Test(
        "a Firebase upload (gzip'd protobuf, a form's content type) is shown as its events, named as GA4 names them",
        .tags(.process))
    func firebaseBatch() async throws {
        try await withServer { _, port in
            let upload = FirebaseUpload.checkout(.first)
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/a", host: "app-measurement.com",
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Content-Encoding", "gzip"),
                ],
                body: Array(try gzipped(Data(upload.body))))
            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            let text = try await reader.read(until: "\"purchase\"")
            let line = try #require(
                text.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains("purchase") })
            let message = try json(String(line.dropFirst("data: ".count)))
            let events = try #require(message["events"]?.arrayValue, "\(message)")
            #expect(events.allSatisfy { $0["vendor"]?.stringValue == "firebase" })
            #expect(
                events.map { $0["name"]?.stringValue }
                    == ["session_start", "screen_view", "add_to_cart", "screen_view", "purchase", "user_engagement"],
                "\(events.map { $0["name"] })")
            let added = try #require(events.first { $0["name"]?.stringValue == "add_to_cart" })
            #expect(added["properties"]?["item_id"]?.stringValue == "SKU-1", "\(added)")
            #expect(added["properties"]?["currency"]?.stringValue == "EUR", "\(added)")
            #expect(
                events[1]["properties"]?["firebase_screen_class"]?.stringValue == "CartViewController", "\(events[1])")
        }
    }

    @Test(
        "an event that breaks its vendor's limits says which in its rules, one that skips a recommendation in its warnings; one at the limit says nothing"
    )
    func vendorRules() async throws {
        try await withServer { _, port in
            let atLimit = String(repeating: "a", count: 40)
            let beyond = String(repeating: "b", count: 41)
            let body =
                #"{"client_id": "c1", "events": [{"name": "\#(atLimit)"}, {"name": "purchase", "params": {"value": 3}}, {"name": "\#(beyond)"}]}"#
            _ = try await RawHTTP.send(
                port: port, method: "POST", target: "/mp/collect?measurement_id=G-TEST&api_secret=s3cr3tvalue",
                headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            let text = try await reader.read(until: beyond)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains(beyond) })
            let events = try #require(try json(String(line.dropFirst("data: ".count)))["events"]?.arrayValue)
            #expect(events.map { $0["vendor"]?.stringValue } == ["ga4", "ga4", "ga4"])
            #expect(events[0]["rules"] == nil && events[0]["warnings"] == nil, "\(events[0])")
            // A recommendation is a warning, not a problem: the page's badge is not the red one.
            #expect(events[1]["rules"] == nil, "\(events[1])")
            let warnings = events[1]["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(warnings.count == 1 && warnings[0].hasPrefix("ga4.purchase_items: "), "\(warnings)")
            let rules = events[2]["rules"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(rules.count == 1 && rules[0].hasPrefix("ga4.event_name_length: "), "\(rules)")
            #expect(events[2]["warnings"] == nil, "\(events[2])")
            #expect(!text.contains("s3cr3tvalue"))
        }
    }

    @Test(
        "the stream first tells how many requests the server keeps (--max-requests), so that the page keeps as many",
        arguments: [(Int?.some(3), "3", "3"), (nil, "null", "10000")])
    func streamTellsLimit(maximum: Int?, shown: String, answers: String) async throws {
        try await withServer(.init(maximumRequests: maximum)) { _, port in
            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            let head = try await reader.read(until: "}\n\n")
            #expect(
                head.contains(
                    "retry: 1000\n\nevent: server\ndata: {\"answer_bytes_kept\":67108864,\"answers_kept\":\(answers),\"max_requests\":\(shown)}\n\n"
                ), "\(head)")
        }
    }

    @Test(
        "what the server answered each request follows it in the stream, held ones too, with the request's secrets hidden"
    )
    func answers() async throws {
        let secret = "tok_5f4e3d2c1b0a"
        let echo = CaptureServer.CollectorResponse(
            status: 202, contentType: "application/json", body: #"{"echo": "\#(secret)", "ok": true}"#)
        try await withServer(.init(collectorResponse: echo)) { _, upstreamPort in
            let upstream = try #require(URL(string: "http://127.0.0.1:\(upstreamPort)/"))
            try await withServer(.init(upstream: upstream)) { _, port in
                let send = { (path: String) in
                    _ = try await RawHTTP.send(
                        port: port, method: "POST", target: path, headers: [("Authorization", "Bearer \(secret)")],
                        body: Array(#"{"event": "x"}"#.utf8))
                }
                try await send("/v1/held")
                let reader = try StreamReader(port: port, token: nil)
                defer { reader.close() }
                try await send("/v1/live")
                let text = try await reader.read(until: #""id":"2","status":202"#)
                let answers = try text.matches(of: /event: answer\r?\ndata: ([^\r\n]*)/).map { try json(String($0.1)) }
                #expect(answers.map { $0["id"]?.stringValue } == ["1", "2"], "\(text)")
                for answer in answers {
                    #expect(answer["status"]?.doubleValue == 202)
                    #expect(answer["body"]?.stringValue == #"{"echo":"[redacted]","ok":true}"#, "\(answer)")
                    let type = answer["headers"]?.arrayValue?.first { $0["name"]?.stringValue == "Content-Type" }
                    #expect(type?["value"]?.stringValue == "application/json")
                }
                #expect(!text.contains(secret))
            }
        }
    }

    @Test("a reader that does not read is cut off once it is more than the buffer behind; recording never waits")
    func slowReaderCutOff() async throws {
        try await withServer { server, port in
            let reader = try StreamReader(port: port, token: nil)
            defer { reader.close() }
            _ = try await reader.read(until: "retry: 1000")
            // Far more than the socket buffers and the stream's buffer hold together.
            let body = String(repeating: "x", count: 20_000)
            // On a thread of its own: recording that waited for this reader, which reads nothing
            // until it is done, would not be done by Bounds.wait, and that fails the test.
            let recorded = Mutex(false)
            Thread {
                for index in 0..<(ControlAPI.streamBuffer * 4) {
                    server.store.record(
                        method: "POST", url: "http://t.example/e/\(index)", body: .text(body), sessionHint: nil)
                }
                recorded.withLock { $0 = true }
            }.start()
            #expect(try await eventually { recorded.withLock { $0 } }, "recording waited for the reader")
            let rest = try await reader.readToEnd()
            let overflow = try #require(rest.range(of: "event: overflow", options: .backwards), "\(rest.suffix(300))")
            let told = try #require(StreamFrame.all(in: rest[overflow.lowerBound...]).first)
            #expect(
                try told.decode(ErrorAnswer.self)
                    == ErrorAnswer(error: "this reader fell more than \(ControlAPI.streamBuffer) requests behind"))
            let delivered = rest.components(separatedBy: "event: request").count - 1
            #expect(delivered < ControlAPI.streamBuffer * 4)
        }
    }
}

extension InspectorTests {
    @Test("a stream open when the server stops ends at once: shutdown does not wait for its reader")
    func streamEndsAtShutdown() async throws {
        let server = try CaptureServer(configuration: .init())
        let port = try #require(try await server.start().port)
        let reader = try StreamReader(port: port, token: nil)
        defer { reader.close() }
        _ = try await reader.read(until: "retry: 1000")
        // A shutdown that waited for the reader, which reads only once it is over, would never be
        // over: the test fails at Bounds.wait rather than hangs.
        let stopped = Mutex<String?>(nil)
        Task {
            do {
                try await server.shutdown()
                stopped.withLock { $0 = "stopped" }
            } catch {
                stopped.withLock { $0 = "\(error)" }
            }
        }
        #expect(try await eventually { stopped.withLock { $0 != nil } }, "shutdown waited for the stream's reader")
        #expect(stopped.withLock { $0 } == "stopped")
        _ = try await reader.readToEnd()  // the server closed it: otherwise this throws at the socket's timeout
    }
}

/// A client of the stream over a raw socket: sends the request, then reads what comes as it comes.
final class StreamReader: Sendable {
    private let socket: Socket
    private let received = Mutex<String>("")

    /// - Parameter query: the stream's query, `?profile=…` (percent-encoded), or none.
    init(port: Int, token: String?, query: String = "") throws {
        socket = try Socket(port: port, timeout: Int(Bounds.wait.components.seconds))
        var text = "GET /__tracksnap/requests/stream\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        try socket.write(Array((text + "\r\n").utf8))
    }

    /// Everything read so far once it contains `marker`; fails after the socket's timeout (`Bounds.wait`).
    func read(until marker: String) async throws -> String {
        try await offloaded { [self] in
            while !received.withLock({ $0.contains(marker) }) {
                guard let chunk = try socket.readSome() else { break }
                received.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            return received.withLock { $0 }
        }
    }

    /// Everything read once the server closes.
    func readToEnd() async throws -> String {
        try await offloaded { [self] in
            let rest = try socket.readToEnd()
            return received.withLock {
                $0 += String(decoding: rest, as: UTF8.self)
                return $0
            }
        }
    }

    func close() {
        socket.close()
    }
}
