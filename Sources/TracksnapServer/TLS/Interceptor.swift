import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// Decrypts the `CONNECT` tunnels `Interception` names: after the `200`, the tunnel's first
/// byte tells TLS (a handshake record, 0x16) from plain HTTP. TLS is answered with a leaf
/// certificate for the client's server name (SNI), else the `CONNECT` host, and ALPN picks
/// HTTP/2 or HTTP/1.1; either way the requests inside reach a `ConnectionHandler` that records
/// them as the collector does, under their `https://host/path` URL. A server name takes the
/// place of a `CONNECT` address only when it passes what a `CONNECT` to it would: named by
/// `Interception` (whose action it then takes), and not this host's loopback for a client
/// elsewhere.
///
/// ```swift
/// if let action = interceptor.interception.action(for: target.host) {
///     try interceptor.intercept(channel, target: target, action: action, sessionHint: nil, router: router)
/// }
/// ```
///
/// Each failure — a handshake the client refuses (it does not trust the CA) or botches, bytes
/// that are neither TLS nor HTTP, a server name that is no host name, other than the `CONNECT`
/// target's, or one that may not take its address's place, a connection closed mid-request —
/// closes that tunnel only, is counted (`interceptFailures`) and told
/// through `notices`.
final class Interceptor: Sendable {
    let interception: Interception
    let forwarder: Forwarder
    private let leaves: LeafCertificates
    private let store: CaptureStore
    private let notices: (@Sendable (String) -> Void)?
    private let handshakeTimeout: TimeAmount

    init(configuration: CaptureServer.Configuration, store: CaptureStore) throws(CaptureServerError) {
        guard let interception = configuration.interception else {
            throw CaptureServerError("no interception was configured")
        }
        guard let authority = configuration.certificateAuthority else {
            throw CaptureServerError("--intercept needs the certificate authority: run `tracksnap ca` first")
        }
        self.interception = interception
        forwarder = try Forwarder(trusting: configuration.upstreamCertificateFiles)
        do {
            leaves = try LeafCertificates(authority: authority)
        } catch {
            throw CaptureServerError("cannot prepare the intercepting TLS key: \(error)")
        }
        self.store = store
        notices = configuration.notices
        handshakeTimeout = TimeAmount(configuration.headerTimeout)
    }

    /// Counts a failed tunnel and tells it.
    func failed(_ host: String, _ reason: String) {
        store.countInterceptFailure()
        notices?("intercept \(host): \(reason)")
    }

    /// Sets up a tunnel's pipeline, once its `200` is written and the HTTP handlers removed.
    func intercept(
        _ channel: any Channel, target: TunnelTarget, action: Interception.Action, sessionHint: String?,
        router: RequestRouter
    ) throws {
        let monitor = InterceptionMonitor(interceptor: self, host: target.host, timeout: handshakeTimeout)
        let sniffer = TunnelSniffer { [self] channel, isTLS in
            let tunnel = InterceptedTunnel(
                scheme: isTLS ? "https" : "http", host: target.host, port: target.port, action: action,
                sessionHint: sessionHint)
            if isTLS {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(
                        SNIHandler { [self] result in
                            channel.eventLoop.makeCompletedFuture {
                                try self.handshake(
                                    channel, tunnel: tunnel, serverName: result, monitor: monitor, router: router)
                            }
                        }), position: .before(monitor))
            } else {
                monitor.handshakeFinished()
                try ConnectionHandler.configure(channel, router: router, tunnel: tunnel)
            }
        }
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(sniffer)
        try operations.addHandler(monitor)
    }

    /// The client's hello was read: answer it with the certificate for its name.
    private func handshake(
        _ channel: any Channel, tunnel: InterceptedTunnel, serverName: SNIResult, monitor: InterceptionMonitor,
        router: RequestRouter
    ) throws {
        var tunnel = tunnel
        if case .hostname(let name) = serverName, let problem = ServerName.problem(with: name) {
            failed(tunnel.host, "the TLS server name \(problem); the tunnel was closed")
            channel.close(promise: nil)
            throw InterceptionRefused()
        }
        if case .hostname(let name) = serverName, name.lowercased() != tunnel.host.lowercased() {
            // A client that reached the tunnel by address may name the host it meant, which then
            // takes the address's place: the name passes what a CONNECT to it would. One that
            // asked for one name and says another is not served a certificate for either.
            let name = name.lowercased()
            let action = interception.action(for: name)
            let refusal: String? =
                if IPAddress.parse(tunnel.host) == nil {
                    "is not the CONNECT target's"
                } else if router.proxyGuard.refuses(name, client: channel.remoteAddress) {
                    "is this host's loopback, where a client elsewhere is not relayed"
                } else if action == nil {
                    "is not named by --intercept"
                } else {
                    nil
                }
            if let refusal {
                failed(tunnel.host, "the TLS server name \(name) \(refusal); the tunnel was closed")
                channel.close(promise: nil)
                throw InterceptionRefused()
            }
            tunnel.host = name
            if let action { tunnel.action = action }
        }
        let context: NIOSSLContext
        do {
            context = try leaves.context(for: tunnel.host)
        } catch {
            failed(tunnel.host, "cannot make a certificate: \(error)")
            channel.close(promise: nil)
            throw error
        }
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(NIOSSLServerHandler(context: context), position: .before(monitor))
        let named = tunnel
        var http2 = tunnel
        http2.isHTTP2 = true
        let overHTTP2 = http2
        // On the event loop, the ALPN handler is in the pipeline when this returns.
        _ = channel.configureHTTP2SecureUpgrade(
            h2ChannelConfigurator: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionHandler.configureHTTP2(channel, router: router, tunnel: overHTTP2)
                }
            },
            http1ChannelConfigurator: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionHandler.configure(channel, router: router, tunnel: named)
                }
            })
    }
}

/// The tunnel was closed rather than served; the reason was told already.
struct InterceptionRefused: Error {}
