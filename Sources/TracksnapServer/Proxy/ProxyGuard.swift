import Foundation
import NIOCore
import NIOHTTP1

/// What a forward-proxy request (absolute-form or `CONNECT`) must show before it is relayed.
///
/// ```swift
/// if let refusal = proxyGuard.refusal(head, client: channel.remoteAddress, targetHost: "collect.example") { … }
/// ```
///
/// - Bound beyond loopback with a token, the proxy demands it as the control API does, in
///   `Proxy-Authorization`: `Bearer TOKEN`, or `Basic` with the token as the password and any
///   user name (what `curl -x http://u:TOKEN@host:port` and `http_proxy` URLs send). Without
///   it: 407.
/// - A client that is not itself on loopback is never relayed to this host's loopback
///   (127.0.0.0/8, `::1`, `localhost`, `*.localhost`, `0.0.0.0`): 403. Tunnels are checked
///   again against the address actually connected, so a name that resolves to loopback does
///   not get through either.
struct ProxyGuard: Sendable {
    private let token: AccessToken?
    private let treatsClientsAsRemote: Bool

    init(configuration: CaptureServer.Configuration) {
        token = configuration.proxyNeedsToken ? configuration.token.map(AccessToken.init) : nil
        treatsClientsAsRemote = configuration.simulatesRemoteClients
    }

    /// The refusal to answer instead of relaying, or nil when the request may be relayed.
    func refusal(_ head: HTTPRequestHead, client: SocketAddress?, targetHost: String) -> Response? {
        if let token, !token.authorizesProxy(head.headers.first(name: "Proxy-Authorization")) {
            var response = Response.error(
                .proxyAuthenticationRequired,
                "the proxy needs the token: Proxy-Authorization: Bearer <token>, or Basic with the token as the password"
            )
            response.headers.add(name: "Proxy-Authenticate", value: "Basic realm=\"tracksnap\"")
            response.headers.add(name: "Proxy-Authenticate", value: "Bearer realm=\"tracksnap\"")
            return response
        }
        if isRemote(client) && Loopback.reachesThisHost(targetHost) {
            return Self.loopbackRefusal(targetHost)
        }
        return nil
    }

    /// Whether a tunnel to `peer`, once connected, may be kept for `client`.
    func allowsTunnel(to peer: SocketAddress?, client: SocketAddress?) -> Bool {
        guard isRemote(client) else { return true }
        guard let peer, let address = IPAddress(peer) else { return false }
        return !address.isLoopback && !address.isUnspecified
    }

    /// Whether `host`, a name, resolves to this host's loopback for a remote client: the check
    /// absolute-form requests get before they are forwarded (the forwarder resolves the name
    /// again itself, so a name that changes its answer within a second can still slip by; tunnels
    /// are checked on the address actually connected).
    func resolvesToThisHost(_ host: String, client: SocketAddress?) async -> Bool {
        guard isRemote(client), IPAddress.parse(host) == nil, !host.isEmpty else { return false }
        let addresses = await withCheckedContinuation { (continuation: CheckedContinuation<[IPAddress], Never>) in
            // getaddrinfo blocks: it runs on a Dispatch thread, never on the event loop or the
            // cooperative pool.
            DispatchQueue.global().async { continuation.resume(returning: Self.resolve(host)) }
        }
        return addresses.contains { $0.isLoopback || $0.isUnspecified }
    }

    private static func resolve(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                if getnameinfo(
                    address, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0,
                    let parsed = IPAddress.parse(
                        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                {
                    addresses.append(parsed)
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    static func loopbackRefusal(_ target: String) -> Response {
        .error(.forbidden, "the proxy does not relay to this host's loopback (\(target)) for a client elsewhere")
    }

    /// Whether the client is not on this host's loopback (or the configuration says to treat
    /// it so); a client whose address is unknown is remote.
    private func isRemote(_ client: SocketAddress?) -> Bool {
        if treatsClientsAsRemote { return true }
        guard let client, let address = IPAddress(client) else { return true }
        return !address.isLoopback
    }
}
