public import Foundation
package import NIOCore
import NIOPosix
import Synchronization
import TracksnapReplay

/// The capture server: a collector, reverse proxy and forward proxy for analytics traffic,
/// with the control API tests drive. `tracksnap serve` is a thin layer over it.
///
/// ```swift
/// let server = try CaptureServer(configuration: .init())
/// let url = try await server.start()            // http://127.0.0.1:PORT
/// // … point the app's analytics at `url` …
/// let captured = server.store.requests()
/// try await server.shutdown()
/// ```
public final class CaptureServer: Sendable {
    private struct State {
        var listener: (any Channel)?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var port: Int?
        var stopped = false
    }

    public let configuration: CaptureServer.Configuration
    /// Everything captured, the sessions and the counters.
    public let store: CaptureStore
    private let router: RequestRouter
    private let state = Mutex(State())

    /// - Parameter configuration: where to listen and how to answer and record.
    /// - Throws: `CaptureServerError` when the journal cannot be opened or the upstream URL is
    ///   not an absolute http(s) URL.
    public init(configuration: CaptureServer.Configuration = Configuration()) throws(CaptureServerError) {
        if let upstream = configuration.upstream {
            guard let scheme = upstream.scheme?.lowercased(), scheme == "http" || scheme == "https",
                upstream.host != nil
            else {
                throw CaptureServerError(
                    "the upstream must be an http:// or https:// URL with a host, not \"\(upstream.absoluteString)\"")
            }
        }
        guard configuration.maximumBodySize >= 0 else {
            throw CaptureServerError("the maximum body size cannot be negative")
        }
        guard configuration.headerTimeout > .zero, configuration.idleTimeout > .zero else {
            throw CaptureServerError("the header and idle timeouts must be longer than zero")
        }
        if let maximum = configuration.maximumRequests, maximum < 1 {
            throw CaptureServerError("the maximum number of requests must be at least 1")
        }
        self.configuration = configuration
        store = try CaptureStore(
            maximumRequests: configuration.maximumRequests, journalPath: configuration.journalPath,
            journalKeepsSecrets: configuration.journalKeepsSecrets, token: configuration.token,
            logsRequests: configuration.requestLog != nil)
        browserToken =
            configuration.token ?? (configuration.servesOthersContent ? AccessToken.random() : nil)
        router = try RequestRouter(configuration: configuration, store: store, browserToken: browserToken)
    }

    /// The token a browser's control API call must carry (`Authorization: Bearer`, which the
    /// inspector sends when opened at `…/__tracksnap/ui/#token=TOKEN`): the configuration's
    /// `token` when set; else, when the server serves content it did not write (an `upstream`,
    /// a cassette, interception), one made at random for this run, since a page among that
    /// content has the control API's own origin; else nil. Calls without `Origin` or Fetch
    /// Metadata headers (curl, SDKs, `TracksnapClient`) need only the configuration's `token`.
    public let browserToken: String?

    /// Where a person opens the inspector of the server listening at `url`: with the browser
    /// token in the fragment (which no request carries) when there is one.
    ///
    /// ```swift
    /// server.inspectorURL(at: url)  // http://127.0.0.1:8181/__tracksnap/ui/#token=3f…
    /// ```
    public func inspectorURL(at url: URL) -> String {
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + ControlAPI.prefix + "ui/" + (browserToken.map { "#token=" + $0 } ?? "")
    }

    /// The port listened on, once started.
    public var port: Int? {
        state.withLock { $0.port }
    }

    /// Binds and starts serving.
    ///
    /// - Returns: the base URL, `http://HOST:PORT`, with the real port when 0 was asked.
    /// - Throws: `CaptureServerError` when the address cannot be bound or the server was
    ///   already started.
    @discardableResult
    public func start() async throws -> URL {
        guard state.withLock({ $0.listener == nil && !$0.stopped }) else {
            throw CaptureServerError("the server was already started")
        }
        let router = self.router
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try ConnectionHandler.configure(channel, router: router)
                    self?.track(channel)
                }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            throw CaptureServerError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        let port = listener.localAddress?.port ?? configuration.port
        let stopped = state.withLock { state -> Bool in
            state.listener = listener
            state.port = port
            return state.stopped
        }
        if stopped { try? await listener.close() }
        let host =
            configuration.host.contains(":") && !configuration.host.hasPrefix("[")
            ? "[\(configuration.host)]" : configuration.host
        guard let url = URL(string: "http://\(host):\(port)") else {
            throw CaptureServerError("cannot form a URL from the host \"\(configuration.host)\"")
        }
        return url
    }

    /// Stops listening, closes open connections, answers every waiting control request,
    /// writes what the cassettes recorded, and finishes the journal: promptly, whatever the
    /// clients hold open.
    ///
    /// Connections are closed all at once, and waited for at most `closingGrace`: an idle
    /// kept-alive connection or a relayed tunnel closes at once, but an intercepted tunnel's TLS
    /// waits (up to 5 s) for the client's `close_notify`, which a client holding its connection
    /// never sends. The journal is finished last, so that it holds every request captured
    /// before the connections closed.
    public func shutdown() async throws {
        let (listener, connections) = state.withLock { state -> ((any Channel)?, [any Channel]) in
            guard !state.stopped else { return (nil, []) }
            state.stopped = true
            let taken = (state.listener, Array(state.connections.values))
            state.connections = [:]
            return taken
        }
        guard let listener else {
            store.close()
            return
        }
        try? await listener.close()
        await Self.close(connections, within: Self.closingGrace)
        store.close()
        configuration.replay?.flush()
    }

    /// How long `shutdown()` waits for its connections to finish closing.
    static let closingGrace = TimeAmount.milliseconds(100)

    /// Closes every channel at once; returns when all are closed, or after `grace`.
    private static func close(_ channels: [any Channel], within grace: TimeAmount) async {
        guard let loop = channels.first?.eventLoop else { return }
        for channel in channels { channel.close(promise: nil) }
        let timer = loop.scheduleTask(in: grace) {}
        EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: loop).whenComplete { _ in timer.cancel() }
        // Succeeds after `grace`, or fails as cancelled once every channel is closed.
        try? await timer.futureResult.get()
    }

    /// Sets up a connection's pipeline on a channel made elsewhere: the request-handling fuzz
    /// target feeds raw bytes through it on an `EmbeddedChannel`.
    package func configureConnection(_ channel: any Channel) throws {
        try ConnectionHandler.configure(channel, router: router)
    }

    private func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let stopped = state.withLock { state -> Bool in
            if !state.stopped { state.connections[key] = channel }
            return state.stopped
        }
        if stopped {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.state.withLock { $0.connections[key] = nil }
        }
    }
}
