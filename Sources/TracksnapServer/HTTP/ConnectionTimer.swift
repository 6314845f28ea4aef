import NIOCore
import NIOHTTP1

/// Cuts off requests that hold the server without using it — the one home of the header and
/// idle timeouts for a request: a connection whose request head is not complete within the
/// header timeout of its first byte (a client sending a header line a second), one that sends
/// nothing for the idle timeout between requests, and a request whose body stalls for the idle
/// timeout.
///
/// ```swift
/// let timer = ConnectionTimer(header: .seconds(10), idle: .seconds(60))
/// try channel.pipeline.syncOperations.addHandler(timer)   // after the encoder, before the decoder
/// timer.headReceived()  /  timer.responseFinished()       // from the connection's handler
/// ```
///
/// A request that has started — its head partly received, or its body stalled — is answered
/// `408 Request Timeout` (`{"error": …}`, `Connection: close`) and its connection closed; the
/// handlers after this one are told with a `RequestTimeout` event first. A connection idle
/// between requests is closed without an answer: clients such as curl take a 408 there for a
/// failure of the request they were about to send, and retry it. While the server works on an
/// answer (a control API wait may last minutes) nothing runs; a tunnel removes it.
///
/// On an HTTP/1 connection it sits between the encoder and the decoder, where it sees the raw
/// bytes and writes its answer through the encoder; on an HTTP/2 stream it sits after the
/// HTTP/1 codec, and times that stream's one request. `HTTP2ConnectionTimer` times the HTTP/2
/// connection itself.
final class ConnectionTimer: ChannelInboundHandler, RemovableChannelHandler {
    /// Passed on unlooked-at: raw bytes on an HTTP/1 connection, request parts on an HTTP/2
    /// stream. Only their arrival counts.
    typealias InboundIn = NIOAny
    typealias OutboundOut = HTTPServerResponsePart

    private enum Phase {
        /// Between requests: nothing sent since the last answer (or since connecting).
        case awaitingRequest
        /// The first bytes of a request came; its head is not complete yet.
        case readingHead
        /// The head came: the body is read, then the answer is worked on.
        case busy
        /// An answer went out before the request was read whole (413): what is left of it is
        /// read and dropped, and a stall ends the connection without another answer.
        case answered
    }

    private let header: TimeAmount
    private let idle: TimeAmount
    private var phase = Phase.awaitingRequest
    /// When the bound of what the connection is doing now ends; nil while nothing is timed.
    private var deadline: NIODeadline?
    /// The one task that looks at `deadline`. Moving the deadline does not move the task, which
    /// runs at most `checkEvery` after it was set and is set again for what is left: a request
    /// costs no timer work (three tasks scheduled and cancelled a request were a twentieth of
    /// the collector's time).
    private var check: Scheduled<Void>?
    /// The shorter bound: no deadline is ever set sooner than this after now, so a check set
    /// this far ahead at most is never late.
    private let checkEvery: TimeAmount
    private var context: ChannelHandlerContext?

    init(header: TimeAmount, idle: TimeAmount) {
        self.header = header
        self.idle = idle
        checkEvery = min(header, idle)
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

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .awaitingRequest:
            phase = .readingHead
            schedule(header)
        case .readingHead:
            break
        case .busy, .answered:
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

    /// The request was answered before it was read whole; the rest is still read under the
    /// idle timeout, and a stall closes the connection without a second answer.
    func answeredEarly() {
        phase = .answered
    }

    /// The whole request was read: nothing is timed while the answer is worked on.
    func requestReceived() {
        deadline = nil
    }

    /// The answer was written and the connection stays open: the client has the idle timeout
    /// to start its next request.
    func responseFinished() {
        phase = .awaitingRequest
        schedule(idle)
    }

    /// Sets the deadline `amount` from now; the check already set comes no later than it.
    private func schedule(_ amount: TimeAmount) {
        guard let context else { return }
        let now = NIODeadline.now()
        deadline = now + amount
        if check == nil { setCheck(at: now + checkEvery, context: context) }
    }

    private func setCheck(at time: NIODeadline, context: ChannelHandlerContext) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: time) { [weak self] in
            self?.checkDeadline()
        }
    }

    /// The check's time came: the deadline passed, or the check is set again, for the time left.
    private func checkDeadline() {
        check = nil
        guard let deadline, let context else { return }
        let now = NIODeadline.now()
        guard deadline <= now else {
            setCheck(at: min(deadline, now + checkEvery), context: context)
            return
        }
        expire()
    }

    private func stop() {
        check?.cancel()
        check = nil
        deadline = nil
    }

    private func expire() {
        deadline = nil
        guard let context else { return }
        switch phase {
        case .awaitingRequest, .answered:
            context.close(promise: nil)
        case .readingHead:
            timedOut(
                "no whole request head within \(header.milliseconds) ms of its first byte (--header-timeout)",
                context: context)
        case .busy:
            timedOut("the request's body stalled for \(idle.milliseconds) ms (--idle-timeout)", context: context)
        }
    }

    /// Answers 408 and closes, once the handlers after this one were told.
    private func timedOut(_ reason: String, context: ChannelHandlerContext) {
        phase = .answered
        context.fireUserInboundEventTriggered(RequestTimeout(reason: reason))
        let response = Response.error(.requestTimeout, reason)
        var headers = response.headers
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.readableBytes))
        headers.replaceOrAdd(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// A request timed out: `ConnectionTimer` answers it 408 and closes its connection (or
/// HTTP/2 stream) right after this event.
struct RequestTimeout {
    /// What did not come in time, with the option that sets the bound.
    var reason: String
}

extension TimeAmount {
    /// The same span, rounded down to nanoseconds; about 292 years at most.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(
            overflow ? Int64.max : nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
    }

    /// Whole milliseconds, as messages tell a bound.
    var milliseconds: Int64 { nanoseconds / 1_000_000 }
}
