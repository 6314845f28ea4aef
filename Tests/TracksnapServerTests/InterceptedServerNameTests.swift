import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@testable import TracksnapServer

/// A client that reached an intercepted tunnel by address names the host it meant in its TLS
/// server name; that name must pass what a `CONNECT` to it would. Every connection of these
/// tests stays on 127.0.0.0/8: 192.0.2.1 (TEST-NET-1) is only ever a `CONNECT` target that
/// interception answers itself.
@Suite("The TLS server name of a tunnel to an address", .tags(.network), .leftToMakeTest)
struct InterceptedServerNameTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var patterns: [String]
        /// What the client prints: the answer's status line, or the start of a failed handshake.
        var outcome: String
        var upstreamConnections: Int
        var notice: String?
        var testDescription: String { patterns.joined(separator: " ") }
    }

    @Test(
        "a tunnel to 127.0.0.9 naming localhost is intercepted as localhost only when --intercept names localhost, with that pattern's action; otherwise it is closed and the TLS service on 127.0.0.1 sees no connection",
        arguments: [
            Case(
                patterns: ["127.0.0.9"], outcome: "handshake failed", upstreamConnections: 0,
                notice:
                    "intercept 127.0.0.9: the TLS server name localhost is not named by --intercept; the tunnel was closed"
            ),
            Case(patterns: ["127.0.0.9", "localhost"], outcome: "HTTP/1.1 201 Created", upstreamConnections: 1),
            Case(patterns: ["127.0.0.9", "localhost=answer"], outcome: "HTTP/1.1 200 OK", upstreamConnections: 0),
        ])
    func serverNameMustBeNamed(_ example: Case) async throws {
        try await withAuthority { authority in
            try await withAuthority { upstreamAuthority in
                let upstream = try await UpstreamTLSServer.start(authority: upstreamAuthority, name: "localhost")
                defer { Task { await upstream.stop() } }
                let notices = Notices()
                let configuration = try interceptingConfiguration(
                    example.patterns, answer: false, authority: authority, notices: notices,
                    upstreamCertificates: [upstreamAuthority.certificatePath])
                try await withServer(configuration) { server, port in
                    let result = try await tunnelClient(
                        port, "127.0.0.9:\(upstream.port)", "get-as=localhost", authority: authority)
                    #expect(result.status == 0, "\(result.stderr)")
                    #expect(result.stdout.hasPrefix(example.outcome), "\(result.stdout)")
                    #expect(upstream.connections == example.upstreamConnections)
                    if let notice = example.notice {
                        #expect(notices.all == [notice])
                        #expect(server.store.requests().isEmpty)
                    } else {
                        #expect(notices.all.isEmpty)
                        #expect(server.store.requests().map(\.url) == ["https://localhost:\(upstream.port)/internal"])
                    }
                }
            }
        }
    }

    /// `localhost`, and this machine's own name when it resolves to loopback.
    static let namesOfThisHost = ["localhost"] + (ProxyGuardTests.loopbackName.map { [$0] } ?? [])

    @Test(
        "for a client elsewhere with --intercept all, a server name that is or resolves to this host reaches nothing: the tunnel is closed, or the request inside answered 403",
        arguments: namesOfThisHost)
    func remoteClientNamingThisHost(name: String) async throws {
        try await withAuthority { authority in
            try await withAuthority { upstreamAuthority in
                let upstream = try await UpstreamTLSServer.start(authority: upstreamAuthority, name: name)
                defer { Task { await upstream.stop() } }
                let notices = Notices()
                var configuration = try interceptingConfiguration(
                    ["all"], answer: false, authority: authority, notices: notices,
                    upstreamCertificates: [upstreamAuthority.certificatePath])
                configuration.simulatesRemoteClients = true
                try await withServer(configuration) { _, port in
                    let result = try await tunnelClient(
                        port, "192.0.2.1:\(upstream.port)", "get-as=\(name)", authority: authority)
                    #expect(result.status == 0, "\(result.stderr)")
                    #expect(upstream.connections == 0)
                    if name == "localhost" {
                        // Refused by name, as a CONNECT to it is: no certificate, no request.
                        #expect(result.stdout.hasPrefix("handshake failed"), "\(result.stdout)")
                        #expect(
                            notices.all == [
                                "intercept 192.0.2.1: the TLS server name localhost is this host's loopback, where a client elsewhere is not relayed; the tunnel was closed"
                            ])
                    } else {
                        // Refused on the address it resolves to, when a request is forwarded.
                        #expect(result.stdout == "HTTP/1.1 403 Forbidden\n")
                    }
                }
            }
        }
    }
}
