import NIOCore
import NIOHTTP2

/// Ends an HTTP/2 answer on its last DATA frame instead of an empty DATA frame after it.
///
/// NIO's HTTP/1 codec turns `.body` and `.end` into two frames: the body, then an empty frame
/// with END_STREAM. A client that stops reading once `Content-Length` bytes have come (curl
/// 7.88 does) then sees the stream still open and resets it, one RST_STREAM per request; after
/// 200 of them NIO's reset-storm protection ends the whole connection with ENHANCE_YOUR_CALM,
/// failing every request still on it. Placed between the stream channel and the codec, this
/// holds a DATA frame back until the next write: an empty END_STREAM frame is folded into it.
///
/// ```swift
/// try stream.pipeline.syncOperations.addHandler(LastDataEndsStream())
/// try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
/// ```
final class LastDataEndsStream: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private var held: (data: HTTP2Frame.FramePayload.Data, promise: EventLoopPromise<Void>?)?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let payload = unwrapOutboundIn(data)
        if case .data(let next) = payload, next.endStream, next.data.readableBytes == 0, var last = held {
            held = nil
            last.data.endStream = true
            last.promise.setOrCascade(to: promise)
            context.write(wrapOutboundOut(.data(last.data)), promise: last.promise)
            return
        }
        writeHeld(context: context)
        if case .data(let next) = payload, !next.endStream {
            held = (next, promise)
        } else {
            context.write(data, promise: promise)
        }
    }

    func flush(context: ChannelHandlerContext) {
        writeHeld(context: context)
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        writeHeld(context: context)
        context.close(mode: mode, promise: promise)
    }

    private func writeHeld(context: ChannelHandlerContext) {
        guard let last = held else { return }
        held = nil
        context.write(wrapOutboundOut(.data(last.data)), promise: last.promise)
    }
}
