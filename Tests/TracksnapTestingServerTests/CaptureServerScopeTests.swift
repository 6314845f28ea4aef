import Foundation
import Synchronization
import Testing
import TracksnapTestSupport
import TracksnapTestingServer

/// Whether anything answers the control API at `url`.
private func answers(_ url: URL) async -> Bool {
    do {
        try await TracksnapClient(baseURL: url).health()
        return true
    } catch {
        return false
    }
}

private struct Planted: Error {}

@Suite("A capture server in the test's own process", .tags(.network), .leftToMakeTest)
struct CaptureServerScopeTests {
    @Test("withCaptureServer listens on a free port of 127.0.0.1 while the scope runs, and not after")
    func scoped() async throws {
        let (first, second) = try await withCaptureServer { server in
            try await withCaptureServer { other in
                #expect(server.url.host == "127.0.0.1")
                #expect(server.port != 0 && other.port != 0 && server.port != other.port, "\(server.url) \(other.url)")
                try await server.client.health()
                try await other.client.health()
                let session = try await server.startSession(name: "checkout")
                #expect(server.session(id: session.id) == session)
                return (server.url, other.url)
            }
        }
        #expect(await !answers(first))
        #expect(await !answers(second))
    }

    @Test("the server is shut down when the scope throws, and the error comes through")
    func shutDownOnThrow() async throws {
        let url = Mutex<URL?>(nil)
        await #expect(throws: Planted.self) {
            try await withCaptureServer { server in
                url.withLock { $0 = server.url }
                #expect(await answers(server.url))
                throw Planted()
            }
        }
        #expect(await !answers(try #require(url.withLock { $0 })))
    }

    @Test("a server that cannot listen is an error, not a hang")
    func cannotListen() async throws {
        try await withCaptureServer { server in
            await #expect(throws: CaptureServerError.self) {
                try await withCaptureServer(.init(port: server.port)) { _ in }
            }
        }
    }

    @Test("the trait gives the test a running server", .captureServer())
    func trait() async throws {
        let server = try #require(ScopedCaptureServer.current)
        try await server.client.health()
        let session = try await server.startSession()
        _ = try await session.stop()
    }

    @Test("the trait's scope: a server while the test runs, none after it; none without the trait")
    func traitScope() async throws {
        #expect(ScopedCaptureServer.current == nil)
        let test = try #require(Test.current)
        let seen = Mutex<URL?>(nil)
        try await CaptureServerTrait.captureServer().provideScope(for: test, testCase: Test.Case.current) {
            let server = try #require(ScopedCaptureServer.current)
            #expect(await answers(server.url))
            seen.withLock { $0 = server.url }
        }
        #expect(await !answers(try #require(seen.withLock { $0 })))
        #expect(ScopedCaptureServer.current == nil)
    }
}
