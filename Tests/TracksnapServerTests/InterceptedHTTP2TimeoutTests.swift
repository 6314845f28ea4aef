import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// Intercepted HTTP/2 connections are timed as HTTP/1.1 ones are: an idle one is shut down
/// (GOAWAY, then closed), a stalled stream gets 408. The client is python-hyper's h2
/// (`Fixtures/h2_client.py`, in the venv `make test` installs), through `serve --intercept`.
@Suite("Intercepted HTTP/2 timeouts", .tags(.process, .network), .leftToMakeTest)
struct InterceptedHTTP2TimeoutTests {
    /// The largest stream id: the first GOAWAY of a graceful shutdown still admits every stream.
    static let everyStream = 2_147_483_647
    /// What "at last" allows, in the client's seconds: a loaded machine delays a shutdown by
    /// seconds, so a time is bounded from below by its timeout (less a tenth of a second: the
    /// client's clock starts when it reads the answer, the server's when it wrote it) and from
    /// above only by `Bounds.wait`, which rules out never.
    static let late = Double(Bounds.wait.components.seconds)

    /// What `h2_client.py` saw; times in seconds.
    struct Seen: Decodable {
        var statuses: [Int]
        /// `[last stream id, error code]` of each GOAWAY.
        var goaways: [[Int]]
        var goawayAfter: Double?
        var closedAfter: Double?
        var answeredAfter: Double?
        var goawaysWhileActive: Int?
        var body: String?
        /// Streams the server reset.
        var resets: Int?
    }

