import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

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
///   (127.0.0.0/8, `::1`, `localhost`, `*.localhost`, `0.0.0.0`): 403. A name is resolved
///   once, every address checked, and the connection made to a checked address: a name that
///   resolves to loopback does not get through, nor one whose answer changes in between.
struct ProxyGuard: Sendable {
    private let token: AccessToken?
    private let treatsClientsAsRemote: Bool
    private let resolver: HostResolver

    init(configuration: CaptureServer.Configuration, resolver: HostResolver = .system) {
        token = configuration.proxyNeedsToken ? configuration.token.map(AccessToken.init) : nil
        treatsClientsAsRemote = configuration.simulatesRemoteClients
        self.resolver = resolver
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
        if refuses(targetHost, client: client) { return Self.loopbackRefusal(targetHost) }
        return nil
    }

    /// Whether `host`, by its name or literal alone, is this host's loopback for a client
    /// elsewhere: the check a `CONNECT` target, an absolute-form URL's host and an intercepted
    /// tunnel's TLS server name get before anything is resolved.
    func refuses(_ host: String, client: SocketAddress?) -> Bool {
        isRemote(client) && Loopback.reachesThisHost(host)
    }

    /// The addresses the proxy may connect to for `client` to reach `host`: resolved here, once
    /// (an IP literal is its own answer), and for a client elsewhere checked one by one. The
    /// caller connects to these, never to the name again, so that a name whose answer changes
    /// between the check and the connection cannot reach this host's loopback.
    ///
    /// - Throws: `ProxyRefusal` with a 403 when, for a client elsewhere, an address is this
    ///   host's loopback or unspecified; with a 502 when the name resolves to nothing.
    func addresses(of host: String, port: Int, client: SocketAddress?) async throws(ProxyRefusal) -> [SocketAddress] {
        if refuses(host, client: client) { throw ProxyRefusal(Self.loopbackRefusal(host)) }
        var addresses: [SocketAddress] = []
        do {
            if IPAddress.parse(host) != nil {
                let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                addresses = [try SocketAddress(ipAddress: bare, port: port)]
            } else {
                addresses = try await resolver.resolve(host, port)
            }
        } catch {
            throw ProxyRefusal(.error(.badGateway, "tracksnap could not resolve \(host): \(error)"))
        }
        guard !addresses.isEmpty else {
            throw ProxyRefusal(.error(.badGateway, "tracksnap could not resolve \(host): no address"))
        }
        let reachesThisHost = addresses.contains { address in
            IPAddress(address).map { $0.isLoopback || $0.isUnspecified } ?? true
        }
        if isRemote(client) && reachesThisHost { throw ProxyRefusal(Self.loopbackRefusal(host)) }
        return addresses
    }

    /// A TCP connection for `client` to `host`, on `eventLoop`, within `timeout`: to one of its
    /// checked `addresses(of:port:client:)`, raced as for any name (Happy Eyeballs).
    ///
    /// - Throws: `ProxyRefusal`, or why no address could be connected.
    func connect(to host: String, port: Int, client: SocketAddress?, on eventLoop: any EventLoop, timeout: TimeAmount)
        async throws -> any Channel
    {
        let addresses = try await addresses(of: host, port: port, client: client)
        return try await ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .resolver(Answered(addresses: addresses, eventLoop: eventLoop))
            .connect(host: host, port: port)
            .get()
    }

    /// A resolver whose answer is given: the addresses checked, whatever it is asked.
    private struct Answered: Resolver, Sendable {
        let addresses: [SocketAddress]
        let eventLoop: any EventLoop

        func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
            eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet })
        }

        func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
            eventLoop.makeSucceededFuture(addresses.filter { $0.protocol == .inet6 })
        }

        func cancelQueries() {}
    }

    /// The address the forwarder must connect to for `client` to reach `host`, resolved and
    /// checked by `addresses(of:port:client:)`; nil when the forwarder may resolve the name
    /// itself: for a client on loopback, which may reach anything, and for an IP literal.
    func pinnedAddress(of host: String, port: Int, client: SocketAddress?) async throws(ProxyRefusal) -> String? {
        guard isRemote(client) else { return nil }
        let addresses = try await addresses(of: host, port: port, client: client)
        return IPAddress.parse(host) == nil ? addresses.first?.ipAddress : nil
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

/// The answer a proxy request gets instead of a connection: 403 for this host's loopback, 502
/// for a name that resolves to nothing.
struct ProxyRefusal: Error {
    var response: Response

    init(_ response: Response) {
        self.response = response
    }
}
