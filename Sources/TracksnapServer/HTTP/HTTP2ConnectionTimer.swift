import NIOCore
import NIOHTTP2

/// Closes an HTTP/2 connection that holds the server without using it: once it has had no open
/// stream for the idle timeout — from the start, or since its last stream closed — it is shut
/// down gracefully, and closed outright if the client has not let it go within the grace time
/// (the header timeout). Each stream's request is timed by its own `ConnectionTimer`, so a
/// stalled stream closes too, and the connection's idle clock then starts.
///
/// ```swift
/// let timer = HTTP2ConnectionTimer(eventLoop: channel.eventLoop, idle: .seconds(60), grace: .seconds(10))
/// _ = try operations.configureHTTP2Pipeline(…, streamDelegate: timer.streamDelegate) { … }
/// try timer.addHandlers(to: operations)
/// ```
///
/// The graceful shutdown is swift-nio-http2's `NIOHTTP2ServerConnectionManagementHandler`: a
/// `GOAWAY` that still admits every stream and a `PING`; once the client acknowledges the
/// `PING` (so it has seen the `GOAWAY`), a `GOAWAY` naming the last stream the server took,
/// then the close when no stream is left open. That handler's own idle timer is not used: it
/// starts only on a stream closing or the channel becoming active, and an intercepted tunnel
/// is already active when ALPN picks HTTP/2, so a connection that never opened a stream would
/// never be timed; nor does it close a connection whose client never acknowledges the `PING`.
///
/// An idle connection closed so is the normal end of a kept-alive connection, as it is for
/// HTTP/1.1: neither told nor counted.
final class HTTP2ConnectionTimer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundIn = HTTP2Frame

    private let idle: TimeAmount
    private let grace: TimeAmount
    private let manager: NIOHTTP2ServerConnectionManagementHandler
    private let eventLoop: any EventLoop
    private var openStreams = 0
    private var shuttingDown = false
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(eventLoop: any EventLoop, idle: TimeAmount, grace: TimeAmount) {
        self.eventLoop = eventLoop
        self.idle = idle
        self.grace = grace
        // Only the graceful shutdown, when this timer asks for it: no timers of its own.
        manager = NIOHTTP2ServerConnectionManagementHandler(
            eventLoop: eventLoop,
            configuration: .init(maxIdleTime: nil, maxAge: nil, maxGraceTime: nil, keepalive: nil))
    }

    /// Tells this timer and the shutdown handler of every stream opened and closed; given to
    /// the HTTP/2 handler, which calls it on the event loop.
    var streamDelegate: some NIOHTTP2StreamDelegate {
        StreamDelegate(timer: NIOLoopBound(self, eventLoop: eventLoop), manager: manager.http2StreamDelegate)
    }

    /// Adds this timer, then the shutdown handler it drives, after the HTTP/2 handler.
    func addHandlers(to operations: ChannelPipeline.SynchronousOperations) throws {
        try operations.addHandler(self)
        try operations.addHandler(manager)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { schedule(idle) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(idle)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    /// The shutdown handler closes as it reads the client's `PING` acknowledgement, with its
    /// last `GOAWAY` written but not yet flushed (it flushes when the read ends): flushing here
    /// sends that `GOAWAY` before the connection closes.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        context.flush()
        context.close(mode: mode, promise: promise)
    }

    private func streamOpened() {
        openStreams += 1
        if !shuttingDown { stop() }
    }

    private func streamClosed() {
        openStreams -= 1
        if openStreams == 0 && !shuttingDown { schedule(idle) }
    }

    private func schedule(_ amount: TimeAmount) {
        deadline?.cancel()
        guard let context else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: amount) { [weak self] in
            self?.expire()
        }
    }

    private func stop() {
        deadline?.cancel()
        deadline = nil
    }

    private func expire() {
        deadline = nil
        guard let context else { return }
        if shuttingDown {
            context.close(promise: nil)
            return
        }
        shuttingDown = true
        // The shutdown handler comes next in the pipeline: this event starts its GOAWAY.
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        schedule(grace)
    }

    private struct StreamDelegate: NIOHTTP2StreamDelegate {
        let timer: NIOLoopBound<HTTP2ConnectionTimer>
        let manager: NIOHTTP2ServerConnectionManagementHandler.HTTP2StreamDelegate

        func streamCreated(_ id: HTTP2StreamID, channel: any Channel) {
            timer.value.streamOpened()
            manager.streamCreated(id, channel: channel)
        }

        func streamClosed(_ id: HTTP2StreamID, channel: any Channel) {
            timer.value.streamClosed()
            manager.streamClosed(id, channel: channel)
        }
    }
}
