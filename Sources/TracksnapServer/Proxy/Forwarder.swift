import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// Sends requests on to their target over pooled connections and turns the answer, or the
/// failure to get one, into the response the client receives.
///
/// ```swift
/// let response = await Forwarder().forward(request, to: "http://127.0.0.1:8080/v1/batch")
/// ```
///
/// Every server in the process shares one `HTTPClient` for each set of trusted certificates,
/// created on first use and never shut down: its pool outlives any one server, and a client that
/// is dropped without `shutdown()` would stop a debug build.
///
/// An answer is buffered whole before it is written to the client, so each is bounded by the
/// caller's `responseLimit` (the server's `--max-body-size`): a larger one is 502.
struct Forwarder: Sendable {
    private static let clients = Mutex<[[String]: HTTPClient]>([:])

    private let client: HTTPClient
    private let files: [String]

    /// A forwarder that verifies HTTPS upstreams against the system's roots and the
    /// certificates in `trusting` (PEM files), and speaks TLS 1.2 or later to them.
    ///
    /// - Throws: `CaptureServerError` naming a file that holds no PEM certificate.
    init(trusting files: [String] = []) throws(CaptureServerError) {
        for file in files {
            do {
                guard try !NIOSSLCertificate.fromPEMFile(file).isEmpty else {
                    throw CaptureServerError("\(file) holds no certificate")
                }
            } catch {
                throw CaptureServerError("--upstream-ca \(file) is not a readable PEM certificate file: \(error)")
            }
        }
        self.files = files
        client = Self.clients.withLock { clients in
            if let client = clients[files] { return client }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.configuration(files))
            clients[files] = client
            return client
        }
    }

    /// The configuration of a client that trusts `files` besides the system's roots.
    private static func configuration(_ files: [String]) -> HTTPClient.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = files.map { .file($0) }
        // TLS 1.0 and 1.1 are deprecated (RFC 8996); NIOSSL would still accept them.
        tls.minimumTLSVersion = .tlsv12
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // A proxy passes redirects back to the client instead of following them.
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(60)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64),
            decompression: .disabled
        )
        // Without this, a request to an upstream that is down waits out the whole connect
        // timeout retrying, where the client should get its 502 at once.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No span a request: tracksnap reports to no tracer, and the global no-op one still
        // cost each forwarded request a span's work (about 3% of the proxy under wrk).
        configuration.tracing.tracer = nil
        return configuration
    }

    /// Forwards a request; any failure becomes a 502 with `{"error": …}`.
    ///
    /// - Parameters:
    ///   - request: the request as received.
    ///   - url: the absolute URL to send it to.
    ///   - address: the IP address to connect to instead of resolving the URL's host name, which
    ///     still names the host in `Host` and in TLS (server name, certificate verified for it).
    ///   - responseLimit: the largest answer body passed back, in bytes; reading stops at the
    ///     first byte beyond it, and the client gets 502 saying so.
    func forward(_ request: IncomingRequest, to url: String, connectingTo address: String? = nil, responseLimit: Int)
        async -> Response
    {
        guard let address, let host = URL(string: url)?.host else {
            return await forward(request, to: url, with: client, responseLimit: responseLimit)
        }
        // AsyncHTTPClient connects elsewhere than the name's answer only through its
        // configuration's DNS override: the request gets a client of its own, without a pool,
        // shut down once the answer is read.
        var configuration = Self.configuration(files)
        configuration.dnsOverride = [host: address]
        let pinned = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let response = await forward(request, to: url, with: pinned, responseLimit: responseLimit)
        try? await pinned.shutdown()
        return response
    }

    /// Through the client's `EventLoopFuture` interface, the answer gathered by its
    /// `ResponseAccumulator`: its async one (`HTTPClientRequest`) read the body as an async
    /// sequence and made tasks of its own, about a quarter of the proxy's time under wrk.
    private func forward(_ request: IncomingRequest, to url: String, with client: HTTPClient, responseLimit: Int)
        async -> Response
    {
        // Host and Content-Length are set by the client for the new target and body.
        let headers = HopByHop.removing(
            from: request.headers, alsoRemoving: ["host", "content-length", SessionRouting.headerName])
        let body: HTTPClient.Body? =
            request.body.readableBytes > 0 || request.headers.contains(name: "Content-Length")
            ? .byteBuffer(request.body) : nil
        do {
            let outgoing = try HTTPClient.Request(url: url, method: request.method, headers: headers, body: body)
            let task = client.execute(
                request: outgoing, delegate: ResponseAccumulator(request: outgoing, maxBodySize: responseLimit),
                deadline: .now() + .seconds(120))
            let upstream = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            var response = Response(status: upstream.status, body: upstream.body ?? ByteBuffer())
            response.isUpstreamAnswer = true
            if request.method == .HEAD {
                response.headers = HopByHop.removing(from: upstream.headers)
                response.keepsContentLength = true
            } else {
                response.headers = HopByHop.removing(from: upstream.headers, alsoRemoving: ["content-length"])
            }
            return response
        } catch is ResponseAccumulator.ResponseTooBigError {
            return .error(
                .badGateway,
                "the answer of \(url) is larger than the limit of \(responseLimit) bytes (--max-body-size); tracksnap passes an answer on whole, so it refuses a larger one"
            )
        } catch {
            return .error(.badGateway, "tracksnap could not reach \(url): \(Self.reason(error))")
        }
    }

    /// What went wrong, in words a person looks for first: the connection refused, the
    /// certificate not verified, a TLS version too old; then the error itself.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        let lowered = text.lowercased()
        if lowered.contains("certificate_verify_failed") || lowered.contains("certificate verify failed") {
            return
                "certificate verification failed (the upstream's certificate is not trusted: --upstream-ca FILE trusts another CA): \(text)"
        }
        if lowered.contains("unsupported_protocol") || lowered.contains("protocol_version") {
            return "the upstream does not speak TLS 1.2 or later, which tracksnap requires: \(text)"
        }
        if lowered.contains("connection refused") || lowered.contains("econnrefused") {
            // NIO's own words add nothing here, and come with unbalanced brackets.
            return "connection refused: nothing listens at that address (is the upstream started?)"
        }
        return text
    }
}
