import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Sends requests on to their target over pooled connections and turns the answer, or the
/// failure to get one, into the response the client receives.
///
/// ```swift
/// let response = await Forwarder().forward(request, to: "http://127.0.0.1:8080/v1/batch")
/// ```
///
/// Every server in the process shares one `HTTPClient`, created on first use and never shut
/// down: its pool outlives any one server, and a client that is dropped without `shutdown()`
/// would stop a debug build.
struct Forwarder: Sendable {
    /// The largest upstream response passed back, in bytes.
    static let maximumResponseSize = 256 * 1024 * 1024

    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            // A proxy passes redirects back to the client instead of following them.
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(60)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64),
            decompression: .disabled
        )
        // Without this, a request to an upstream that is down waits out the whole connect
        // timeout retrying, where the client should get its 502 at once.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Forwards a request; any failure becomes a 502 with `{"error": …}`.
    ///
    /// - Parameters:
    ///   - request: the request as received.
    ///   - url: the absolute URL to send it to.
    func forward(_ request: IncomingRequest, to url: String) async -> Response {
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = request.method
        // Host and Content-Length are set by the client for the new target and body.
        outgoing.headers = HopByHop.removing(
            from: request.headers, alsoRemoving: ["host", "content-length", SessionRouting.headerName.lowercased()])
        if request.body.readableBytes > 0 || request.headers.contains(name: "Content-Length") {
            outgoing.body = .bytes(request.body)
        }
        do {
            let upstream = try await Self.client.execute(outgoing, timeout: .seconds(120))
            let body = try await upstream.body.collect(upTo: Self.maximumResponseSize)
            var response = Response(status: upstream.status, body: body)
            if request.method == .HEAD {
                response.headers = HopByHop.removing(from: upstream.headers)
                response.keepsContentLength = true
            } else {
                response.headers = HopByHop.removing(from: upstream.headers, alsoRemoving: ["content-length"])
            }
            return response
        } catch {
            return .error(.badGateway, "tracksnap could not reach \(url): \(error)")
        }
    }
}
