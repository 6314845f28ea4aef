import NIOCore

/// The first handler of an intercepted tunnel: its first byte tells a TLS handshake record
/// (0x16) from anything else, which is read as plain HTTP. It sets up the pipeline for that,
/// passes the bytes on, and leaves.
///
/// ```swift
/// TunnelSniffer { channel, isTLS in try configure(channel, tls: isTLS) }
/// ```
final class TunnelSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let configure: (any Channel, Bool) throws -> Void

    init(configure: @escaping (any Channel, Bool) throws -> Void) {
        self.configure = configure
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        do {
            try configure(context.channel, first == 0x16)
        } catch {
            context.fireErrorCaught(error)
            return
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
