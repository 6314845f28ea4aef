import CNIOLinux
import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// Listening beyond loopback and clients elsewhere are simulated through the configuration:
/// every byte of these tests stays on 127.0.0.1.
@Suite("The forward proxy, bound beyond loopback", .tags(.process, .network), .leftToMakeTest)
struct ProxyGuardTests {
    private static func exposed(token: String? = "T0k3n", remoteClients: Bool = false) -> CaptureServer.Configuration {
        var configuration = CaptureServer.Configuration(token: token)
        configuration.simulatesPublicBinding = true
        configuration.simulatesRemoteClients = remoteClients
        return configuration
    }

    @Test("without the token, absolute-form requests and CONNECT get 407 and reach nothing; with it, they are relayed")
    func tokenRequired() async throws {
        try await withServer { target, targetPort in
            try await withServer(Self.exposed()) { proxy, port in
                let plain = try await RawHTTP.send(port: port, target: "http://127.0.0.1:\(targetPort)/open")
                #expect(plain.status == 407)
                #expect(plain.header("Proxy-Authenticate")?.contains("tracksnap") == true)
                let wrong = try await RawHTTP.send(
                    port: port, target: "http://127.0.0.1:\(targetPort)/open",
                    headers: [("Proxy-Authorization", "Bearer nope")])
                #expect(wrong.status == 407)
                let tunnel = try await RawHTTP.exchange(
                    port: port,
                    Array("CONNECT 127.0.0.1:\(targetPort) HTTP/1.1\r\nHost: 127.0.0.1:\(targetPort)\r\n\r\n".utf8))
                #expect(tunnel.status == 407)
                let curled = try await curl(
                    "-x", "http://127.0.0.1:\(port)", "-o", "/dev/null", "-w", "%{http_code}",
                    "http://127.0.0.1:\(targetPort)/open")
                #expect(curled.stdout == "407")
                #expect(target.store.requests().isEmpty)
                #expect(proxy.store.requests().isEmpty, "a refused proxy request is not traffic")

                let bearer = try await RawHTTP.send(
                    port: port, target: "http://127.0.0.1:\(targetPort)/bearer",
                    headers: [("Proxy-Authorization", "Bearer T0k3n")])
                #expect(bearer.status == 200)
                let basic = try await curl(
                    "-x", "http://anyone:T0k3n@127.0.0.1:\(port)", "http://127.0.0.1:\(targetPort)/basic")
                #expect(basic.status == 0, "\(basic.stderr)")
                let tunnelled = try await curl(
                    "-p", "-x", "http://anyone:T0k3n@127.0.0.1:\(port)", "http://127.0.0.1:\(targetPort)/tunnelled")
                #expect(tunnelled.status == 0, "\(tunnelled.stderr)")
                #expect(
                    target.store.requests().map(\.url).map { URL(string: $0)?.path } == [
                        "/bearer", "/basic", "/tunnelled",
                    ])
                // The token is for this proxy, never passed on.
                #expect(target.store.requests().allSatisfy { $0.header("Proxy-Authorization") == nil })
            }
        }
    }

    @Test(
        "a client elsewhere, even with the token, is never relayed to this host's loopback",
        arguments: [
            "127.0.0.1", "127.8.9.10", "localhost", "api.localhost", "[::1]", "0.0.0.0",
        ])
    func remoteClientToLoopback(host: String) async throws {
        try await withServer { target, targetPort in
            try await withServer(Self.exposed(remoteClients: true)) { _, port in
                let authorized = [("Proxy-Authorization", "Bearer T0k3n")]
                let relayed = try await RawHTTP.send(
                    port: port, target: "http://\(host):\(targetPort)/internal", headers: authorized)
                #expect(relayed.status == 403, "\(relayed.text)")
                #expect(try json(relayed.text)["error"]?.stringValue?.contains("loopback") == true)
                var connect = "CONNECT \(host):\(targetPort) HTTP/1.1\r\nHost: \(host):\(targetPort)\r\n"
                connect += "Proxy-Authorization: Bearer T0k3n\r\n\r\n"
                let tunnel = try await RawHTTP.exchange(port: port, Array(connect.utf8))
                #expect(tunnel.status == 403)
                #expect(target.store.requests().isEmpty)
            }
        }
    }

    @Test("a client on loopback is relayed to loopback as before, without a token when bound to loopback")
    func loopbackClientRelayed() async throws {
        try await withServer { target, targetPort in
            try await withServer(.init(token: "T0k3n")) { _, port in
                let relayed = try await RawHTTP.send(port: port, target: "http://localhost:\(targetPort)/local")
                #expect(relayed.status == 200)
                let tunnel = try await curl(
                    "-p", "-x", "http://127.0.0.1:\(port)", "http://127.0.0.1:\(targetPort)/tunnel")
                #expect(tunnel.status == 0, "\(tunnel.stderr)")
                #expect(target.store.requests().count == 2)
            }
        }
    }

    /// This machine's own name, when it resolves to loopback (as /etc/hosts often makes it).
    static let loopbackName: String? = {
        let name = ProcessInfo.processInfo.hostName
        var list: UnsafeMutablePointer<addrinfo>?
        guard !name.isEmpty, getaddrinfo(name, nil, nil, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        guard let address = first.pointee.ai_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { return nil }
        let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
        return UInt32(bigEndian: v4) >> 24 == 127 ? name : nil
    }()

    @Test(
        "a name that resolves to loopback does not get a remote client through either",
        .enabled(if: ProxyGuardTests.loopbackName != nil))
    func nameResolvingToLoopback() async throws {
        let name = try #require(Self.loopbackName)
        try await withServer { target, targetPort in
            try await withServer(Self.exposed(remoteClients: true)) { _, port in
                let authorized = [("Proxy-Authorization", "Bearer T0k3n")]
                let relayed = try await RawHTTP.send(
                    port: port, target: "http://\(name):\(targetPort)/internal", headers: authorized)
                #expect(relayed.status == 403, "\(relayed.text)")
                var connect = "CONNECT \(name):\(targetPort) HTTP/1.1\r\nHost: \(name):\(targetPort)\r\n"
                connect += "Proxy-Authorization: Bearer T0k3n\r\n\r\n"
                let tunnel = try await RawHTTP.exchange(port: port, Array(connect.utf8))
                #expect(tunnel.status == 403)
                #expect(target.store.requests().isEmpty)
                // Refused before any connection: a closed port there answers as an open one,
                // so that the answer tells nothing about what listens on this host's loopback.
                try await withClosedPort { closed in
                    var connect = "CONNECT \(name):\(closed) HTTP/1.1\r\nHost: \(name):\(closed)\r\n"
                    connect += "Proxy-Authorization: Bearer T0k3n\r\n\r\n"
                    let tunnel = try await RawHTTP.exchange(port: port, Array(connect.utf8))
                    #expect(tunnel.status == 403, "\(tunnel.text)")
                }
            }
        }
    }
}
