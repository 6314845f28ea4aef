import Foundation
import Glibc
import Synchronization
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// Runs `body` against a capture server started on 127.0.0.1 with a free port, and shuts the
/// server down afterwards, whatever `body` does.
///
/// ```swift
/// try await withServer { server, port in
///     _ = try await RawHTTP.send(port: port, target: "/e")
/// }
/// ```
func withServer<T>(
    _ configuration: CaptureServer.Configuration = .init(), _ body: (CaptureServer, Int) async throws -> T
) async throws -> T {
    let server = try CaptureServer(configuration: configuration)
    let url = try await server.start()
    let port = try #require(url.port)
    do {
        let result = try await body(server, port)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// A call to the control API.
///
/// ```swift
/// let session = try await control(port, "POST", "sessions")
/// ```
func control(
    _ port: Int, _ method: String, _ path: String, body: String? = nil, headers: [(String, String)] = []
) async throws -> RawResponse {
    var headers = headers
    if body != nil { headers.append(("Content-Type", "application/json")) }
    return try await RawHTTP.send(
        port: port, method: method, target: "/__tracksnap/" + path, headers: headers, body: Array((body ?? "").utf8))
}

/// Sends a request whose target holds `marker` in a task of its own, and returns that task once
/// the request's work waits on the thread pool (`BlockingWorkHold`, which the caller holds and
/// releases). Fails at once when the request is answered without getting there (its work ran
/// where it arrived), and after `Bounds.wait` when it is neither held nor answered.
///
/// ```swift
/// BlockingWorkHold.hold(marker)
/// defer { BlockingWorkHold.release(marker) }
/// let bomb = try await heldOnThreadPool(marker) { try await RawHTTP.send(port: port, target: "/\(marker)") }
/// ```
func heldOnThreadPool(
    _ marker: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
    sending send: @escaping @Sendable () async throws -> RawResponse
) async throws -> Task<RawResponse, any Error> {
    let answered = Mutex(false)
    let task = Task {
        defer { answered.withLock { $0 = true } }
        return try await send()
    }
    let clock = ContinuousClock()
    let deadline = clock.now + Bounds.wait
    while !BlockingWorkHold.isHeld(marker), !answered.withLock({ $0 }), clock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
    }
    let how = answered.withLock { $0 } ? "was answered" : "waited \(Bounds.wait)"
    try #require(
        BlockingWorkHold.isHeld(marker), "the request \(how) without its work reaching the thread pool",
        sourceLocation: sourceLocation)
    return task
}

/// Starts a session and returns its id.
func startSession(_ port: Int, name: String? = nil) async throws -> String {
    let response = try await control(port, "POST", "sessions", body: name.map { "{\"name\": \"\($0)\"}" })
    #expect(response.status == 201)
    return try #require(try json(response.text)["id"]?.stringValue)
}

/// Parses JSON text with the project's parser.
func json(_ text: String) throws -> JSONValue {
    try JSONDocument.parse(Array(text.utf8), file: "response").value
}

/// Reads a control API array of captured requests: each element is an NDJSON capture line.
func capturedRequests(_ response: RawResponse) throws -> [CapturedRequest] {
    let elements = try #require(try json(response.text).arrayValue, "not an array: \(response.text)")
    if elements.isEmpty { return [] }
    let lines = elements.map { $0.serialized() }.joined(separator: "\n")
    return try CaptureFile.read(data: Data(lines.utf8), file: "response")
}

/// Runs `body` with a port nothing listens on: bound (the kernel's choice) but not listening, for
/// as long as `body` runs, so that a connection to it is refused and no test running beside it
/// can take it (a port merely found free and let go was, once, taken in between).
func withClosedPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    try await withBoundPort(listening: false, body)
}

/// Runs `body` with a port that takes connections and never reads them: the kernel accepts them
/// into its backlog, so a tunnel to it opens, and stays open as long as `body` runs.
func withListeningPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    try await withBoundPort(listening: true, body)
}

private func withBoundPort<T>(listening: Bool, _ body: (Int) async throws -> T) async throws -> T {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard named, !listening || listen(socket, 16) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return try await body(Int(UInt16(bigEndian: address.sin_port)))
}