    /// Runs `h2_client.py` through the proxy on `port` to `api.segment.io`.
    static func h2Client(_ port: Int, authority: CertificateAuthority, _ mode: String, _ more: String...)
        async throws -> Seen
    {
        let python = PackagePaths.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "\(python.path) is missing: run `make test`, which installs h2 there")
        let script = PackagePaths.root.appending(path: "Tests/TracksnapServerTests/Fixtures/h2_client.py").path
        let result = try await runProcess(
            python, [script, String(port), "api.segment.io:443", authority.certificatePath, mode] + more,
            timeout: Bounds.process)
        try #require(result.status == 0, "h2_client.py \(mode): \(result.stderr)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Seen.self, from: Data(result.stdout.utf8))
    }

    /// An answering interception of api.segment.io with these timeouts.
    static func configuration(
        authority: CertificateAuthority, notices: Notices, idle: Duration, header: Duration = .seconds(30)
    ) throws -> CaptureServer.Configuration {
        var configuration = try interceptingConfiguration(
            ["api.segment.io"], answer: true, authority: authority, notices: notices)
        configuration.idleTimeout = idle
        configuration.headerTimeout = header
        return configuration
    }

    @Test(
        "a connection making requests more often than the idle timeout stays open; once idle it is shut down with GOAWAY after the idle timeout, not before"
    )
    func idleAfterRequests() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            let configuration = try Self.configuration(authority: authority, notices: notices, idle: .seconds(2))
            try await withServer(configuration) { server, port in
                // Six requests a quarter of the idle timeout apart: 2.5 s of use, longer than the timeout.
                let seen = try await Self.h2Client(port, authority: authority, "requests", "6", "0.5")
                #expect(seen.statuses == Array(repeating: 200, count: 6))
                #expect(seen.goawaysWhileActive == 0)
                #expect(server.store.requests().count == 6)
                // Idle from its last answer: the shutdown starts after 2 s, not before.
                let goaway = try #require(seen.goawayAfter, "no GOAWAY: \(seen)")
                #expect(goaway >= 1.9, "\(seen)")
                #expect(goaway < Self.late, "\(seen)")
                let closed = try #require(seen.closedAfter)
                #expect(closed >= goaway && closed < Self.late, "\(seen)")
                // Graceful: every stream admitted first, then the last one taken (the sixth, 11), no error.
                #expect(seen.goaways.first == [Self.everyStream, 0], "\(seen)")
                #expect(seen.goaways.last == [11, 0], "\(seen)")
                // The normal end of a kept-alive connection: not a failure.
                #expect(server.store.statistics.interceptFailures == 0)
                #expect(notices.all.isEmpty, "\(notices.all)")
            }
        }
    }

    @Test("a connection that never opens a stream is shut down after the idle timeout, not before")
    func idleWithoutStream() async throws {
        try await withAuthority { authority in
            let configuration = try Self.configuration(authority: authority, notices: Notices(), idle: .seconds(1))
            try await withServer(configuration) { _, port in
                let seen = try await Self.h2Client(port, authority: authority, "no-stream")
                let goaway = try #require(seen.goawayAfter, "no GOAWAY: \(seen)")
                #expect(goaway >= 0.9, "\(seen)")
                #expect(goaway < Self.late, "\(seen)")
                #expect(try #require(seen.closedAfter) < Self.late, "\(seen)")
                #expect(seen.goaways.first == [Self.everyStream, 0], "\(seen)")
                #expect(seen.goaways.last == [0, 0], "\(seen)")
            }
        }
    }

    @Test("a client that never acknowledges the shutdown's PING is closed the header timeout after the GOAWAY")
    func unacknowledgedShutdown() async throws {
        try await withAuthority { authority in
            let configuration = try Self.configuration(
                authority: authority, notices: Notices(), idle: .seconds(1), header: .seconds(5))
            try await withServer(configuration) { _, port in
                let seen = try await Self.h2Client(port, authority: authority, "no-ack")
                #expect(seen.statuses == [200])
                let goaway = try #require(seen.goawayAfter, "no GOAWAY: \(seen)")
                #expect(goaway >= 0.9 && goaway < Self.late, "\(seen)")
                let closed = try #require(seen.closedAfter, "\(seen)")
                #expect(closed - goaway >= 4.9, "\(seen)")
                #expect(closed - goaway < Self.late, "\(seen)")
                // Only the first GOAWAY: the client never let the shutdown go on.
                #expect(seen.goaways == [[Self.everyStream, 0]], "\(seen)")
            }
        }
    }

    @Test(
        "a stream whose body stalls gets 408 after the idle timeout, is told and counted; the connection then idles out"
    )
    func stalledStream() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            let configuration = try Self.configuration(authority: authority, notices: notices, idle: .seconds(1))
            try await withServer(configuration) { server, port in
                let seen = try await Self.h2Client(port, authority: authority, "stall")
                #expect(seen.statuses == [408], "\(seen)")
                #expect(seen.body?.contains("the request's body stalled for 1000 ms (--idle-timeout)") == true)
                let answered = try #require(seen.answeredAfter, "\(seen)")
                #expect(answered >= 0.9 && answered < Self.late, "\(seen)")
                // Its stream was the connection's last: it then idled out as any other.
                let closed = try #require(seen.closedAfter, "\(seen)")
                #expect(closed >= answered + 0.9 && closed < answered + Self.late, "\(seen)")
                #expect(seen.goaways.last == [1, 0], "\(seen)")
                #expect(server.store.requests().isEmpty)
                #expect(server.store.statistics.interceptFailures == 1)
                #expect(
                    notices.all == [
                        "intercept api.segment.io: POST /v1/track timed out: the request's body stalled for 1000 ms (--idle-timeout); answered 408"
                    ])
            }
        }
    }

    @Test("a stream answered 413 whose client keeps sending longer than the header timeout gets no second answer")
    func oversizedStream() async throws {
        try await withAuthority { authority in
            let notices = Notices()
            var configuration = try Self.configuration(
                authority: authority, notices: notices, idle: .seconds(1), header: .seconds(2))
            configuration.maximumBodySize = 100
            try await withServer(configuration) { server, port in
                // Ten parts 0.3 s apart: 2.7 s of body after the 413, more than the header timeout.
                let seen = try await Self.h2Client(port, authority: authority, "oversize", "10", "0.3")
                #expect(seen.statuses == [413], "\(seen)")
                #expect(server.store.statistics.rejected == 1)
                #expect(server.store.statistics.interceptFailures == 0)
                #expect(notices.all.isEmpty, "\(notices.all)")
                #expect(seen.closedAfter != nil, "\(seen)")
            }
        }
    }
}
