// The server benchmark's SwiftNIO peer (`make bench-server`): the least a SwiftNIO HTTP/1 server
// does, on the event loops and with the HTTP/1 handlers `tracksnap serve`'s connections have (the
// singleton group, a loop a core; decoder, encoder, pipelining), answering every request 204 and
// keeping nothing. What it answers beside nginx in the same run bounds what any server on SwiftNIO
// answers on that machine; tracksnap's collector is read against both.
//
//     NIOFloor PORT    (prints "listening on http://127.0.0.1:PORT/"; 0 picks a free port)
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

final class NoContent: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let head = HTTPResponseHead(version: .http1_1, status: .noContent, headers: ["content-length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(NoContent()) }
    }
    .bind(host: "127.0.0.1", port: port).wait()
// Written at once, not when a buffered stdout fills: the benchmark reads the port from a file.
FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)/\n".utf8))
try channel.closeFuture.wait()
