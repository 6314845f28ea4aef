import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One client connection's requests: gathers each one (refusing bodies over the limit with
/// 413), hands it to the router and writes the answer. A `CONNECT` on a client's own connection
/// goes on to the `TunnelHandler` after it, which turns the connection into a tunnel — relayed
/// untouched, or intercepted when `serve --intercept` names its host, where another
/// `ConnectionHandler` serves the requests inside (one per HTTP/2 stream). A `ConnectionTimer`
/// times each request, an `HTTP2ConnectionTimer` each HTTP/2 connection.
///
/// ```swift
/// try ConnectionHandler.configure(channel, router: router)
/// ```
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = IncomingRequest
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        /// A body over the limit: 413 was sent; the rest is read and dropped, then the
        /// connection closes.
        case discarding
    }

    /// The handlers' names in a connection's pipeline, which the `TunnelHandler` takes out.
    enum Name {
        static let encoder = "tracksnap.http.encoder"
        static let decoder = "tracksnap.http.decoder"
        static let pipelining = "tracksnap.http.pipelining"
        static let errors = "tracksnap.http.errors"
        static let handler = "tracksnap.connection"
        static let tunnel = "tracksnap.tunnel"
        static let timer = "tracksnap.timer"
    }

    private let router: RequestRouter
    private let timer: ConnectionTimer
    /// The intercepted tunnel this connection or stream is inside, if any.
    private let tunnel: InterceptedTunnel?
    private var state = State.idle
    private var failureTold = false

    private init(router: RequestRouter, timer: ConnectionTimer, tunnel: InterceptedTunnel?) {
        self.router = router
        self.timer = timer
        self.tunnel = tunnel
    }

    /// Sets up a new connection's pipeline, or an intercepted tunnel's once decrypted. Malformed
    /// HTTP gets 400 from NIO's protocol error handler; pipelined requests are answered in order
    /// by NIO's pipelining handler.
    static func configure(_ channel: any Channel, router: RequestRouter, tunnel: InterceptedTunnel? = nil) throws {
        let operations = channel.pipeline.syncOperations
        let timer = makeTimer(router.configuration)
        try operations.addHandler(HTTPResponseEncoder(), name: Name.encoder)
        // After the encoder, which its 408 goes through; before the decoder, to see raw bytes.
        try operations.addHandler(timer, name: Name.timer)
        try operations.addHandler(
            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)), name: Name.decoder)
        try operations.addHandler(HTTPServerPipelineHandler(), name: Name.pipelining)
        try operations.addHandler(HTTPServerProtocolErrorHandler(), name: Name.errors)
        try operations.addHandler(ConnectionHandler(router: router, timer: timer, tunnel: tunnel), name: Name.handler)
        // Inside an intercepted tunnel, a CONNECT is a request like another.
        if tunnel == nil { try operations.addHandler(TunnelHandler(router: router), name: Name.tunnel) }
    }

    /// Sets up an intercepted tunnel that negotiated HTTP/2: a stream per request, each with
    /// its HTTP/1 codec and handler, and an `HTTP2ConnectionTimer` that closes the connection
    /// once it has had no open stream for the idle timeout.
    static func configureHTTP2(_ channel: any Channel, router: RequestRouter, tunnel: InterceptedTunnel) throws {
        let configuration = router.configuration
        let timer = HTTP2ConnectionTimer(
            eventLoop: channel.eventLoop, idle: TimeAmount(configuration.idleTimeout),
            grace: TimeAmount(configuration.headerTimeout))
        let operations = channel.pipeline.syncOperations
        _ = try operations.configureHTTP2Pipeline(
            mode: .server, connectionConfiguration: .init(), streamConfiguration: .init(),
            streamDelegate: timer.streamDelegate
        ) { stream in
            stream.eventLoop.makeCompletedFuture {
                let operations = stream.pipeline.syncOperations
                let timer = makeTimer(configuration)
                try operations.addHandler(LastDataEndsStream())
                try operations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                try operations.addHandler(timer)
                try operations.addHandler(ConnectionHandler(router: router, timer: timer, tunnel: tunnel))
            }
        }
        try timer.addHandlers(to: operations)
    }

    private static func makeTimer(_ configuration: CaptureServer.Configuration) -> ConnectionTimer {
        ConnectionTimer(header: TimeAmount(configuration.headerTimeout), idle: TimeAmount(configuration.idleTimeout))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (part, state) {
        case (.head(let head), _):
            timer.headReceived()
            let limit = router.configuration.maximumBodySize
            if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                reject(context: context, head: head)
                return
            }
            if head.headers.first(name: "Expect")?.lowercased() == "100-continue" && head.version.major == 1 {
                context.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            state = .receiving(head, context.channel.allocator.buffer(capacity: 0))
        case (.body(var chunk), .receiving(let head, var body)):
            state = .idle  // lets `body` be appended to without copying
            if body.readableBytes + chunk.readableBytes > router.configuration.maximumBodySize {
                reject(context: context, head: head)
                return
            }
            body.writeBuffer(&chunk)
            state = .receiving(head, body)
        case (.end, .receiving(let head, let body)):
            state = .idle
            timer.requestReceived()
            complete(
                IncomingRequest(
                    head: head, body: body, localAddress: context.channel.localAddress,
                    remoteAddress: context.channel.remoteAddress), context: context)
        case (.end, .discarding):
            context.close(promise: nil)
        case (.body, _), (.end, _):
            return
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Protocol errors were answered with 400 by the handler before this one; anything
        // else (a reset connection) only ends this connection.
        if tunnel != nil, !Self.isCleanClose(error) {
            if case .receiving = state {
                tellClosedMidRequest()
            } else {
                tellTunnelFailure("not HTTP inside the tunnel: \(error)")
            }
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if tunnel != nil, case .receiving = state { tellClosedMidRequest() }
        context.fireChannelInactive()
    }

    /// The timer answers 408 and closes the connection right after this: inside a tunnel,
    /// that is told and counted as a failure of the tunnel, as a client that closes
    /// mid-request is.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let timeout = event as? RequestTimeout else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if case .receiving(let head, _) = state {
            tellTunnelFailure("\(head.method) \(head.uri) timed out: \(timeout.reason); answered 408")
        } else {
            tellTunnelFailure("a request timed out: \(timeout.reason); answered 408")
        }
        state = .discarding
    }

    private func tellClosedMidRequest() {
        guard case .receiving(let head, _) = state else { return }
        tellTunnelFailure("the connection closed in the middle of \(head.method) \(head.uri)")
    }

    /// Counts and tells an intercepted tunnel's failure, once for each connection or stream.
    private func tellTunnelFailure(_ reason: String) {
        state = .idle
        guard let tunnel, !failureTold else { return }
        failureTold = true
        router.interceptor?.failed(tunnel.host, reason)
    }

    /// A connection the client closed without TLS's close_notify, or reset: how many clients end.
    /// An HTTP/2 stream reset (a browser cancelling a request, or this server ending a stream
    /// it answered early) ends that stream the same way.
    private static func isCleanClose(_ error: any Error) -> Bool {
        if case NIOSSLError.uncleanShutdown = error { return true }
        if error is NIOHTTP2Errors.StreamClosed { return true }
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        return false
    }

    private func reject(context: ChannelHandlerContext, head: HTTPRequestHead) {
        state = .discarding
        timer.answeredEarly()
        router.store.countRejected()
        let limit = router.configuration.maximumBodySize
        var response = Response.error(.payloadTooLarge, "the body is larger than the limit of \(limit) bytes")
        response.headers.add(contentsOf: CORS.headers(for: head.headers))
        // The connection closes once the client has sent the rest: closing now could reset
        // it while the client still writes, and the client would never read the 413.
        write(response, for: head, keepAlive: false, closeWhenWritten: false, context: context)
    }

    private func complete(_ request: IncomingRequest, context: ChannelHandlerContext) {
        if request.method == .CONNECT && tunnel == nil {
            context.fireChannelRead(wrapInboundOut(request))
            return
        }
        let reply = router.reply(to: request, in: tunnel)
        switch reply {
        case .now(let response):
            write(response, for: request.head, keepAlive: request.head.isKeepAlive, context: context)
        case .later(let work):
            let promise = context.eventLoop.makePromise(of: Response.self)
            // The work stops when its caller is gone: a validation checks for cancellation
            // (`JSONSchema`'s evaluator), so a client that hangs up frees the thread.
            // One task: it completes the promise itself (`completeWithTask` would start a
            // second one to await the first, each a hop between threads, for every forwarded request).
            let task = Task { promise.succeed(await work()) }
            context.channel.closeFuture.whenComplete { _ in task.cancel() }
            promise.futureResult.assumeIsolated().whenSuccess { response in
                // A client that went away meanwhile makes the write fail, which is harmless.
                self.write(response, for: request.head, keepAlive: request.head.isKeepAlive, context: context)
            }
        }
    }

    private func write(
        _ response: Response, for head: HTTPRequestHead, keepAlive: Bool, closeWhenWritten: Bool? = nil,
        context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        if let stream = response.stream, head.method != .HEAD {
            writeStream(response, stream, for: head, context: context)
            return
        }
        // An HTTP/2 stream ends with its answer; the connection carries on.
        let keepAlive = keepAlive || tunnel?.isHTTP2 == true
        let written = Self.writeParts(response, for: head, keepAlive: keepAlive, context: context)
        if closeWhenWritten ?? !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else if keepAlive && tunnel?.isHTTP2 != true {
            // An HTTP/2 stream carries one request: no next one to wait for.
            timer.responseFinished()
        }
    }

    /// Writes an answer whole, its `Content-Length` set (unless the answer keeps its own) and
    /// `Connection: close` without `keepAlive`; the future completes once its end is written.
    /// Also what the `TunnelHandler` answers a `CONNECT` it refuses with.
    static func writeParts(
        _ response: Response, for head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext
    ) -> EventLoopFuture<Void> {
        var headers = response.headers
        if !response.keepsContentLength {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.readableBytes))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let version = head.version.major == 1 && head.version.minor == 0 ? HTTPVersion.http1_0 : .http1_1
        let responseHead = HTTPResponseHead(version: version, status: response.status, headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(responseHead)), promise: nil)
        if head.method != .HEAD && response.body.readableBytes > 0 {
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(response.body))), promise: nil)
        }
        return context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
    }

    /// Writes the head of a streamed answer, then runs its stream off the event loop; the
    /// connection closes when the stream returns, and the stream is cancelled when the client
    /// closes the connection first.
    private func writeStream(
        _ response: Response, _ stream: @escaping @Sendable (ResponseStream) async -> Void, for head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        var headers = response.headers
        headers.remove(name: "Content-Length")
        headers.replaceOrAdd(name: "Connection", value: "close")
        let version = head.version.major == 1 && head.version.minor == 0 ? HTTPVersion.http1_0 : .http1_1
        context.writeAndFlush(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: response.status, headers: headers))),
            promise: nil)
        let channel = context.channel
        let task = Task {
            await stream(ResponseStream(channel: channel))
            try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
            try? await channel.close()
        }
        channel.closeFuture.whenComplete { _ in task.cancel() }
    }
}
