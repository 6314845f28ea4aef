import Foundation
import Testing
import TracksnapCore
import TracksnapServer
import TracksnapTestSupport

@Suite("Connection timeouts")
struct ConnectionTimeoutTests {
    private static func configuration(header: Duration, idle: Duration) -> CaptureServer.Configuration {
        var configuration = CaptureServer.Configuration()
        configuration.headerTimeout = header
        configuration.idleTimeout = idle
        return configuration
    }

    /// Sends `first`, then `line(n)` every `pace` until the server closes the connection or
    /// `limit` passes; returns how long after the first byte the server closed, or nil.
    private static func trickle(
        port: Int, first: String, pace: Int32 = 200, limit: Duration = .seconds(20),
        line: @escaping @Sendable (Int) -> String
    ) async throws -> Duration? {
        try await offloaded {
            let socket = try Socket(port: port, timeout: 30)
            defer { socket.close() }
            let started = ContinuousClock.now
            if !first.isEmpty { try socket.write(Array(first.utf8)) }
            var index = 0
            while ContinuousClock.now - started < limit {
                if socket.closedByPeer(within: pace) { return ContinuousClock.now - started }
                do { try socket.write(Array(line(index).utf8)) } catch { return ContinuousClock.now - started }
                index += 1
            }
            return nil
        }
    }

    @Test("a client sending one header line at a time is cut off after the header timeout; the server stays up")
    func slowHeaders() async throws {
        try await withServer(Self.configuration(header: .seconds(1), idle: .seconds(30))) { server, port in
            let cut = try await Self.trickle(port: port, first: "GET /slow HTTP/1.1\r\nHost: t.example\r\n") {
                "X-Line-\($0): a\r\n"
            }
            let after = try #require(cut, "the slow client was never cut off")
            #expect(after >= .milliseconds(900))
            #expect(after < .seconds(5))
            #expect(server.store.requests().isEmpty)
            #expect(try await RawHTTP.send(port: port, target: "/after").status == 200)
        }
    }

    @Test("a connection idle between requests is closed after the idle timeout, not before")
    func idleConnection() async throws {
        try await withServer(Self.configuration(header: .seconds(30), idle: .seconds(1))) { _, port in
            // Nothing sent at all.
            let silent = try #require(try await Self.trickle(port: port, first: "", pace: 100) { _ in "" })
            #expect(silent >= .milliseconds(900))
            #expect(silent < .seconds(5))
            // After an answer on a kept-alive connection: the clock starts again with the answer.
            let kept = try await offloaded { () throws -> Duration? in
                let socket = try Socket(port: port, timeout: 10)
                defer { socket.close() }
                try socket.write(Array("GET /one HTTP/1.1\r\nHost: t.example\r\n\r\n".utf8))
                _ = try socket.readHead()
                let answered = ContinuousClock.now
                while ContinuousClock.now - answered < .seconds(20) {
                    if socket.closedByPeer(within: 100) { return ContinuousClock.now - answered }
                }
                return nil
            }
            let closed = try #require(kept)
            #expect(closed >= .milliseconds(900))
            #expect(closed < .seconds(5))
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
                        "POST /parts HTTP/1.1\r\nHost: t.example\r\nContent-Length: 5\r\nConnection: close\r\n\r\n".utf8
                    ))
                for byte in Array("abcde".utf8) {
                    Thread.sleep(forTimeInterval: 0.4)
                    try socket.write([byte])
                }
                return try RawHTTP.parse(try socket.readToEnd())
            }
            #expect(response.status == 200)
        }
    }

    @Test("serve --header-timeout sets the bound; a timeout of 0 is a usage error")
    func fromTheCommandLine() async throws {
        let server = try await ServeProcess.launch(["--header-timeout", "1", "--quiet"])
        let cut = try await Self.trickle(port: server.port, first: "GET /slow HTTP/1.1\r\n") { "X-Line-\($0): a\r\n" }
        let after = try #require(cut, "the slow client was never cut off")
        #expect(after >= .milliseconds(900))
        #expect(after < .seconds(5))
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)

        let executable = try PackagePaths.executable.get()
        let refused = try await run(executable.path, ["serve", "--idle-timeout", "0"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--idle-timeout"))
    }
}
