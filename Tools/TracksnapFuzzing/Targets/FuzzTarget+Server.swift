import NIOCore
import NIOEmbedded
import TracksnapServer
import TracksnapSnapshot
import TracksnapTraffic

extension FuzzTarget {
    /// The most a body may be, sent or inflated, in the server under the fuzzer: small, so that
    /// every body is decoded where it arrives (`RequestRouter.inlineBudget`) and every answer
    /// is written before `writeInbound` returns.
    static let serverBodyLimit = 16 * 1024

    /// A server whose every answer is immediate: a token (which the fuzzer cannot guess) closes
    /// the control API and, as if bound beyond loopback, the forward proxy and its tunnels, so
    /// that nothing waits, forwards or connects; everything else is captured by the collector.
    static let serverUnderFuzz: CaptureServer? = {
        var configuration = CaptureServer.Configuration(
            maximumRequests: 64, maximumBodySize: serverBodyLimit,
            token: "fuzz-" + String(repeating: "7f3a9c", count: 8))
        configuration.simulatesPublicBinding = true
        return try? CaptureServer(configuration: configuration)
    }()

    /// The server's request handling: the bytes a client sends on one connection, through the
    /// connection's whole pipeline (HTTP parsing, pipelining, the body limit, routing, body
    /// decoding, recording, the control API's and the proxy's guards). Every answer is an HTTP
    /// response, and nothing recorded holds a body over the limit.
    static let server = FuzzTarget(
        "server",
        "the capture server's connection pipeline on an EmbeddedChannel: parsing, routing, body decoding, recording"
    ) { bytes throws(PropertyViolation) in
        guard let server = serverUnderFuzz else {
            throw PropertyViolation(target: "server", "the server cannot be configured")
        }
        server.store.reset()
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        do {
            try server.configureConnection(channel)
        } catch {
            throw PropertyViolation(target: "server", "the pipeline cannot be set up: \(error)")
        }
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        var answer: [UInt8] = []
        while let part = try? channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { answer += buffer.readableBytesView }
        }
        if !answer.isEmpty, !answer.starts(with: Array("HTTP/1.".utf8)) {
            throw PropertyViolation(
                target: "server",
                "the answer is not HTTP: \(String(decoding: answer.prefix(80), as: UTF8.self).debugDescription)")
        }
        for request in server.store.requests() {
            let size = request.bodyBytes?.count ?? 0
            guard size <= serverBodyLimit else {
                throw PropertyViolation(
                    target: "server",
                    "request \(request.id) was recorded with \(size) bytes of body, over the limit of \(serverBodyLimit)"
                )
            }
        }
    }
}
