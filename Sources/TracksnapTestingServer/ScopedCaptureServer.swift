public import Foundation
import TracksnapCapture
import TracksnapServer

/// A capture server running in the test's own process for one scope: made by
/// `withCaptureServer` or the `.captureServer` trait, shut down when the scope ends.
///
/// ```swift
/// try await withCaptureServer { server in
///     let session = try await server.startSession(name: "checkout")
///     // … point the app at session.baseURL, or launch it with session.environment …
///     await assertTracking(session, matches: "Snapshots/checkout.json")
/// }
/// ```
public struct ScopedCaptureServer: Sendable {
    /// The server itself: its store holds everything captured.
    public let server: CaptureServer
    /// The server's address, `http://127.0.0.1:PORT`.
    public let url: URL
    /// A control API client for it.
    public let client: TracksnapClient

    /// The server of the running test, set by the `.captureServer` trait.
    ///
    /// ```swift
    /// @Test(.captureServer()) func checkout() async throws {
    ///     let server = try #require(ScopedCaptureServer.current)
    /// }
    /// ```
    @TaskLocal public static var current: ScopedCaptureServer?

    /// The port it listens on.
    public var port: Int { url.port ?? 0 }

    /// Starts a capture session (`TracksnapClient.startSession`).
    ///
    /// - Throws: `TracksnapClientError`.
    public func startSession(name: String? = nil) async throws(TracksnapClientError) -> TracksnapClient.Session {
        try await client.startSession(name: name)
    }

    /// A session already started, by its id.
    public func session(id: String) -> TracksnapClient.Session {
        client.session(id: id)
    }
}

/// Runs `body` with a capture server started in this process, and shuts the server down when
/// `body` returns or throws.
///
/// ```swift
/// try await withCaptureServer { server in
///     let session = try await server.startSession()
///     let app = try await runApp(environment: session.environment)  // reports into the session
///     let report = try await session.validate(snapshot: "Snapshots/checkout.json", settle: .milliseconds(500))
/// }
/// ```
/// The server listens on a free port of 127.0.0.1 unless the configuration says otherwise
/// (its `port` 0 asks the kernel for one), answers as the collector (200 `{}`), and resolves
/// the paths the control API is given (`validate`, `record`) against `configuration.root`,
/// by default the working directory.
/// - Parameters:
///   - configuration: how the server listens, answers and records; `CaptureServer.Configuration()` by default.
///   - body: the scope; the server runs while it does.
/// - Returns: what `body` returns.
/// - Throws: `CaptureServerError` when the server cannot start, or what `body` throws.
@discardableResult
public func withCaptureServer<R>(
    _ configuration: CaptureServer.Configuration = CaptureServer.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ScopedCaptureServer) async throws -> R
) async throws -> R {
    let server = try CaptureServer(configuration: configuration)
    let url: URL
    do {
        url = try await server.start()
    } catch {
        try? await server.shutdown()
        throw error
    }
    let scoped = ScopedCaptureServer(
        server: server, url: url, client: TracksnapClient(baseURL: url, token: configuration.token))
    let result: R
    do {
        result = try await body(scoped)
    } catch {
        try? await server.shutdown()
        throw error
    }
    try await server.shutdown()
    return result
}
