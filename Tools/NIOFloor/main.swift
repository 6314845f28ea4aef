// The server benchmark's SwiftNIO peers (`make bench-server`): the least a SwiftNIO HTTP/1 server
// does, on the event loops and with the HTTP/1 handlers `tracksnap serve`'s connections have (the
// singleton group, a loop a core; decoder, encoder, pipelining), keeping nothing. Alone it answers
// every request 204; given an upstream it passes every request on with AsyncHTTPClient, as
// tracksnap's reverse proxy does (the same client configuration, the answer gathered whole by a
// `ResponseAccumulator`, through the client's futures, on no Swift task), and answers what the
// upstream answered. What it answers beside nginx or mitmdump in the same run bounds what any server
// or proxy on these libraries answers on that machine; tracksnap's collector and proxy are read
// against both.
//
//     NIOFloor PORT [UPSTREAM]   (prints "listening on http://127.0.0.1:PORT/"; 0 picks a free port)
import AsyncHTTPClient
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

/// Passes each request on to `upstream` (its path and query appended) and answers what came back,
/// or 502.
final class PassOn: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let client: HTTPClient
    let upstream: String
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(client: HTTPClient, upstream: String) {
        self.client = client
        self.upstream = upstream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head else { return }
            var headers = head.headers
            headers.remove(name: "host")
            headers.remove(name: "content-length")
            headers.remove(name: "connection")
            let future: EventLoopFuture<HTTPClient.Response>
            do {
                let request = try HTTPClient.Request(
                    url: upstream + head.uri, method: head.method, headers: headers,
                    body: body.readableBytes > 0 ? .byteBuffer(body) : nil)
                future =
                    client.execute(
                        request: request, delegate: ResponseAccumulator(request: request),
                        deadline: .now() + .seconds(120)
                    ).futureResult
            } catch {
                future = context.eventLoop.makeFailedFuture(error)
            }
            future.hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
                var answer = HTTPResponseHead(version: .http1_1, status: .badGateway, headers: ["content-length": "0"])
                var bytes = ByteBuffer()
                if case .success(let response) = result {
                    bytes = response.body ?? ByteBuffer()
                    answer.status = response.status
                    answer.headers = response.headers
                    answer.headers.remove(name: "connection")
                    answer.headers.replaceOrAdd(name: "content-length", value: String(bytes.readableBytes))
                }
                context.write(self.wrapOutboundOut(.head(answer)), promise: nil)
                if bytes.readableBytes > 0 {
                    context.write(self.wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
                }
                context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap { Int($0) } ?? 0
let upstream = arguments.dropFirst().first.map { String($0.reversed().drop { $0 == "/" }.reversed()) }
// As tracksnap's `Forwarder` configures its client, TLS aside.
var configuration = HTTPClient.Configuration(
    redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(60)),
    connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64),
    decompression: .disabled)
configuration.connectionPool.retryConnectionEstablishment = false
configuration.tracing.tracer = nil
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
            let handler: any ChannelHandler =
                if let upstream { PassOn(client: client, upstream: upstream) } else { NoContent() }
            try channel.pipeline.syncOperations.addHandler(handler)
        }
    }
    .bind(host: "127.0.0.1", port: port).wait()
// Written at once, not when a buffered stdout fills: the benchmark reads the port from a file.
FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)/\n".utf8))
try channel.closeFuture.wait()
