import Foundation
import Synchronization
import Testing
import TracksnapCore
import TracksnapModel
import TracksnapReplay
import TracksnapServer
import TracksnapTestSupport

/// A large cassette holds up none of the server's other clients: its misses look for their
/// nearest interactions, and a session's cassette is read, off the event loop.
@Suite("Replay work stays off the event loop")
struct ReplayStallTests {
    /// How many answers came, counted from the tasks that wait for them.
    final class Counter: Sendable {
        let value = Atomic(0)
    }

    /// A cassette of `count` interactions, `GET https://api.example/items/N`, written at `path`.
    static func writeCassette(_ count: Int, to path: String) throws {
        let interactions = (0..<count).map { index in
            Interaction(
                request: Interaction.Request(
                    CapturedRequest(id: "", method: "GET", url: "https://api.example/items/\(index)?page=\(index)")),
                response: Interaction.Response(status: 200, body: .text("item \(index)")))
        }
        try Cassette(name: "large", format: .tracksnap, interactions: interactions).write(to: path)
    }

    @Test(
        "another client's health is answered while 40 parallel misses on a cassette of 50,000 interactions are still outstanding, and each miss says it looked among a bounded few"
    )
    func missesDoNotStall() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "large.json").path
            try Self.writeCassette(50_000, to: path)
            var configuration = CaptureServer.Configuration()
            configuration.replay = try CassettePlayer(path: path, mode: .never)
            try await withServer(configuration) { _, port in
                let answered = Counter()
                try await withThrowingTaskGroup(of: RawResponse?.self) { group in
                    for index in 0..<40 {
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
                    #expect(first.text.contains("looked for among 1000 of the cassette's 50000"), "\(first.text)")
                    let health = try await control(port, "GET", "health")
                    let done = answered.value.load(ordering: .relaxed)
                    #expect(health.status == 200)
                    #expect(done < 40, "health was answered only once every miss was")
                    for try await response in group { #expect(response?.status == 599) }
                }
            }
        }
    }

    @Test(
        "another client's health is answered at once while sessions with a large cassette are still being read, not a cassette's reading later"
    )
    func largeSessionCassetteDoesNotStall() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "large.json").path
            try Self.writeCassette(3_000, to: path)
            var configuration = CaptureServer.Configuration()
            configuration.root = directory.path
            try await withServer(configuration) { _, port in
                let created = Counter()
                try await withThrowingTaskGroup(of: Int.self) { group in
                    let started = ContinuousClock.now
                    for _ in 0..<4 {
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
                    let asked = ContinuousClock.now
                    let health = try await control(port, "GET", "health")
                    let waited = ContinuousClock.now - asked
                    #expect(health.status == 200)
                    #expect(
                        created.value.load(ordering: .relaxed) < 4, "health was answered only once every session was")
                    #expect(waited < reading / 3, "health waited \(waited); reading one cassette took \(reading)")
                    for try await status in group { #expect(status == 201) }
                }
            }
        }
    }
}
