import NIOCore
import NIOHTTP1

/// A client's `CONNECT`, as the `ConnectionHandler` before it gathered it: refused (a bad
/// target, the `ProxyGuard`'s refusal, a far end that cannot be reached), relayed untouched
/// through a `GlueHandler`, or handed to the `Interceptor` when `serve --intercept` names its
/// host. Once the connection is a tunnel, the HTTP handlers leave the pipeline, this one last.
///
/// ```swift
/// try operations.addHandler(TunnelHandler(router: router), name: ConnectionHandler.Name.tunnel)
/// ```
final class TunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = IncomingRequest

    private typealias Name = ConnectionHandler.Name

    private let router: RequestRouter
    /// Set when the connection became a tunnel: what the client sent after its `CONNECT` (and
    /// the HTTP decoder read before it left) is dropped, never read as a request.
    private var tunnelling = false

    init(router: RequestRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !tunnelling else { return }
        openTunnel(unwrapInboundIn(data).head, context: context)
    }

    /// Anything that goes wrong while the far end is being reached (a reset) ends the connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func openTunnel(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let target = TunnelTarget(head.uri) else {
            refuse(
                .error(.badRequest, "CONNECT needs a host:port target, not \"\(head.uri)\""), for: head,
                context: context)
            return
        }
        let client = context.channel.remoteAddress
        if let refusal = router.proxyGuard.refusal(head, client: client, targetHost: target.host) {
            refuse(refusal, for: head, context: context)
            return
        }
        if let interceptor = router.interceptor, let action = interceptor.interception.action(for: target.host) {
            intercept(head, target: target, action: action, interceptor: interceptor, context: context)
            return
        }
        let recorded = router.recordTunnel(head, target: target)
        startTunnelling(context: context)
        let (proxyGuard, eventLoop) = (router.proxyGuard, context.eventLoop)
        eventLoop.makeFutureWithTask {
            // On this event loop: the glue joins two channels of the same loop.
            try await proxyGuard.connect(
                to: target.host, port: target.port, client: client, on: eventLoop, timeout: .seconds(10))
        }
        .assumeIsolated()
        .whenComplete { result in
            switch result {
            case .success(let peer):
                self.router.log(recorded, status: 200)
                self.glue(context: context, to: peer)
            case .failure(let refusal as ProxyRefusal):
                // A name that resolves to this host's loopback, or to nothing.
                self.router.log(recorded, status: Int(refusal.response.status.code))
                self.refuse(refusal.response, for: head, context: context)
            case .failure(let error):
                self.router.log(recorded, status: 502)
                self.refuse(
                    .error(.badGateway, "tracksnap could not open a tunnel to \(head.uri): \(error)"), for: head,
                    context: context)
            }
        }
    }

    /// Answers the `CONNECT` and closes the connection once the answer is written.
    private func refuse(_ response: Response, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        ConnectionHandler.writeParts(response, for: head, keepAlive: false, context: context)
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// From here on the connection is a tunnel: the requests' handler leaves the pipeline, and
    /// what it would still pass on is dropped here.
    private func startTunnelling(context: ChannelHandlerContext) {
        tunnelling = true
        context.pipeline.syncOperations.removeHandler(name: Name.handler, promise: nil)
    }

    /// Answers `200` and hands the tunnel to the interceptor: the `CONNECT` itself is not
    /// recorded, the requests inside are.
    private func intercept(
        _ head: HTTPRequestHead, target: TunnelTarget, action: Interception.Action, interceptor: Interceptor,
        context: ChannelHandlerContext
    ) {
        startTunnelling(context: context)
        let operations = context.pipeline.syncOperations
        removeHTTPHandlers(operations, context: context)
        do {
            try interceptor.intercept(
                context.channel, target: target, action: action,
                sessionHint: head.headers.first(name: SessionRouting.headerName),
                router: router)
        } catch {
            context.close(promise: nil)
            return
        }
        operations.removeHandler(context: context, promise: nil)
        // Last: bytes the client sent after its CONNECT are forwarded to the interceptor.
        operations.removeHandler(name: Name.decoder, promise: nil)
    }

    /// Takes out the duplex HTTP handlers and writes the raw `200` that opens a tunnel.
    private func removeHTTPHandlers(_ operations: ChannelPipeline.SynchronousOperations, context: ChannelHandlerContext)
    {
        // The duplex HTTP handlers go first, so that the raw 200 reaches the socket.
        operations.removeHandler(name: Name.timer, promise: nil)
        operations.removeHandler(name: Name.errors, promise: nil)
        operations.removeHandler(name: Name.pipelining, promise: nil)
        operations.removeHandler(name: Name.encoder, promise: nil)
        let established = "HTTP/1.1 200 Connection Established\r\n\r\n"
        context.channel.writeAndFlush(context.channel.allocator.buffer(string: established), promise: nil)
    }

    /// Replaces the HTTP handlers with a glue handler once the tunnel's far end is connected.
    /// Both channels are on this event loop (the bootstrap used it), so the pipelines can be
    /// changed synchronously.
    private func glue(context: ChannelHandlerContext, to peer: any Channel) {
        guard context.channel.isActive else {
            peer.close(promise: nil)
            return
        }
        let (local, remote) = GlueHandler.matchedPair()
        do {
            let operations = context.pipeline.syncOperations
            removeHTTPHandlers(operations, context: context)
            try peer.pipeline.syncOperations.addHandler(remote)
            try operations.addHandler(local)
            operations.removeHandler(context: context, promise: nil)
            // Last: bytes the client sent after its CONNECT are forwarded into the glue.
            operations.removeHandler(name: Name.decoder, promise: nil)
        } catch {
            peer.close(promise: nil)
            context.close(promise: nil)
        }
    }
}
