import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// The proxy resolves a target's name once, checks the answer, and connects to what it checked.
/// A fake resolver answers as a name whose DNS changes between two questions would; clients
/// elsewhere are addresses only (198.51.100.0/24, TEST-NET-2), never connected to: every
/// connection of these tests is to 127.0.0.0/8.
@Suite("Resolve once, check, connect to the address checked", .tags(.network), .leftToMakeTest)
struct ProxyConnectionTests {
    /// Answers each question with the next of `answers` (the last one from then on), and counts them.
    final class ChangingResolver: Sendable {
        private let answers: [[String]]
        private let asked = Mutex(0)

        init(_ answers: [String]...) {
            self.answers = answers
        }

        var questions: Int { asked.withLock { $0 } }

        var resolver: HostResolver {
            HostResolver { [self] _, port in
                let index = asked.withLock { count in
                    count += 1
                    return min(count, answers.count) - 1
                }
                return try answers[index].map { try SocketAddress(ipAddress: $0, port: port) }
            }
        }
    }

    private static let local = try? SocketAddress(ipAddress: "127.0.0.1", port: 50000)
    private static let remote = try? SocketAddress(ipAddress: "198.51.100.20", port: 50000)

    private static func proxyGuard(_ resolver: ChangingResolver) -> ProxyGuard {
        ProxyGuard(configuration: .init(), resolver: resolver.resolver)
    }

    @Test("a tunnel connects to the address the name resolved to when checked, not to what it answers next")
    func tunnelConnectsToCheckedAddress() async throws {
        try await withAuthority { authority in
            let listener = try await UpstreamTLSServer.start(authority: authority, address: "127.0.0.2")
            defer { Task { await listener.stop() } }
            let resolver = ChangingResolver(["127.0.0.2"], ["127.0.0.1"])
            let channel = try await Self.proxyGuard(resolver).connect(
                to: "rebinding.test", port: listener.port, client: Self.local,
                on: MultiThreadedEventLoopGroup.singleton.next(), timeout: .seconds(Bounds.wait.components.seconds))
            #expect(channel.remoteAddress?.ipAddress == "127.0.0.2")
            try await channel.close()
            #expect(resolver.questions == 1)
            #expect(try await eventually { listener.connections == 1 })
        }
    }

    @Test("for a client elsewhere, the forwarder is given the address checked, and the name is asked once")
    func forwarderGivenCheckedAddress() async throws {
        let resolver = ChangingResolver(["198.51.100.7"], ["127.0.0.1"])
        let address = try await Self.proxyGuard(resolver).pinnedAddress(
            of: "rebinding.test", port: 443, client: Self.remote)
        #expect(address == "198.51.100.7")
        #expect(resolver.questions == 1)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var host: String
        var answer: [String]
        var status: Int
        var testDescription: String { "\(host) → \(answer)" }
    }

    @Test(
        "for a client elsewhere, a name is refused when any of its addresses is this host, and when it resolves to nothing; no connection is made",
        arguments: [
            Refused(host: "rebinding.test", answer: ["127.0.0.2"], status: 403),
            Refused(host: "rebinding.test", answer: ["198.51.100.7", "127.0.0.2"], status: 403),
            Refused(host: "rebinding.test", answer: ["::ffff:127.0.0.2"], status: 403),
            Refused(host: "rebinding.test", answer: ["0.0.0.0"], status: 403),
            Refused(host: "localhost", answer: ["198.51.100.7"], status: 403),
            Refused(host: "127.0.0.2", answer: [], status: 403),
            Refused(host: "rebinding.test", answer: [], status: 502),
        ])
    func refusedForRemoteClient(_ example: Refused) async throws {
        try await withAuthority { authority in
            let listener = try await UpstreamTLSServer.start(authority: authority, address: "127.0.0.2")
            defer { Task { await listener.stop() } }
            let proxyGuard = Self.proxyGuard(ChangingResolver(example.answer))
            let refusal = await #expect(throws: ProxyRefusal.self) {
                try await proxyGuard.connect(
                    to: example.host, port: listener.port, client: Self.remote,
                    on: MultiThreadedEventLoopGroup.singleton.next(), timeout: .seconds(Bounds.wait.components.seconds))
            }
            #expect(refusal.map { Int($0.response.status.code) } == example.status)
            let pinned = await #expect(throws: ProxyRefusal.self) {
                try await proxyGuard.pinnedAddress(of: example.host, port: listener.port, client: Self.remote)
            }
            #expect(pinned.map { Int($0.response.status.code) } == example.status)
            #expect(listener.connections == 0)
        }
    }

    @Test("nothing to pin for a client on loopback, nor for an IP literal: the name is not even resolved")
    func nothingPinned() async throws {
        let resolver = ChangingResolver(["198.51.100.7"])
        let proxyGuard = Self.proxyGuard(resolver)
        #expect(try await proxyGuard.pinnedAddress(of: "collect.test", port: 443, client: Self.local) == nil)
        #expect(try await proxyGuard.pinnedAddress(of: "198.51.100.8", port: 443, client: Self.remote) == nil)
        #expect(resolver.questions == 0)
    }

    @Test(
        "the forwarder connects to the address it is given, while Host, the TLS server name and the certificate check keep the URL's name"
    )
    func forwarderConnectsToGivenAddress() async throws {
        try await withAuthority { authority in
            let upstream = try await UpstreamTLSServer.start(
                authority: authority, address: "127.0.0.2", name: "pinned.test")
            defer { Task { await upstream.stop() } }
            let forwarder = try Forwarder(trusting: [authority.certificatePath])
            let request = IncomingRequest(
                head: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/x"), body: ByteBuffer())
            // Neither name resolves: only the address given reaches the upstream.
            let named = await forwarder.forward(
                request, to: "https://pinned.test:\(upstream.port)/v1/x", connectingTo: "127.0.0.2",
                responseLimit: 1 << 20)
            #expect(named.status == .created)
            #expect(String(buffer: named.body) == "upstream saw GET /v1/x with 0 bytes")
            let misnamed = await forwarder.forward(
                request, to: "https://other.test:\(upstream.port)/v1/x", connectingTo: "127.0.0.2",
                responseLimit: 1 << 20)
            #expect(misnamed.status == .badGateway)
            #expect(String(buffer: misnamed.body).contains("find other.test in certificate"))
            #expect(upstream.connections == 2)

            try await withServer(.init(host: "127.0.0.2")) { server, port in
                let plain = await forwarder.forward(
                    request, to: "http://pinned.test:\(port)/plain", connectingTo: "127.0.0.2", responseLimit: 1 << 20)
                #expect(plain.status == .ok)
                #expect(server.store.requests().first?.header("Host") == "pinned.test:\(port)")
            }
        }
    }
}
