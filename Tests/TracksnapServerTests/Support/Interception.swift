import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
import Testing
import TracksnapTestSupport

@testable import TracksnapServer

/// A certificate authority made for one test in a temporary folder.
func withAuthority<T>(_ body: (CertificateAuthority) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        let (authority, _) = try CertificateAuthority.loadOrCreate(in: directory.appending(path: "ca").path)
        return try await body(authority)
    }
}

/// A server configured to intercept `patterns` with `authority`, notices gathered.
func interceptingConfiguration(
    _ patterns: [String], answer: Bool, authority: CertificateAuthority, notices: Notices,
    upstreamCertificates: [String] = []
) throws -> CaptureServer.Configuration {
    var configuration = CaptureServer.Configuration()
    configuration.interception = try Interception(patterns, answer: answer)
    configuration.certificateAuthority = authority
    configuration.upstreamCertificateFiles = upstreamCertificates
    configuration.notices = { notices.append($0) }
    // Generous: a handshake on a loaded machine must not be taken for a silent client.
    configuration.headerTimeout = .seconds(30)
    return configuration
}

/// The lines a server told through `notices`.
final class Notices: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

/// curl through the proxy on `port`, trusting `authority` unless told otherwise; `-w` prints
/// the HTTP version after a line break.
func curlThroughProxy(_ port: Int, _ arguments: [String], trusting authority: CertificateAuthority?) async throws
    -> ProcessResult
{
    var words = ["curl", "--silent", "--show-error", "--max-time", "30", "--proxy", "http://127.0.0.1:\(port)"]
    if let authority { words += ["--cacert", authority.certificatePath] }
    // No proxy variable of the test's environment may take these requests elsewhere.
    var environment = ProcessInfo.processInfo.environment
    for name in [
        "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
    ] {
        environment[name] = nil
    }
    return try await runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), words + arguments, environment: environment, timeout: Bounds.process)
}

/// `Fixtures/tunnel_client.py`: a misbehaving client of an intercepted tunnel, given the CA to
/// trust or (`hello-sni`) the server name to send.
func tunnelClient(
    _ port: Int, _ target: String, _ mode: String, authority: CertificateAuthority? = nil, serverName: String? = nil
) async throws -> ProcessResult {
    let script = PackagePaths.root.appending(path: "Tests/TracksnapServerTests/Fixtures/tunnel_client.py").path
    return try await runProcess(
        URL(fileURLWithPath: "/usr/bin/env"),
        ["python3", script, String(port), target, mode] + (authority.map { [$0.certificatePath] } ?? [])
            + (serverName.map { [$0] } ?? []),
        timeout: Bounds.process)
}

/// Waits, with a deadline (`Bounds.wait`), until `condition` holds.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + Bounds.wait
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// The interception tests' upstream: HTTPS on 127.0.0.1 (or another loopback `address`) with a
/// certificate for `name` from `authority` (a CA of the test's, not tracksnap's), answering
/// every request 201 with `upstream saw METHOD PATH with N bytes` and `X-Upstream: yes`.
final class UpstreamTLSServer: Sendable {
    let channel: any Channel
    let port: Int
    private let accepted: Accepted

    /// The TCP connections it accepted, handshake or not.
    var connections: Int { accepted.count.load(ordering: .relaxed) }

    private final class Accepted: Sendable {
        let count = Atomic<Int>(0)
    }

    private init(channel: any Channel, port: Int, accepted: Accepted) {
        self.channel = channel
        self.port = port
        self.accepted = accepted
    }

    static func start(authority: CertificateAuthority, address: String = "127.0.0.1", name: String = "127.0.0.1")
        async throws -> UpstreamTLSServer
    {
        // HTTP/1.1 only: its pipeline speaks nothing else.
        let context = try LeafCertificates(authority: authority, applicationProtocols: ["http/1.1"]).context(
            for: name)
        let accepted = Accepted()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.count.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Answerer())
                }
            }
            .bind(host: address, port: 0).get()
        return UpstreamTLSServer(channel: channel, port: try #require(channel.localAddress?.port), accepted: accepted)
    }

    func stop() async {
        try? await channel.close()
    }

    private final class Answerer: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var head: HTTPRequestHead?
        private var bytes = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                bytes = 0
            case .body(let body):
                bytes += body.readableBytes
            case .end:
                guard let head else { return }
                let text = "upstream saw \(head.method.rawValue) \(head.uri) with \(bytes) bytes"
                let headers: HTTPHeaders = [
                    "X-Upstream": "yes", "Content-Type": "text/plain", "Content-Length": String(text.utf8.count),
                ]
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .created, headers: headers))),
                    promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
