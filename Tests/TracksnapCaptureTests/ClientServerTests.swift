import Foundation
import Testing
import TracksnapCapture
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The control API client against the real capture server, as a test in another process would
/// use it: start a session, send traffic, wait, validate, stop.
@Suite("The client drives a real capture server", .tags(.network), .leftToMakeTest)
struct ClientServerTests {
    private func withServer(root: URL? = nil, _ body: (URL) async throws -> Void) async throws {
        let server = try CaptureServer(configuration: .init(root: root?.path))
        let url = try await server.start()
        do {
            try await body(url)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    private func send(_ url: URL, header: (String, String)? = nil) async throws {
        var request = URLRequest(url: url)
        if let header { request.setValue(header.1, forHTTPHeaderField: header.0) }
        _ = try await URLSession.shared.data(for: request)
    }

    @Test("start, wait for N, validate and stop: the Szimpla flow over HTTP")
    func flow() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "home.json").path
            try write(
                #"{"requests": [{"method": "GET", "url": {"$regex": "http://127\\.0\\.0\\.1:[0-9]+/v1/e"}, "parameters": {"ev": "home"}}]}"#,
                to: URL(fileURLWithPath: snapshot))

            try await withServer(root: directory) { url in
                let client = TracksnapClient(baseURL: url)
                let session = try await client.startSession(name: "home")
                try await send(
                    url.appendingPathComponent("v1/e").appending(queryItems: [URLQueryItem(name: "ev", value: "home")]))
                let captured = try await session.waitForRequests(count: 1, timeout: Bounds.wait)
                #expect(captured.map(\.method) == ["GET"])
                let report = try await session.validate(snapshot: snapshot)
                #expect(report.passed)
                let stopped = try await session.stop()
                #expect(stopped.count == 1)
                await #expect(throws: TracksnapClientError.self) { try await session.requests() }
            }
        }
    }

    @Test("two sessions at once: the header and the per-session base URL keep their traffic apart")
    func isolation() async throws {
        try await withServer { url in
            let client = TracksnapClient(baseURL: url)
            let first = try await client.startSession(name: "a")
            let second = try await client.startSession(name: "b")
            try await send(url.appendingPathComponent("v1/e"), header: (TracksnapClient.sessionHeader, first.id))
            try await send(second.baseURL.appendingPathComponent("v1/e"))
            try await send(second.baseURL.appendingPathComponent("v1/e"))
            #expect(try await first.waitForRequests(count: 1, timeout: Bounds.wait).count == 1)
            let secondRequests = try await second.waitForRequests(count: 2, timeout: Bounds.wait)
            #expect(secondRequests.count == 2)
            #expect(secondRequests.allSatisfy { !$0.url.contains("__tracksnap") })
        }
    }

    @Test("waiting returns what arrived when the deadline passes")
    func deadline() async throws {
        try await withServer { url in
            let session = try await TracksnapClient(baseURL: url).startSession(name: nil)
            try await send(url.appendingPathComponent("v1/e"))
            let clock = ContinuousClock()
            let start = clock.now
            let captured = try await session.waitForRequests(count: 3, timeout: .milliseconds(300))
            #expect(captured.count == 1)
            // Exact: the clock started before the server's.
            #expect(clock.now - start >= .milliseconds(300))
        }
    }

    @Test(
        "record from two sessions through the client: what differs is generalised, and the text report of a third run passes"
    )
    func recordAcrossSessions() async throws {
        try await withTemporaryDirectory { directory in
            try await withServer(root: directory) { url in
                let client = TracksnapClient(baseURL: url)
                let first = try await client.startSession(name: "run 1")
                let second = try await client.startSession(name: "run 2")
                for session in [first, second] {
                    try await send(
                        session.baseURL.appending(path: "v1/e").appending(queryItems: [
                            URLQueryItem(name: "ev", value: "home"),
                            URLQueryItem(name: "cid", value: UUID().uuidString),
                            URLQueryItem(name: "n", value: session.id),
                        ]))
                }
                let recording = try await first.record(snapshot: "Snapshots/home.json", reruns: [second])
                #expect(recording.recorded)
                #expect(recording.file == "Snapshots/home.json")
                #expect(recording.requests == 1)
                #expect(
                    recording.generalized.contains {
                        $0.path.hasSuffix("/parameters/n") && $0.reason == "differs between runs"
                    })
                #expect(FileManager.default.fileExists(atPath: directory.appending(path: "Snapshots/home.json").path))

                let kept = try await first.record(snapshot: "Snapshots/home.json", mode: .missing)
                #expect(!kept.recorded)
                #expect(kept.reason?.contains("exists") == true)

                _ = try await first.stop()
                _ = try await second.stop()
                let third = try await client.startSession(name: "run 3")
                try await send(
                    third.baseURL.appending(path: "v1/e").appending(queryItems: [
                        URLQueryItem(name: "ev", value: "home"), URLQueryItem(name: "cid", value: UUID().uuidString),
                        URLQueryItem(name: "n", value: "s9"),
                    ]))
                let report = try await third.report(
                    snapshot: "Snapshots/home.json", format: "text", settle: .milliseconds(200))
                #expect(report.passed, "\(report.text)")
                #expect(report.text.contains("home"))

                await #expect(throws: TracksnapClientError.self) {
                    try await third.record(snapshot: "../outside.json")
                }
            }
        }
    }
}
