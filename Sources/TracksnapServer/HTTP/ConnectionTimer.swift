import NIOCore

/// Closes connections that hold the server without using it: one whose request head is not
/// complete within the header timeout of its first byte (a client sending a header line a
/// second), one that sends nothing for the idle timeout between requests, and one whose body
/// stalls for the idle timeout.
///
/// ```swift
/// let timer = ConnectionTimer(header: .seconds(10), idle: .seconds(60))
/// try channel.pipeline.syncOperations.addHandler(timer)   // before the HTTP decoder
/// timer.headReceived()  /  timer.responseFinished()       // from the connection's handler
/// ```
///
/// It sits before the HTTP decoder, where it sees the raw bytes. While the server works on an
/// answer (a control API wait may last minutes) nothing runs; a tunnel removes it.
final class ConnectionTimer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum Phase {
        /// Between requests: nothing sent since the last answer (or since connecting).
        case awaitingRequest
        /// The first bytes of a request came; its head is not complete yet.
        case readingHead
        /// The head came: the body is read, then the answer is worked on.
        case busy
    }

    private let header: TimeAmount
    private let idle: TimeAmount
    private var phase = Phase.awaitingRequest
    private var deadline: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(header: TimeAmount, idle: TimeAmount) {
        self.header = header
        self.idle = idle
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
        deadline?.cancel()
        deadline = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .awaitingRequest:
            phase = .readingHead
            schedule(header)
        case .readingHead:
            break
        case .busy:
            // A body arriving: each part must come within the idle timeout of the one before.
            // Bytes of a pipelined request while an answer is worked on land here too, and
            // push the deadline on harmlessly; `responseFinished` sets it again.
            if deadline != nil { schedule(idle) }
        }
        context.fireChannelRead(data)
    }

    /// The request's head was decoded: the header timeout no longer applies; the body, if
    /// any, is read under the idle timeout.
    func headReceived() {
        phase = .busy
        schedule(idle)
    }

    /// The whole request was read: nothing is timed while the answer is worked on.
    func requestReceived() {
        deadline?.cancel()
        deadline = nil
    }

    /// The answer was written and the connection stays open: the client has the idle timeout
    /// to start its next request.
    func responseFinished() {
        phase = .awaitingRequest
        schedule(idle)
    }

    private func schedule(_ amount: TimeAmount) {
        deadline?.cancel()
        guard let context else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: amount) { [weak self] in
            self?.expire()
        }
    }

    private func expire() {
        deadline = nil
        context?.close(promise: nil)
    }
}

extension TimeAmount {
    /// The same span, rounded down to nanoseconds; about 292 years at most.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(
            overflow ? Int64.max : nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }
}
