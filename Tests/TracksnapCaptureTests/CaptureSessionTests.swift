import Foundation
import Testing
import TracksnapCapture
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession whose requests a fresh capture records.
func capturedSession(_ mode: CaptureMode = .respond(), name: String? = nil) -> (URLSession, CaptureSession) {
    let configuration = URLSessionConfiguration.ephemeral
    let capture = CaptureSession.install(on: configuration, mode: mode, name: name)
    return (URLSession(configuration: configuration), capture)
}

@Suite("In-process capture of URLSession requests", .tags(.process), .leftToMakeTest)
struct CaptureSessionTests {
    @Test("a GET is recorded with its method, its URL and query, and its headers; the app gets 200 {}")
    func getWithQuery() async throws {
        let (session, capture) = capturedSession(name: "home")
        var request = URLRequest(
            url: try #require(URL(string: "https://collect.example/v1/e?ev=screen_view&screen=Home")))
        request.setValue("ios/1.4", forHTTPHeaderField: "X-Client")
        let (data, response) = try await session.data(for: request)

        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == CollectorAnswer.body)
        let requests = capture.requests
        #expect(requests.count == 1)
        let captured = try #require(requests.first)
        #expect(captured.id == "1")
        #expect(captured.method == "GET")
        #expect(captured.url == "https://collect.example/v1/e?ev=screen_view&screen=Home")
        #expect(captured.header("X-Client") == "ios/1.4")
        #expect(captured.session == "home")
        #expect(captured.body == nil)
        #expect(captured.queryItems.map { $0.value } == ["screen_view", "Home"])
        let time = try #require(captured.time)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
    }

