import Testing
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Session attribution", .tags(.network), .leftToMakeTest)
struct SessionIsolationTests {
    @Test("with one session open, all traffic goes to it")
    func oneSession() async throws {
        try await withServer { server, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(port: port, target: "/e")
            #expect(server.store.requests(inSession: id)?.count == 1)
            #expect(server.store.requests().first?.session == id)
        }
    }

    @Test("two parallel sessions are kept apart by header and by base URL")
    func parallelSessions() async throws {
        try await withServer { server, port in
            let first = try await startSession(port, name: "by-header")
            let second = try await startSession(port, name: "by-url")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        _ = try await RawHTTP.send(
                            port: port, target: "/h/\(index)", headers: [("X-Tracksnap-Session", first)])
                    }
                    group.addTask {
                        _ = try await RawHTTP.send(port: port, target: "/__tracksnap/s/\(second)/u/\(index)?q=1")
                    }
                }
                // Matches no session: only the global list.
                group.addTask { _ = try await RawHTTP.send(port: port, target: "/stray") }
                try await group.waitForAll()
            }
            let byHeader = try capturedRequests(
                try await control(port, "GET", "sessions/\(first)/requests?count=20&timeout=10"))
            let byURL = try capturedRequests(
                try await control(port, "GET", "sessions/\(second)/requests?count=20&timeout=10"))
            #expect(byHeader.count == 20)
            #expect(byHeader.allSatisfy { $0.url.contains("/h/") && $0.session == first })
            #expect(byURL.count == 20)
            // The prefix is stripped before recording.
            #expect(
                byURL.allSatisfy {
                    $0.url.hasPrefix("http://127.0.0.1:\(port)/u/") && $0.url.hasSuffix("?q=1") && $0.session == second
                })
            let global = server.store.requests()
            #expect(global.count == 41)
            #expect(global.filter { $0.session == nil }.map(\.url) == ["http://127.0.0.1:\(port)/stray"])
        }
    }

    @Test("traffic naming a session that is not open goes only to the global list")
    func endedSession() async throws {
        try await withServer { server, port in
            let ended = try await startSession(port)
            _ = try await control(port, "DELETE", "sessions/\(ended)")
            let open = try await startSession(port)
            _ = try await RawHTTP.send(port: port, target: "/late", headers: [("X-Tracksnap-Session", ended)])
            #expect(server.store.requests(inSession: open)?.isEmpty == true)
            #expect(server.store.requests().count == 1)
        }
    }
}
