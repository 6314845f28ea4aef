import Foundation
import NIOCore
import NIOSSL
import NIOTLS

/// Watches an intercepted tunnel below its HTTP handlers: closes it when the client has not
/// finished the TLS handshake within the header timeout, and counts and tells every TLS error
/// (a client refusing the certificate, a garbled hello) before closing the tunnel.
///
/// ```swift
/// try pipeline.addHandler(InterceptionMonitor(interceptor: interceptor, host: "api.segment.io", timeout: .seconds(10)))
/// ```
final class InterceptionMonitor: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let interceptor: Interceptor
    private let host: String
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var established = false
    private var failed = false

    init(interceptor: Interceptor, host: String, timeout: TimeAmount) {
        self.interceptor = interceptor
        self.host = host
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            guard let self else { return }
            self.fail(
                "no TLS handshake (nor HTTP request) within \(self.timeout.milliseconds) ms; the tunnel was closed",
                context: bound.value)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopDeadline()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopDeadline()
        context.fireChannelInactive()
    }

    /// The handshake completed, or the tunnel carries plain HTTP: the HTTP handlers' own
    /// timeouts take over.
    func handshakeFinished() {
        established = true
        stopDeadline()
    }

    private func stopDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { handshakeFinished() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is InterceptionRefused { return }
        // Once the tunnel is established, a client that closes without TLS's close_notify, or
        // resets the connection, is common and harmless; one that does so mid-request is told
        // by the HTTP handler, which knows.
        if established && Self.isAbruptClose(error) {
            context.close(promise: nil)
            return
        }
        if established {
            fail("TLS failed: \(error)", context: context)
        } else {
            fail(
                "TLS handshake failed (a client that does not trust the tracksnap CA ends it so): \(error)",
                context: context)
        }
    }

    private static func isAbruptClose(_ error: any Error) -> Bool {
        if case NIOSSLError.uncleanShutdown = error { return true }
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        return false
    }

    private func fail(_ reason: String, context: ChannelHandlerContext) {
        handshakeFinished()
        guard !failed else { return }
        failed = true
        interceptor.failed(host, reason)
        context.close(promise: nil)
    }
}
