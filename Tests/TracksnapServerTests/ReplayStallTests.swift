import Foundation
import Synchronization
import Testing
import TracksnapReplay
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// A large cassette holds up none of the server's other clients: its misses look for their
/// nearest interactions, and a session's cassette is read, on replay's own thread; a hit, the
/// control API and the thread pool's other work (an ingest) go on meanwhile.
@Suite("Replay work stays off the event loop and off the shared thread pool", .tags(.network), .leftToMakeTest)
struct ReplayStallTests {
    /// How many answers came, counted from the tasks that wait for them.
    final class Counter: Sendable {
        let value = Atomic(0)
    }

    /// A cassette of `count` interactions, `GET http://api.example/items/N?page=N`, written at
    /// `path` and read, on a thread of their own: not on the threads Swift's concurrency shares
    /// with the server and the other tests.
    static func player(_ count: Int, at path: String) async throws -> CassettePlayer {
        try await offloaded {
            try writeCassette(count, to: path)
            return try CassettePlayer(path: path, mode: .never)
        }
    }

    static func writeCassette(_ count: Int, to path: String) throws {
        let interactions = (0..<count).map { index in
            Interaction(
                request: Interaction.Request(
                    CapturedRequest(id: "", method: "GET", url: "http://api.example/items/\(index)?page=\(index)")),
                response: Interaction.Response(status: 200, body: .text("item \(index)")))
        }
        try Cassette(name: "large", format: .tracksnap, interactions: interactions).write(to: path)
    }

    /// The response, and how long it took.
    static func timed(_ call: () async throws -> RawResponse) async throws -> (RawResponse, Duration) {
        let asked = ContinuousClock.now
        let response = try await call()
        return (response, ContinuousClock.now - asked)
    }

    @Test(
        "while 20 parallel misses on a cassette of 10,000 interactions are outstanding, another client's health, a hit and an ingest are answered without waiting for them, and each miss says it looked among a bounded few"
    )
    func missesDoNotStall() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = CaptureServer.Configuration()
            configuration.replay = try await Self.player(10_000, at: directory.appending(path: "large.json").path)
            try await withServer(configuration) { _, port in
                let session = try await startSession(port)
                let answered = Counter()
                try await withThrowingTaskGroup(of: RawResponse?.self) { group in
                    let started = ContinuousClock.now
                    for index in 0..<20 {
                        group.addTask {
                            let response = try await RawHTTP.send(
                                port: port, target: "http://api.example/other/\(index)")
                            answered.value.add(1, ordering: .relaxed)
                            return response
                        }
                    }
                    // The misses are under way once the first is answered.
                    let first = try #require(try await group.next() ?? nil)
                    #expect(first.status == 599, "\(first.text)")
                    #expect(first.text.contains("looked for among 1000 of the cassette's 10000"), "\(first.text)")
                    async let health = Self.timed { try await control(port, "GET", "health") }
                    async let hit = Self.timed {
                        try await RawHTTP.send(port: port, target: "http://api.example/items/7?page=7")
                    }
                    async let ingest = Self.timed {
                        try await control(
                            port, "POST", "sessions/\(session)/requests",
                            body: #"[{"method": "GET", "url": "https://t.example/e"}]"#)
                    }
                    let others = try await [("health", health), ("a hit", hit), ("an ingest", ingest)]
                    let done = answered.value.load(ordering: .relaxed)
                    for try await response in group { #expect(response?.status == 599) }
                    let misses = ContinuousClock.now - started

                    #expect(others.map(\.1.0.status) == [200, 200, 200], "\(others.map(\.1.0.text))")
                    #expect(others[1].1.0.text == "item 7")
                    #expect(done < 20, "\(others.map(\.0)) were answered only once every miss was")
                    // On the event loops, the misses held up the loops' other clients until
                    // theirs were done; on the thread pool, the ingest waited behind them.
                    for (name, (_, waited)) in others {
                        #expect(waited < misses / 2, "\(name) waited \(waited); the misses took \(misses)")
                    }
                }
            }
        }
    }

    @Test(
        "while 6 sessions with a large cassette are being read, another client's health and a session without one are answered without waiting a cassette's reading"
    )
    func largeSessionCassetteDoesNotStall() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await Self.player(1_000, at: directory.appending(path: "large.json").path)
            var configuration = CaptureServer.Configuration()
            configuration.root = directory.path
            try await withServer(configuration) { _, port in
                let created = Counter()
                try await withThrowingTaskGroup(of: Int.self) { group in
                    let started = ContinuousClock.now
                    for _ in 0..<6 {
                        group.addTask {
                            let response = try await control(
                                port, "POST", "sessions", body: #"{"cassette": "large.json", "recordMode": "never"}"#)
                            created.value.add(1, ordering: .relaxed)
                            return response.status
                        }
                    }
                    let first = try #require(try await group.next())
                    #expect(first == 201)
                    // One cassette's reading took this long; the others are being read now.
                    let reading = ContinuousClock.now - started
                    async let health = Self.timed { try await control(port, "GET", "health") }
                    async let plain = Self.timed { try await control(port, "POST", "sessions") }
                    let others = try await [("health", health), ("a session without a cassette", plain)]
                    let done = created.value.load(ordering: .relaxed)
                    for try await status in group { #expect(status == 201) }

                    #expect(others.map(\.1.0.status) == [200, 201])
                    #expect(done < 6, "\(others.map(\.0)) were answered only once every session was")
                    // On the event loops, each loop read its sessions' cassettes one after
                    // another: another client waited for the rest of its loop's.
                    for (name, (_, waited)) in others {
                        #expect(waited < reading, "\(name) waited \(waited); reading one cassette took \(reading)")
                    }
                }
            }
        }
    }
}