    @Test("nothing of tracksnap's own is added to the request")
    func markerIsHidden() async throws {
        let (session, capture) = capturedSession()
        _ = try await session.data(from: try #require(URL(string: "https://collect.example/p")))
        let captured = try #require(capture.requests.first)
        #expect(captured.headers.allSatisfy { !$0.name.lowercased().hasPrefix("x-tracksnap") })
    }

    @Test("a POST with a JSON httpBody is recorded with its body as text")
    func postJSON() async throws {
        let (session, capture) = capturedSession()
        var request = URLRequest(url: try #require(URL(string: "https://api.segment.io/v1/track")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"event":"Order Completed","properties":{"revenue":12.5}}"#.utf8)
        _ = try await session.data(for: request)

        let captured = try #require(capture.requests.first)
        #expect(captured.method == "POST")
        #expect(captured.mediaType == "application/json")
        #expect(captured.body == .text(#"{"event":"Order Completed","properties":{"revenue":12.5}}"#))
    }

    @Test("a body sent as httpBodyStream is read to its end")
    func bodyStream() async throws {
        let (session, capture) = capturedSession()
        let body = String(repeating: "ev=scroll&depth=50&", count: 10_000)  // several reads of the stream
        var request = URLRequest(url: try #require(URL(string: "https://collect.example/batch")))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data(body.utf8))
        _ = try await session.data(for: request)

        #expect(capture.requests.first?.bodyText == body)
    }

    @Test("a gzip body with Content-Encoding: gzip is recorded decompressed")
    func gzipBody() async throws {
        let (session, capture) = capturedSession()
        var request = URLRequest(url: try #require(URL(string: "https://api.amplitude.com/2/httpapi")))
        request.httpMethod = "POST"
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.httpBody = try gzipped(Data(#"{"events":[{"event_type":"purchase"}]}"#.utf8))
        _ = try await session.data(for: request)

        #expect(capture.requests.first?.bodyText == #"{"events":[{"event_type":"purchase"}]}"#)
    }

    @Test("a body whose layers inflate beyond 64 MiB is recorded as refused, without its body")
    func bombBody() async throws {
        let (session, capture) = capturedSession()
        var request = URLRequest(url: try #require(URL(string: "https://api.amplitude.com/2/httpapi")))
        request.httpMethod = "POST"
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.httpBody = Data(try await compressedZeros(65 << 20, layers: 2))  // gzip in gzip, 65 MiB
        _ = try await session.data(for: request)

        let captured = try #require(capture.requests.first)
        #expect(captured.refused == "the body inflates beyond the limit of 67108864 bytes")
        #expect(captured.body == nil)
    }

    @Test("a binary body is kept as base64")
    func binaryBody() async throws {
        let (session, capture) = capturedSession()
        var request = URLRequest(url: try #require(URL(string: "https://collect.example/bin")))
        request.httpMethod = "PUT"
        request.httpBody = Data([0xFF, 0x00, 0xFE])
        _ = try await session.data(for: request)

        #expect(capture.requests.first?.body == .base64("/wD+"))
    }

    @Test("respond mode answers with the status, headers and body it was given")
    func respondMode() async throws {
        let (session, capture) = capturedSession(
            .respond(status: 204, headers: ["X-Served-By": "tracksnap"], body: Data()))
        let (data, response) = try await session.data(from: try #require(URL(string: "https://collect.example/p")))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 204)
        #expect(http.value(forHTTPHeaderField: "X-Served-By") == "tracksnap")
        #expect(data.isEmpty)
        #expect(capture.requests.count == 1)
    }

    @Test("reply mode builds each answer from the captured request")
    func replyMode() async throws {
        let (session, _) = capturedSession(
            .reply { request in
                CaptureResponse(status: request.method == "POST" ? 201 : 404, body: Data(request.url.utf8))
            })
        var post = URLRequest(url: try #require(URL(string: "https://stub.example/a")))
        post.httpMethod = "POST"
        let (postData, postResponse) = try await session.data(for: post)
        let (_, getResponse) = try await session.data(from: try #require(URL(string: "https://stub.example/b")))

        #expect((postResponse as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: postData, as: UTF8.self) == "https://stub.example/a")
        #expect((getResponse as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test("upload(for:from:) is captured without its body: URLSession never shows it to a URLProtocol on Linux")
    func uploadBodyIsInvisible() async throws {
        let (session, capture) = capturedSession()
        var request = URLRequest(url: try #require(URL(string: "https://collect.example/upload")))
        request.httpMethod = "POST"
        _ = try await session.upload(for: request, from: Data("ev=purchase".utf8))

        let captured = try #require(capture.requests.first)
        #expect(captured.method == "POST")
        #expect(captured.url == "https://collect.example/upload")
        #if os(Linux)
            #expect(captured.body == nil)
        #endif
    }

    @Test("waiting returns as soon as the count is reached")
    func waitForCount() async throws {
        let (session, capture) = capturedSession()
        let url = try #require(URL(string: "https://collect.example/e"))
        async let sent: Void = {
            for _ in 0..<3 { _ = try await session.data(from: url) }
        }()
        // This in-process wait has no marker of why it ended: its deadline is twice Bounds.wait,
        // so returning within Bounds.wait can only be the count's doing.
        let started = ContinuousClock.now
        let requests = await capture.waitForRequests(count: 3, timeout: Bounds.wait * 2)
        #expect(ContinuousClock.now - started < Bounds.wait, "it ended on the count, not the deadline")
        try await sent
        #expect(requests.count == 3)
        #expect(requests.map(\.id) == ["1", "2", "3"])
    }

    @Test("waiting for more than arrives returns what there is at the deadline")
    func waitTimesOut() async throws {
        let (session, capture) = capturedSession()
        _ = try await session.data(from: try #require(URL(string: "https://collect.example/e")))
        let clock = ContinuousClock()
        let started = clock.now
        let requests = await capture.waitForRequests(count: 2, timeout: .milliseconds(200))
        #expect(requests.count == 1)
        #expect(clock.now - started >= .milliseconds(200))
    }

    @Test("a cancelled wait returns at once")
    func waitCancelled() async throws {
        let (_, capture) = capturedSession()
        let started = ContinuousClock.now
        let wait = Task { await capture.waitForRequests(count: 1, timeout: Bounds.wait * 2) }
        wait.cancel()
        let requests = await wait.value
        #expect(requests.isEmpty)
        #expect(ContinuousClock.now - started < Bounds.wait, "it ended on the cancellation, not the deadline")
    }

    @Test("with a settle time, waiting ends once the app has been quiet that long after its last request")
    func waitSettles() async throws {
        let (session, capture) = capturedSession()
        let url = try #require(URL(string: "https://collect.example/e"))
        let sending = Task {
            var lastSent = ContinuousClock.now
            for _ in 0..<3 {
                try await Task.sleep(for: .milliseconds(150))
                lastSent = .now
                // Not awaiting the answer: on Linux, URLSession can take seconds to deliver
                // one when the machine is busy, which would stretch the gaps past the settle time.
                session.dataTask(with: url).resume()
            }
            return lastSent
        }
        // Far longer than the gaps, so that a busy machine does not end it between two requests
        // (the whole suite runs in parallel, and URLSession then sometimes holds one up for seconds).
        // The deadline twice Bounds.wait: returning within Bounds.wait can only be the settle time's doing.
        let started = ContinuousClock.now
        let requests = await capture.waitForRequests(settle: .seconds(10), timeout: Bounds.wait * 2)
        let returned = ContinuousClock.now
        let lastSent = try await sending.value
        #expect(requests.count == 3)
        #expect(returned - lastSent >= .seconds(10))
        #expect(returned - started < Bounds.wait, "it ended on the settle time, not the deadline")
    }

    @Test("with a condition, waiting ends at the request that satisfies it")
    func waitUntil() async throws {
        let (session, capture) = capturedSession()
        let sending = Task {
            for name in ["view", "view", "purchase"] {
                try await Task.sleep(for: .milliseconds(100))
                _ = try await session.data(from: try #require(URL(string: "https://collect.example/e?ev=\(name)")))
            }
        }
        let started = ContinuousClock.now
        // This in-process wait has no marker of why it ended: its settle time and deadline are
        // twice Bounds.wait (39 s was seen for the three requests in the whole parallel suite),
        // so returning within Bounds.wait can only be the condition's doing.
        let requests = await capture.waitForRequests(settle: Bounds.wait * 2, timeout: Bounds.wait * 2) { requests in
            requests.contains { $0.url.hasSuffix("purchase") }
        }
        #expect(ContinuousClock.now - started < Bounds.wait, "it ended on the purchase, not the settle time")
        try await sending.value
        #expect(requests.count == 3)
    }

    @Test("reset forgets what was captured; ids keep growing")
    func reset() async throws {
        let (session, capture) = capturedSession()
        let url = try #require(URL(string: "https://collect.example/e"))
        _ = try await session.data(from: url)
        capture.reset()
        #expect(capture.requests.isEmpty)
        _ = try await session.data(from: url)
        #expect(capture.requests.map(\.id) == ["2"])
    }

    @Test("two captures used in parallel see only their own requests")
    func parallelIsolation() async throws {
        let (first, firstCapture) = capturedSession(name: "first")
        let (second, secondCapture) = capturedSession(name: "second")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let (session, tag) = index.isMultiple(of: 2) ? (first, "first") : (second, "second")
                let url = try #require(URL(string: "https://collect.example/e?from=\(tag)&n=\(index)"))
                group.addTask { _ = try await session.data(from: url) }
            }
            try await group.waitForAll()
        }
        let firstRequests = firstCapture.requests
        let secondRequests = secondCapture.requests
        #expect(firstRequests.count == 10)
        #expect(secondRequests.count == 10)
        #expect(firstRequests.allSatisfy { $0.url.contains("from=first") && $0.session == "first" })
        #expect(secondRequests.allSatisfy { $0.url.contains("from=second") && $0.session == "second" })
    }

    @Test("installing keeps the configuration's own additional headers and protocols")
    func installKeepsConfiguration() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-App": "shop"]
        let before = configuration.protocolClasses?.count ?? 0
        let capture = CaptureSession.install(on: configuration, mode: .respond())
        #expect((configuration.protocolClasses?.count ?? 0) == before + 1)
        let session = URLSession(configuration: configuration)
        _ = try await session.data(from: try #require(URL(string: "https://collect.example/e")))
        #expect(capture.requests.first?.header("X-App") == "shop")
    }

    @Test("a session outlives its capture's handle: it goes on answering, and nothing more is kept")
    func releasedHandle() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        do {
            let capture = CaptureSession.install(on: configuration, mode: .respond(status: 202))
            #expect(capture.requests.isEmpty)
        }
        let session = URLSession(configuration: configuration)
        let (_, response) = try await session.data(from: try #require(URL(string: "https://collect.example/after")))
        #expect((response as? HTTPURLResponse)?.statusCode == 202)
    }

    @Test("a second capture installed on the same configuration replaces the first")
    func reinstall() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let first = CaptureSession.install(on: configuration, mode: .respond())
        let count = configuration.protocolClasses?.count
        let second = CaptureSession.install(on: configuration, mode: .respond())
        #expect(configuration.protocolClasses?.count == count)
        _ = try await URLSession(configuration: configuration).data(
            from: try #require(URL(string: "https://collect.example/e")))
        #expect(first.requests.isEmpty)
        #expect(second.requests.count == 1)
    }
}
