import Foundation
import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport

@Suite("Connection timeouts", .tags(.process, .network), .leftToMakeTest)
struct ConnectionTimeoutTests {
    // A close is timed exactly from below ("not before the timeout", the clock started before
    // the server's could), and from above only by `Bounds.wait`, which rules out never: a loaded
    // 2-core machine delayed one close of a 1 s timeout to 5.6 s.

    private static func configuration(header: Duration, idle: Duration) -> CaptureServer.Configuration {
        var configuration = CaptureServer.Configuration()
        configuration.headerTimeout = header
        configuration.idleTimeout = idle
        return configuration
    }

    /// How a connection ended: how long after the client's first byte (or its last answer)
    /// the server closed it, and what the server sent meanwhile.
    struct Closed {
        var after: Duration
        var answer: [UInt8]

        /// The 408 the server answered, checked to be one: JSON `{"error"}` naming `option`,
        /// `Connection: close`.
        func requestTimeout(naming option: String) throws -> RawResponse {
            let response = try RawHTTP.parse(answer)
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.text.hasPrefix(#"{"error":"#) && response.text.contains(option), "\(response.text)")
            return response
        }
    }

    /// Sends `first`, then `line(n)` every `pace` until the server closes the connection or
    /// `Bounds.wait` passes; nil when it was never closed.
    private static func trickle(
        port: Int, first: String, pace: Int32 = 200, limit: Duration = Bounds.wait,
        line: @escaping @Sendable (Int) -> String
    ) async throws -> Closed? {
        try await offloaded {
            // Before connecting: the server's clock starts with the connection or a later byte.
            let started = ContinuousClock.now
            let socket = try Socket(port: port, timeout: 30)
            defer { socket.close() }
            if !first.isEmpty { try socket.write(Array(first.utf8)) }
            var index = 0
            while ContinuousClock.now - started < limit {
                if socket.closedByPeer(within: pace) { break }
                // The server may close between two lines: what it sent is read below.
                guard (try? socket.write(Array(line(index).utf8))) != nil else { break }
                index += 1
            }
            let after = ContinuousClock.now - started
            guard after < limit else { return nil }
            while !socket.closedByPeer(within: 1000) {}
            return Closed(after: after, answer: socket.received)
        }
    }

    @Test(
        "a client sending one header line at a time gets 408 after the header timeout and is cut off; the server stays up"
    )
    func slowHeaders() async throws {
        try await withServer(Self.configuration(header: .seconds(1), idle: .seconds(30))) { server, port in
            let cut = try await Self.trickle(port: port, first: "GET /slow HTTP/1.1\r\nHost: t.example\r\n") {
                "X-Line-\($0): a\r\n"
            }
            let closed = try #require(cut, "the slow client was never cut off")
            #expect(closed.after >= .seconds(1))
            let answer = try closed.requestTimeout(naming: "--header-timeout")
            #expect(answer.text.contains("no whole request head within 1000 ms"))
            #expect(server.store.requests().isEmpty)
            #expect(try await RawHTTP.send(port: port, target: "/after").status == 200)
        }
    }

    @Test("a connection idle between requests is closed after the idle timeout, not before, and without an answer")
    func idleConnection() async throws {
        try await withServer(Self.configuration(header: .seconds(30), idle: .seconds(1))) { _, port in
            // Nothing sent at all.
            let silent = try #require(try await Self.trickle(port: port, first: "", pace: 100) { _ in "" })
            #expect(silent.after >= .seconds(1))
            #expect(silent.answer.isEmpty)
            // After an answer on a kept-alive connection: the clock starts again with the answer.
            let kept = try await offloaded { () throws -> Closed? in
                let socket = try Socket(port: port, timeout: 10)
                defer { socket.close() }
                // Before the request: the server's clock starts once its answer is written.
                let asked = ContinuousClock.now
                try socket.write(Array("GET /one HTTP/1.1\r\nHost: t.example\r\n\r\n".utf8))
                let head = try socket.readHead()
                while ContinuousClock.now - asked < Bounds.wait {
                    if socket.closedByPeer(within: 100) {
                        return Closed(after: ContinuousClock.now - asked, answer: head + socket.received)
                    }
                }
                return nil
            }
            let closed = try #require(kept)
            #expect(closed.after >= .seconds(1))
            // The one answer is the request's: no 408 for the idle connection.
            let text = String(decoding: closed.answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(!text.contains("408"), "\(text)")
        }
    }

    @Test("a request whose body stalls gets 408 after the idle timeout, not before, and its connection is closed")
    func stalledBody() async throws {
        try await withServer(Self.configuration(header: .seconds(30), idle: .seconds(1))) { server, port in
            let cut = try await Self.trickle(
                port: port,
                first: "POST /v1/track HTTP/1.1\r\nHost: t.example\r\nContent-Length: 10\r\n\r\nhalf",
                // Four more bytes, a fifth of the timeout apart, then nothing: the clock starts again with
                // each, so the last, at least 800 ms in, is answered 1 s later at the soonest.
                pace: 200
            ) { $0 < 4 ? "b" : "" }
            let closed = try #require(cut, "the stalled request was never answered")
            #expect(closed.after >= .milliseconds(1800))
            let answer = try closed.requestTimeout(naming: "--idle-timeout")
            #expect(answer.text.contains("the request's body stalled for 1000 ms"))
            #expect(server.store.requests().isEmpty)
            #expect(try await RawHTTP.send(port: port, target: "/after").status == 200)
        }
    }

    @Test("a control API wait longer than the idle timeout is still answered; a head sent promptly is not cut off")
    func answersAreNotTimed() async throws {
        try await withServer(Self.configuration(header: .seconds(1), idle: .seconds(1))) { _, port in
            let id = try await startSession(port)
            let started = ContinuousClock.now
            let waited = try await control(port, "GET", "sessions/\(id)/requests?count=1&timeout=2")
            #expect(waited.status == 200)
            #expect(ContinuousClock.now - started >= .seconds(2))
            #expect(waited.header("X-Tracksnap-Wait") == "timed_out")
            // A body sent in parts, each well within the idle timeout, takes longer than both.
            let response = try await offloaded { () throws -> RawResponse in
                let socket = try Socket(port: port, timeout: 10)
                defer { socket.close() }
                try socket.write(
                    Array(
                        "POST /parts HTTP/1.1\r\nHost: t.example\r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
                            .utf8
                    ))
                // A fifth of the timeout apart: a loaded machine may stretch a gap by most of a second.
                for byte in Array("abcdefghij".utf8) {
                    Thread.sleep(forTimeInterval: 0.2)
                    try socket.write([byte])
                }
                return try RawHTTP.parse(try socket.readToEnd())
            }
            #expect(response.status == 200)
        }
    }

    @Test("serve --header-timeout sets the bound; a timeout of 0 is a usage error")
    func fromTheCommandLine() async throws {
        let server = try await ServeChild.launch(["--header-timeout", "1", "--quiet"])
        let cut = try await Self.trickle(port: server.port, first: "GET /slow HTTP/1.1\r\n") { "X-Line-\($0): a\r\n" }
        let closed = try #require(cut, "the slow client was never cut off")
        #expect(closed.after >= .seconds(1))
        _ = try closed.requestTimeout(naming: "--header-timeout")
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)

        let executable = try PackagePaths.executable.get()
        let refused = try await run(executable.path, ["serve", "--idle-timeout", "0"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--idle-timeout"))
    }
}
